package systemd

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain lets a test run this binary as a socket-activated child: it
// prints what Listener made of the file descriptors it was given.
func TestMain(m *testing.M) {
	if os.Getenv("SYSTEMD_TEST_CHILD") == "1" {
		l, err := Listener()
		switch {
		case err != nil:
			fmt.Print("error: ", err)
		case l == nil:
			fmt.Print("none")
		default:
			fmt.Printf("%s %s env=%q", l.Addr().Network(), l.Addr().String(), os.Getenv("LISTEN_FDS"))
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// activated runs the child as systemd would: the sockets from fd 3 on,
// LISTEN_FDS their number and LISTEN_PID the child's pid (the shell's $$,
// which exec keeps).
func activated(t *testing.T, pid string, files ...*os.File) string {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", `LISTEN_PID=`+pid+` exec "$0" -test.run=^$`, os.Args[0])
	cmd.Env = append(os.Environ(), "SYSTEMD_TEST_CHILD=1", fmt.Sprintf("LISTEN_FDS=%d", len(files)),
		// Under -race each exit would otherwise wait a second.
		"GORACE="+os.Getenv("GORACE")+" atexit_sleep_ms=0")
	cmd.ExtraFiles = files
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return string(out)
}

func listenerFile(t *testing.T, network, addr string) *os.File {
	l, err := net.Listen(network, addr)
	require.NoError(t, err)
	t.Cleanup(func() { l.Close() })
	f, err := l.(interface{ File() (*os.File, error) }).File()
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	return f
}

func TestListenerTakesTheSocketSystemdPassed(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "flowd.sock")
	unix := listenerFile(t, "unix", sock)
	assert.Equal(t, fmt.Sprintf("unix %s env=\"\"", sock), activated(t, "$$", unix), "LISTEN_* cleared for children")
	assert.Equal(t, "none", activated(t, "1", unix), "LISTEN_PID names another process")
	assert.Equal(t, "none", activated(t, "$$"), "no sockets")

	tcp := listenerFile(t, "tcp", "127.0.0.1:0")
	assert.Contains(t, activated(t, "$$", tcp), "error: socket passed by systemd is tcp, not a Unix stream socket")
	assert.Contains(t, activated(t, "$$", unix, listenerFile(t, "unix", sock+"2")), "error: systemd passed 2 sockets")
}
