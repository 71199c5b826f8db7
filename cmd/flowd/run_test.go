package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/hookproto"
	"github.com/flowd-dev/flowd/internal/localapi"
	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/session"
)

var (
	buildOnce sync.Once
	buildBin  string
	buildErr  error
)

// flowdBin is cmd/flowd built from this tree, once per test run.
func flowdBin(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "flowd-bin")
		if err != nil {
			buildErr = err
			return
		}
		buildBin = filepath.Join(dir, "flowd")
		out, err := exec.Command("go", "build", "-o", buildBin, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v: %s", err, out)
		}
	})
	require.NoError(t, buildErr)
	return buildBin
}

// shortDir is a temp dir whose socket paths fit in sun_path.
func shortDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "fd")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

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

// statusRequest is written on a connection before anything serves it.
const statusRequest = "GET /api/v1/status HTTP/1.1\r\nHost: flowd\r\nConnection: close\r\n\r\n"

func readStatus(t *testing.T, c net.Conn) localapi.Status {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var st localapi.Status
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&st))
	return st
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
	early, err := net.Dial("unix", sockPath)
	require.NoError(t, err)
	defer early.Close()
	_, err = early.Write([]byte(statusRequest))
	require.NoError(t, err)

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
	between, err := net.Dial("unix", sockPath)
	require.NoError(t, err)
	defer between.Close()
	_, err = between.Write([]byte(statusRequest))
	require.NoError(t, err)
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

// hookVerdict asks flowd about one PreToolUse event, as the hook does.
func hookVerdict(t *testing.T, socket, tool string) hookproto.Verdict {
	t.Helper()
	payload, err := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": "s1",
		"tool_name": tool, "tool_input": map[string]any{"command": "ls"}})
	require.NoError(t, err)
	body, err := json.Marshal(hookproto.Request{Agent: "claude-code", Event: "PreToolUse",
		Session: session.Hints{ClaudeCode: "s1"}, Payload: payload})
	require.NoError(t, err)
	hc := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		DialContext: func(context.Context, string, string) (net.Conn, error) { return localsock.Dial(socket, 5*time.Second) }}}
	resp, err := hc.Post("http://flowd"+hookproto.Path, "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", b)
	var v hookproto.Verdict
	require.NoError(t, json.Unmarshal(b, &v))
	return v
}

// logLines delivers the child's stderr line by line.
func logLines(t *testing.T, r io.Reader) <-chan string {
	ch := make(chan string, 100)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			ch <- sc.Text()
		}
	}()
	return ch
}

func awaitLog(t *testing.T, lines <-chan string, want string) string {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			require.True(t, ok, "flowd exited before logging %q", want)
			if strings.Contains(l, want) {
				return l
			}
		case <-timeout:
			t.Fatalf("flowd did not log %q", want)
		}
	}
}

func TestRunReloadsConfigOnSIGHUPAndStopsGracefully(t *testing.T) {
	dir := shortDir(t)
	socket, data, cfg := filepath.Join(dir, "run", "flowd.sock"), filepath.Join(dir, "data"), filepath.Join(dir, "config.toml")
	require.NoError(t, os.WriteFile(cfg, nil, 0o600))
	cmd := exec.Command(flowdBin(t), "run", "--config", cfg, "--socket", socket, "--data-dir", data)
	cmd.Env = append(os.Environ(), "NOTIFY_SOCKET=", "LISTEN_FDS=", "JOURNAL_STREAM=")
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill() })
	lines := logLines(t, stderr)
	awaitLog(t, lines, "flowd ready")
	assert.Equal(t, "allow", hookVerdict(t, socket, "Bash").Decision)

	require.NoError(t, os.WriteFile(cfg, []byte("[policy.tool_overrides]\nBash = \"deny\"\n"), 0o600))
	require.NoError(t, cmd.Process.Signal(syscall.SIGHUP))
	awaitLog(t, lines, "config reloaded")
	assert.Equal(t, "deny", hookVerdict(t, socket, "Bash").Decision, "the override is in force")

	require.NoError(t, os.WriteFile(cfg, []byte("[policy]\ndefault_acton = \"allow\"\n"), 0o600))
	require.NoError(t, cmd.Process.Signal(syscall.SIGHUP))
	line := awaitLog(t, lines, "config not reloaded")
	assert.Contains(t, line, "level=ERROR")
	assert.Contains(t, line, "default_acton", "the log names what is wrong")
	assert.Equal(t, "deny", hookVerdict(t, socket, "Bash").Decision, "the last good config stays")

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	awaitLog(t, lines, "flowd stopping")
	for range lines {
	}
	require.NoError(t, cmd.Wait(), "a graceful stop exits 0")

	// The stop flushed the activity log and summarised the live session.
	store, err := activity.Open(filepath.Join(data, "activity.db"), activity.Options{})
	require.NoError(t, err)
	defer store.Close()
	hooks, err := store.Query(activity.Filter{Type: "hook_evaluation"})
	require.NoError(t, err)
	require.Len(t, hooks, 3)
	sums, err := store.Query(activity.Filter{Type: "flow_summary"})
	require.NoError(t, err)
	require.Len(t, sums, 1)
	assert.Equal(t, hooks[0].Session, sums[0].Session)
}
