//go:build linux

package localsock

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Ids no account on a test machine is likely to have: the children below
// run as them, and nothing is created for them but the directories each
// test removes.
const (
	testGroup              = 64200
	memberUID, primaryUID  = 64301, 64302
	strangerUID, ownerUID  = 64303, 64304
	envDial, envListen     = "LOCALSOCK_TEST_DIAL", "LOCALSOCK_TEST_LISTEN"
	helperRun              = "-test.run=^TestHelperProcess$"
	childTimeout           = 10 * time.Second
	readyLine, admittedMsg = "listening", "admitted"
)

// TestHelperProcess is the child of the tests below, run as another uid:
// it dials a socket and says whether flowd let it in, or listens on one.
func TestHelperProcess(t *testing.T) {
	switch {
	case os.Getenv(envDial) != "":
		c, err := Dial(os.Getenv(envDial), childTimeout)
		if err != nil {
			fmt.Println("dial:", err)
			os.Exit(0)
		}
		// As every client of the socket does, it speaks first.
		c.Write([]byte("GET /api/v1/status HTTP/1.1\r\nHost: flowd\r\n\r\n"))
		b, err := io.ReadAll(c)
		if string(b) == "ok" {
			fmt.Println(admittedMsg)
		} else {
			fmt.Printf("refused: %q %v\n", b, err)
		}
		os.Exit(0)
	case os.Getenv(envListen) != "":
		l, err := Listen(os.Getenv(envListen))
		if err != nil {
			fmt.Println("listen:", err)
			os.Exit(1)
		}
		fmt.Println(readyLine)
		for {
			c, err := l.Accept()
			if err != nil {
				os.Exit(0)
			}
			c.Close()
		}
	}
}

// asOthers sets up what running children as other uids takes, or skips
// saying why: root, and a directory every uid can enter holding a copy
// of this test binary (go test's build directory is private to root).
func asOthers(t *testing.T) (base, binary string) {
	if os.Getuid() != 0 {
		t.Skip("needs root to run children as other uids; the rules themselves are covered by TestAdmit and TestTrustListener")
	}
	base, err := os.MkdirTemp("", "flowd-localsock-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(base) })
	require.NoError(t, os.Chmod(base, 0o755))
	for d := filepath.Dir(base); ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		require.NoError(t, err)
		if fi.Mode().Perm()&0o001 == 0 {
			t.Skipf("%s (above the temp dir %s) is closed to other users, so children running as them cannot reach a socket: set TMPDIR to a directory under /tmp", d, base)
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	self, err := os.ReadFile(os.Args[0])
	require.NoError(t, err)
	binary = filepath.Join(base, "localsock.test")
	require.NoError(t, os.WriteFile(binary, self, 0o755))
	return base, binary
}

func child(binary string, cred syscall.Credential, env ...string) *exec.Cmd {
	cmd := exec.Command(binary, helperRun)
	// A race-enabled child would otherwise sleep a second at exit.
	cmd.Env = append(append(os.Environ(), "GORACE=atexit_sleep_ms=0"), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &cred}
	cmd.WaitDelay = childTimeout
	return cmd
}

// TestSharedListenerAdmitsItsGroupOnly runs clients as three other uids
// against a system flowd's socket: a member of its group by supplementary
// group, one by primary group, and a stranger. The socket is opened to
// everyone (0666) so the kernel lets the stranger connect: what keeps the
// stranger out is flowd's own check.
func TestSharedListenerAdmitsItsGroupOnly(t *testing.T) {
	base, binary := asOthers(t)
	dir := filepath.Join(base, "run")
	require.NoError(t, os.Mkdir(dir, 0o755))
	// A setgid directory gives the socket its group, as systemd's
	// SocketGroup= would.
	require.NoError(t, os.Chown(dir, 0, testGroup))
	require.NoError(t, os.Chmod(dir, 0o755|os.ModeSetgid))
	path := filepath.Join(dir, "flowd.sock")

	l, err := ListenShared(path)
	require.NoError(t, err)
	defer l.Close()
	assert.Equal(t, access{owner: 0, group: testGroup}, l.access)
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o660), fi.Mode().Perm())
	require.NoError(t, os.Chmod(path, 0o666))

	refused := make(chan string, 4)
	l.Logf = func(f string, a ...any) { refused <- fmt.Sprintf(f, a...) }
	peers := make(chan Cred, 4)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			peers <- c.(*Conn).Peer
			c.Write([]byte("ok"))
			c.Close()
		}
	}()

	for _, tt := range []struct {
		name string
		cred syscall.Credential
		want string
	}{
		{"supplementary member", syscall.Credential{Uid: memberUID, Gid: memberUID, Groups: []uint32{testGroup}}, admittedMsg},
		{"primary member", syscall.Credential{Uid: primaryUID, Gid: testGroup}, admittedMsg},
		{"stranger", syscall.Credential{Uid: strangerUID, Gid: strangerUID, Groups: []uint32{}}, "refused"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := child(binary, tt.cred, envDial+"="+path).CombinedOutput()
			require.NoError(t, err, "%s", out)
			assert.True(t, strings.HasPrefix(string(out), tt.want), "child said %q", out)
			if tt.want == admittedMsg {
				p := <-peers
				assert.Equal(t, int(tt.cred.Uid), p.UID)
				assert.Equal(t, int(tt.cred.Gid), p.GID)
				if len(tt.cred.Groups) > 0 {
					assert.Contains(t, p.Groups, testGroup, "SO_PEERGROUPS carries the supplementary groups")
				}
				return
			}
			assert.Contains(t, <-refused, "peer uid "+strconv.Itoa(strangerUID)+" (gid "+strconv.Itoa(strangerUID))
			// The refused peer is told why, not left to think flowd is not running.
			assert.Contains(t, string(out), "403 Forbidden")
			assert.Contains(t, string(out), "flowd refused this connection: peer uid "+strconv.Itoa(strangerUID))
		})
	}
}

// startListener runs a child listening at path as ownerUID, and stops it
// when the test ends.
func startListener(t *testing.T, binary, path string) {
	cmd := child(binary, syscall.Credential{Uid: ownerUID, Gid: ownerUID}, envListen+"="+path)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, readyLine+"\n", line)
}

// A listener of another uid is trusted only where no one but root and
// that uid can have made its directory: here a squatter's directory sits
// in one everybody may write to, as /tmp/flowd-UID could.
func TestDialRefusesSquatter(t *testing.T) {
	base, binary := asOthers(t)
	open := filepath.Join(base, "open")
	require.NoError(t, os.Mkdir(open, 0o777))
	require.NoError(t, os.Chmod(open, 0o777))
	squat := filepath.Join(open, "flowd-1000")
	require.NoError(t, os.Mkdir(squat, 0o755))
	require.NoError(t, os.Chown(squat, ownerUID, ownerUID))
	path := filepath.Join(squat, "flowd.sock")
	startListener(t, binary, path)

	_, err := Dial(path, time.Second)
	require.Error(t, err)
	assert.Contains(t, err.Error(), fmt.Sprintf("the listener runs as uid %d, not as you (uid 0) or root", ownerUID))
	assert.Contains(t, err.Error(), open+" is writable by group or others (mode 0777)")
}

// The same listener in a place only root controls, as /run/flowd is, is
// the machine's flowd running as its own account: trusted.
func TestDialTrustsAccountInRootsTree(t *testing.T) {
	_, binary := asOthers(t)
	root, err := os.MkdirTemp("/run", "flowd-test-")
	if err != nil {
		t.Skipf("no directory of root's own to test in (%v): the rule is covered by TestTrustListener and TestCheckTrustedDir", err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	require.NoError(t, os.Chmod(root, 0o755))
	dir := filepath.Join(root, "flowd")
	require.NoError(t, os.Mkdir(dir, 0o755))
	require.NoError(t, os.Chown(dir, ownerUID, ownerUID))
	path := filepath.Join(dir, "flowd.sock")
	startListener(t, binary, path)

	c, err := Dial(path, time.Second)
	if err != nil && strings.Contains(err.Error(), "writable by group or others") {
		t.Skipf("/run here is not root's alone: %v", err)
	}
	require.NoError(t, err)
	c.Close()
}
