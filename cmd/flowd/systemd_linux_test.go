package main

// systemd's socket activation and readiness protocol are Linux's.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/flowdclient"
)

// notifySocket is where the child sends sd_notify messages, as to
// systemd. Like systemd it reads them as they come: a datagram socket's
// queue is short (ten messages), and a watchdog pinging every 100 ms fills
// it while the test does something else, after which flowd's messages are
// dropped.
func notifySocket(t *testing.T, dir string) (<-chan string, string) {
	path := filepath.Join(dir, "notify")
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	msgs := make(chan string, 100000)
	go func() {
		buf := make([]byte, 512)
		for {
			n, err := c.Read(buf)
			if err != nil {
				close(msgs)
				return
			}
			msgs <- string(buf[:n])
		}
	}()
	return msgs, path
}

// awaitNotify takes notifications until one equals want; the others
// (WATCHDOG=1 between READY and STOPPING) are collected.
func awaitNotify(t *testing.T, msgs <-chan string, want string) []string {
	t.Helper()
	var seen []string
	timeout := time.After(30 * time.Second)
	for {
		select {
		case msg, ok := <-msgs:
			require.True(t, ok, "notify socket closed waiting for %s; saw %v", want, seen)
			seen = append(seen, msg)
			if msg == want {
				return seen
			}
		case <-timeout:
			t.Fatalf("no %s within 30s; saw %v", want, seen)
		}
	}
}

// activatedFlowd starts `flowd run` as systemd starts a socket-activated
// service: the listening socket as fd 3, LISTEN_FDS=1, LISTEN_PID the
// child's own pid (the shell's $$, kept by exec), NOTIFY_SOCKET and
// WATCHDOG_USEC set, stderr a stream that JOURNAL_STREAM names.
func activatedFlowd(t *testing.T, dir string, sock *os.File, notify string, flags ...string) (*exec.Cmd, *os.File) {
	stderr, err := os.CreateTemp(dir, "stderr")
	require.NoError(t, err)
	t.Cleanup(func() { stderr.Close() })
	var st syscall.Stat_t
	require.NoError(t, syscall.Fstat(int(stderr.Fd()), &st))
	args := append([]string{"-c", `LISTEN_PID=$$ exec "$0" run "$@"`, flowdBin(t)}, flags...)
	cmd := exec.Command("/bin/sh", append(args, "--config", filepath.Join(dir, "none.toml"), "--data-dir", filepath.Join(dir, "data"),
		"--socket", filepath.Join(dir, "elsewhere", "ignored.sock"))...)
	cmd.Env = append(os.Environ(), "LISTEN_FDS=1", "NOTIFY_SOCKET="+notify, "WATCHDOG_USEC=200000",
		fmt.Sprintf("JOURNAL_STREAM=%d:%d", st.Dev, st.Ino), "FLOWD_CONFIG=")
	cmd.ExtraFiles = []*os.File{sock}
	cmd.Stderr = stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill() })
	return cmd, stderr
}

func TestRunSocketActivatedUnderSystemd(t *testing.T) {
	dir := shortDir(t)
	// systemd made the directory and the socket, and keeps them across
	// restarts of flowd.
	require.NoError(t, os.Mkdir(filepath.Join(dir, "run"), 0o700))
	sockPath := filepath.Join(dir, "run", "flowd.sock")
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: sockPath, Net: "unix"})
	require.NoError(t, err)
	l.SetUnlinkOnClose(false)
	defer l.Close()
	sock, err := l.File()
	require.NoError(t, err)
	defer sock.Close()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "none.toml"), nil, 0o600))
	notify, notifyPath := notifySocket(t, dir)

	// A client connects and asks before flowd has started: it waits in the
	// socket's backlog and gets its answer.
	early := askStatus(t, sockPath)

	cmd, stderr := activatedFlowd(t, dir, sock, notifyPath)
	awaitNotify(t, notify, "READY=1")
	st := readStatus(t, early)
	assert.True(t, st.Running)
	assert.Equal(t, cmd.Process.Pid, st.PID, "the activated flowd answered the early client")
	assert.Equal(t, sockPath, st.Socket, "the passed socket wins over --socket")

	out, err := exec.Command(flowdBin(t), "status", "--socket", sockPath).CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, string(out), fmt.Sprintf("running, pid %d", cmd.Process.Pid))

	awaitNotify(t, notify, "WATCHDOG=1")

	// A restart loses nothing: between the two flowds the socket stays, and
	// a request made meanwhile is answered by the next one.
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	awaitNotify(t, notify, "STOPPING=1")
	require.NoError(t, cmd.Wait())
	assert.FileExists(t, sockPath, "flowd leaves systemd's socket in place")
	between := askStatus(t, sockPath)
	cmd2, _ := activatedFlowd(t, dir, sock, notifyPath)
	awaitNotify(t, notify, "READY=1")
	assert.Equal(t, cmd2.Process.Pid, readStatus(t, between).PID)
	require.NoError(t, cmd2.Process.Signal(syscall.SIGTERM))
	require.NoError(t, cmd2.Wait())

	// The journal gets priorities and no timestamps.
	logged, err := os.ReadFile(stderr.Name())
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(logged)), "\n")
	require.NotEmpty(t, lines)
	for _, line := range lines {
		assert.Regexp(t, `^<[3467]>level=`, line)
		assert.NotContains(t, line, "time=")
	}
	assert.Contains(t, string(logged), `<6>level=INFO msg="using the socket systemd passed"`)
}

// askStatus connects to socket and writes a status request, whether or
// not anything serves it yet; readStatus reads the answer.
func askStatus(t *testing.T, socket string) net.Conn {
	t.Helper()
	c, err := net.Dial("unix", socket)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	_, err = io.WriteString(c, "GET /api/v1/status HTTP/1.1\r\nHost: flowd\r\nConnection: close\r\n\r\n")
	require.NoError(t, err)
	return c
}

func readStatus(t *testing.T, c net.Conn) flowdclient.Status {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var st flowdclient.Status
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&st))
	return st
}
