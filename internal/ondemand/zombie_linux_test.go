package ondemand

import (
	"os/exec"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// A process that ended but was not reaped is gone for Stop: it has let go
// of flowd's files, and where nothing reaps orphans it stays a zombie.
func TestAliveCountsZombiesAsGone(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	require.NoError(t, cmd.Start())
	pid := cmd.Process.Pid
	assert.True(t, alive(pid), "a running child")

	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	// WNOWAIT: wait until it has exited, and leave it unreaped.
	var info unix.Siginfo
	require.NoError(t, unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil))
	assert.True(t, zombie(pid))
	assert.False(t, alive(pid), "a zombie")

	cmd.Wait()
	assert.False(t, alive(pid), "a reaped process")
}
