package main

import (
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// systemSocket makes what systemd makes for flowd.socket of a system
// install: a 0755 directory and a listening socket of mode, group this
// process's own (any user may give a file one of their groups).
func systemSocket(t *testing.T, dir string, mode os.FileMode) (string, *os.File) {
	run := filepath.Join(dir, "run")
	require.NoError(t, os.Mkdir(run, 0o755))
	require.NoError(t, os.Chmod(run, 0o755))
	path := filepath.Join(run, "flowd.sock")
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	require.NoError(t, err)
	l.SetUnlinkOnClose(false)
	t.Cleanup(func() { l.Close() })
	require.NoError(t, os.Chmod(path, mode))
	require.NoError(t, os.Chown(path, -1, os.Getgid()))
	f, err := l.File()
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	require.NoError(t, os.WriteFile(filepath.Join(dir, "none.toml"), nil, 0o600))
	return path, f
}

// The system unit's `flowd run --system` takes the socket systemd passes
// and serves it: the group it is shared with is read from the socket.
func TestRunSystemSocketActivated(t *testing.T) {
	dir := shortDir(t)
	path, sock := systemSocket(t, dir, 0o660)
	notify, notifyPath := notifySocket(t, dir)
	cmd, stderr := activatedFlowd(t, dir, sock, notifyPath, "--system")
	awaitNotify(t, notify, "READY=1")

	out, err := exec.Command(flowdBin(t), "status", "--socket", path).CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), fmt.Sprintf("running, pid %d", cmd.Process.Pid))
	require.NoError(t, cmd.Process.Signal(os.Interrupt))
	require.NoError(t, cmd.Wait())
	logged, err := os.ReadFile(stderr.Name())
	require.NoError(t, err)
	assert.Contains(t, string(logged), "flowd ready")
}

// A system flowd whose socket its group cannot use would serve no one:
// it says so instead of starting.
func TestRunSystemRefusesPrivateSocket(t *testing.T) {
	dir := shortDir(t)
	path, sock := systemSocket(t, dir, 0o600)
	notify, notifyPath := notifySocket(t, dir)
	_ = notify
	cmd, stderr := activatedFlowd(t, dir, sock, notifyPath, "--system")
	require.Error(t, cmd.Wait())
	logged, err := os.ReadFile(stderr.Name())
	require.NoError(t, err)
	assert.Contains(t, string(logged), "socket "+path+" has mode 0600, so its group")
	assert.Contains(t, string(logged), "SocketMode=0660")
}

func TestSystemDefaultsFillOnlyWhatIsNotGiven(t *testing.T) {
	fl := flag.NewFlagSet("run", flag.ContinueOnError)
	cfg := fl.String("config", "/home/ann/.config/flowd/config.toml", "")
	socket := fl.String("socket", "/run/user/1000/flowd/flowd.sock", "")
	data := fl.String("data-dir", "/home/ann/.local/state/flowd", "")
	require.NoError(t, fl.Parse([]string{"--socket", "/srv/flowd.sock"}))
	systemDefaults(fl, cfg, socket, data)
	assert.Equal(t, "/etc/flowd/config.toml", *cfg)
	assert.Equal(t, "/srv/flowd.sock", *socket, "given on the command line: kept")
	assert.Equal(t, "/var/lib/flowd", *data)
}
