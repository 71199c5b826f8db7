package shim

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A process that uses CPU works; a stopped one does not, whatever it did
// before it was stopped.
func TestProcessWorking(t *testing.T) {
	busy := processWorking(os.Getpid())
	require.NotNil(t, busy)
	// Spun until the kernel has counted a clock tick of CPU: on a busy
	// machine the thread may not get one at once.
	worked := false
	for deadline := time.Now().Add(10 * time.Second); !worked && time.Now().Before(deadline); {
		spin(10 * time.Millisecond)
		worked = busy()
	}
	assert.True(t, worked, "this process used CPU")

	cmd := exec.Command("sleep", "60")
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	require.NoError(t, cmd.Process.Signal(syscall.SIGSTOP))
	waitStopped(t, cmd.Process.Pid)
	stopped := processWorking(cmd.Process.Pid)
	require.NotNil(t, stopped)
	assert.False(t, stopped(), "a stopped process")
	assert.Nil(t, processWorking(1<<30), "no such process")
}

// spin uses d of CPU time on this thread.
func spin(d time.Duration) {
	for start := time.Now(); time.Since(start) < d; {
	}
}

// waitStopped waits until the kernel shows pid stopped: kill returns
// before the signal is delivered.
func waitStopped(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if state, _, ok := readStat("/proc/" + strconv.Itoa(pid) + "/stat"); ok && state == 'T' {
			return
		}
	}
	t.Fatalf("process %d did not stop", pid)
}
