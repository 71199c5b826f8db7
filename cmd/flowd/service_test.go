package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/service"
)

func TestDescribeService(t *testing.T) {
	for _, tt := range []struct {
		st   service.Status
		want string
	}{
		{service.Status{Problem: "no systemd"}, "unavailable: no systemd"},
		{service.Status{Manager: service.Systemd, Scope: service.User}, "systemd user unit: not installed (flowd install sets it up)"},
		{service.Status{Manager: service.Systemd, Scope: service.System, Installed: true, Enabled: true, Running: true, Unit: "/etc/systemd/system/flowd.service"},
			"systemd system unit /etc/systemd/system/flowd.service: installed, enabled, running"},
		{service.Status{Manager: service.Launchd, Scope: service.User, Installed: true, Unit: "/Users/a/Library/LaunchAgents/flowd.plist", Problem: "launchctl failed"},
			"launchd agent /Users/a/Library/LaunchAgents/flowd.plist: installed, disabled, not running (launchctl failed)"},
	} {
		assert.Equal(t, tt.want, describe(tt.st))
	}
}

// status --json keeps the daemon's fields and adds the service's.
func TestStatusJSONHasServiceObject(t *testing.T) {
	out, err := exec.Command(flowdBin(t), "status", "--json", "--socket", filepath.Join(shortDir(t), "none.sock")).Output()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "not running exits 1")
	assert.Equal(t, 1, exit.ExitCode())
	var st map[string]any
	require.NoError(t, json.Unmarshal(out, &st), "%s", out)
	assert.Equal(t, false, st["running"])
	assert.Contains(t, st, "socket")
	assert.Contains(t, st, "shims")
	svc, ok := st["service"].(map[string]any)
	require.True(t, ok, "service object in %s", out)
	for _, k := range []string{"installed", "enabled", "running"} {
		assert.Contains(t, svc, k)
	}
}

// A flowd a shim started on demand gives the socket up to the service
// being installed, with a graceful stop.
func TestHandOverStopsTheOnDemandFlowd(t *testing.T) {
	dir := shortDir(t)
	socket := filepath.Join(dir, "run", "flowd.sock")
	require.NoError(t, handOver(socket), "nothing to stop")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "none.toml"), nil, 0o600))

	cmd := exec.Command(flowdBin(t), "run", "--config", filepath.Join(dir, "none.toml"), "--socket", socket, "--data-dir", filepath.Join(dir, "data"))
	cmd.Env = append(os.Environ(), "FLOWD_CONFIG=", "NOTIFY_SOCKET=", "LISTEN_FDS=")
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill() })
	lines := logLines(t, stderr)
	awaitLog(t, lines, "flowd ready")

	require.NoError(t, handOver(socket))
	for range lines {
	}
	require.NoError(t, cmd.Wait(), "stopped gracefully, exit 0")
	assert.NoFileExists(t, socket)
}
