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
	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/sessionid"
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

// hookVerdict asks flowd about one PreToolUse event, as the hook does.
func hookVerdict(t *testing.T, socket, tool string) hookproto.Verdict {
	t.Helper()
	payload, err := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": "s1",
		"tool_name": tool, "tool_input": map[string]any{"command": "ls"}})
	require.NoError(t, err)
	body, err := json.Marshal(hookproto.Request{Agent: "claude-code", Event: "PreToolUse",
		Session: sessionid.Hints{ClaudeCode: "s1"}, Payload: payload})
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
