package shim

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/windows"
)

// roleEnv makes this test binary play the shim or the upstream of
// TestUpstreamEndsWithTheShim.
const roleEnv = "FLOWD_SHIM_TEST_ROLE"

// A shim killed outright (TerminateProcess: no signal, no stdin EOF for
// an upstream that ignores stdin) takes its upstream with it.
func TestUpstreamEndsWithTheShim(t *testing.T) {
	self, err := os.Executable()
	require.NoError(t, err)
	again := func(role string) *exec.Cmd {
		cmd := exec.Command(self, "-test.run=^TestUpstreamEndsWithTheShim$")
		cmd.Env = append(os.Environ(), roleEnv+"="+role)
		return cmd
	}
	switch os.Getenv(roleEnv) {
	case "upstream":
		fmt.Println("upstream running") // proves startChild resumed it
		time.Sleep(time.Hour)           // ignores stdin, like a careless server
		os.Exit(0)
	case "shim":
		up := again("upstream")
		up.Stdout = os.Stdout
		if _, err := startChild(up); err != nil {
			fmt.Println("startChild:", err)
			os.Exit(1)
		}
		fmt.Println("upstream pid", up.Process.Pid)
		time.Sleep(time.Hour) // until the test kills it
		os.Exit(0)
	}

	shim := again("shim")
	out, err := shim.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, shim.Start())
	t.Cleanup(func() { shim.Process.Kill(); shim.Wait() })

	var pid uint32
	sawRunning := false
	lines := bufio.NewScanner(out)
	for (pid == 0 || !sawRunning) && lines.Scan() {
		line := lines.Text()
		switch {
		case line == "upstream running":
			sawRunning = true
		case strings.HasPrefix(line, "upstream pid "):
			_, err := fmt.Sscanf(line, "upstream pid %d", &pid)
			require.NoError(t, err, line)
		default:
			t.Fatalf("the shim said %q", line)
		}
	}
	require.True(t, sawRunning && pid != 0, "the shim ended before its upstream ran: %v", lines.Err())

	up, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_TERMINATE, false, pid)
	require.NoError(t, err, "open the upstream")
	defer windows.CloseHandle(up)
	require.NoError(t, shim.Process.Kill())
	ev, err := windows.WaitForSingleObject(up, 10_000)
	require.NoError(t, err)
	if ev != windows.WAIT_OBJECT_0 {
		windows.TerminateProcess(up, 1)
		t.Fatal("the upstream still ran 10s after its shim was killed")
	}
}
