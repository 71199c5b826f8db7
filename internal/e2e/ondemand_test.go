//go:build unix

package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// On a machine where no service looks after flowd, flowd start, stop,
// restart and uninstall act on the flowd started on demand: start runs
// one in the background that outlives the command, stop ends it and
// returns once the process is gone, restart does both.
func TestStartStopRestartOnDemand(t *testing.T) {
	t.Parallel()
	declareSources()
	sockDir, err := os.MkdirTemp("", "fod-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(sockDir) })
	dir := t.TempDir()
	config := filepath.Join(dir, "flowd.toml")
	require.NoError(t, os.WriteFile(config, []byte(baseConfig), 0o600))
	socket := filepath.Join(sockDir, "flowd.sock")
	data := filepath.Join(dir, "data")
	// A home of its own: no service of the user's is installed there, on
	// a machine with systemd or without.
	env := []string{"HOME=" + filepath.Join(dir, "home"), "FLOWD_SOCKET=" + socket, "FLOWD_DATA_DIR=" + data,
		"FLOWD_CONFIG=" + config, "XDG_CONFIG_HOME=", "XDG_STATE_HOME=",
		// What the agent's environment may hold that would change how the
		// flowd it starts runs: left behind.
		"GOGC=off", "GOMEMLIMIT=1MiB", "GODEBUG=gctrace=1"}
	flowd := func(args ...string) string {
		t.Helper()
		stdout, stderr, code := runTool(t, dir, time.Minute, append([]string{bins.flowd}, args...), env...)
		require.Equal(t, 0, code, "flowd %v: %s%s", args, stdout, stderr)
		return string(stdout)
	}
	status := func() (running bool, pid int) {
		t.Helper()
		var st struct {
			Running bool `json:"running"`
			PID     int  `json:"pid"`
		}
		// It exits 1 when flowd is not running.
		stdout, stderr, code := runTool(t, dir, time.Minute, []string{bins.flowd, "status", "--json"}, env...)
		require.NoError(t, json.Unmarshal(stdout, &st), "flowd status --json: %s%s", stdout, stderr)
		assert.Equal(t, map[bool]int{true: 0, false: 1}[st.Running], code, "flowd status's exit code")
		return st.Running, st.PID
	}
	t.Cleanup(func() {
		if running, pid := status(); running {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})

	assert.Contains(t, flowd("stop"), "flowd is not running")

	assert.Contains(t, flowd("start"), "flowd started in the background")
	running, first := status()
	require.True(t, running, "flowd runs after flowd start returned")
	// It knows how it runs, and says so with the config in force.
	var st struct {
		Service struct {
			StartedBy string `json:"started_by"`
		} `json:"service"`
		Config struct {
			File string `json:"file"`
		} `json:"config"`
	}
	stdout, stderr, _ := runTool(t, dir, time.Minute, []string{bins.flowd, "status", "--json"}, env...)
	require.NoError(t, json.Unmarshal(stdout, &st), "flowd status --json: %s%s", stdout, stderr)
	assert.Equal(t, "on demand", st.Service.StartedBy)
	assert.Equal(t, config, st.Config.File)
	stdout, _, _ = runTool(t, dir, time.Minute, []string{bins.flowd, "status"}, env...)
	assert.Contains(t, string(stdout), "started  on demand: a shim or flowd start started it")
	if environ, err := os.ReadFile("/proc/" + strconv.Itoa(first) + "/environ"); err == nil {
		assert.NotContains(t, string(environ), "GOGC=")
		assert.NotContains(t, string(environ), "GODEBUG=")
		assert.NotContains(t, string(environ), "FLOWD_DATA_DIR=", "its paths are on its command line")
		assert.Contains(t, string(environ), "HOME=")
	} else {
		t.Logf("the started flowd's environment is not checked: %v", err)
	}
	assert.Contains(t, flowd("start"), "flowd is already running")
	_, again := status()
	assert.Equal(t, first, again, "a second start leaves the running flowd alone")

	out := flowd("restart", "--socket", socket) // as doctor and status name it
	assert.Contains(t, out, "stopped")
	assert.Contains(t, out, "started in the background")
	running, second := status()
	require.True(t, running, "flowd runs after flowd restart returned")
	assert.NotEqual(t, first, second, "restart started another flowd")
	assert.False(t, processRuns(first), "the first flowd is gone when restart returns")

	assert.Contains(t, flowd("stop"), "stopped")
	running, _ = status()
	assert.False(t, running, "flowd answers after flowd stop returned")
	assert.False(t, processRuns(second), "flowd is gone when stop returns")

	log, err := os.ReadFile(filepath.Join(data, "flowd.log"))
	require.NoError(t, err, "the on-demand flowd's log")
	assert.NotEmpty(t, log)

	// A hung flowd is not taken for a stopped one.
	flowd("start")
	_, third := status()
	require.NoError(t, syscall.Kill(third, syscall.SIGSTOP))
	_, stderr, code := runTool(t, dir, time.Minute, []string{bins.flowd, "stop"}, env...)
	require.NoError(t, syscall.Kill(third, syscall.SIGCONT))
	assert.Equal(t, 1, code, "flowd stop of a hung flowd")
	assert.Contains(t, string(stderr), "accepts connections on "+socket+" but does not answer")

	// Uninstall where no service was installed stops the on-demand flowd,
	// which would otherwise run on from removed binaries.
	assert.Contains(t, flowd("uninstall", "--purge"), "stopped the flowd started on demand")
	assert.False(t, processRuns(third), "flowd is gone when uninstall returns")
	_, err = os.Stat(data)
	assert.ErrorIs(t, err, os.ErrNotExist, "the purged data dir")
}

// processRuns reports whether pid is a process that has not exited (a
// zombie has: where nothing reaps orphans it stays one).
func processRuns(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	return err != nil || !bytes.Contains(b, []byte(") Z "))
}
