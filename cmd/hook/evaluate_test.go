package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/hookproto"
	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/ondemand"
	"github.com/flowd-dev/flowd/internal/paths"
)

// TestMain keeps every test from starting a real flowd (one on PATH would
// outlive the test): starting one says none is installed unless a test
// says otherwise with startFlowdWith.
func TestMain(m *testing.M) {
	restartFlowd = func(string) error { return ondemand.ErrNotInstalled }
	// The stand-ins for flowd here are the test binary.
	self, err := os.Executable()
	if err != nil {
		panic(err)
	}
	flowdBinary = func() string { return self }
	os.Exit(m.Run())
}

// startFlowdWith makes the hook start flowd with start for the test.
func startFlowdWith(t *testing.T, start func(socket string) error) {
	saved := restartFlowd
	restartFlowd = start
	t.Cleanup(func() { restartFlowd = saved })
}

// flowdStub is a stand-in for flowd's API on a Unix socket.
type flowdStub struct {
	socket string
	reqs   chan capturedRequest
}

type capturedRequest struct {
	method, path, contentType string
	body                      []byte
}

func startStub(t *testing.T, h http.HandlerFunc) *flowdStub {
	t.Helper()
	// A short directory: sun_path holds about 100 bytes and t.TempDir can be longer.
	dir, err := os.MkdirTemp("", "hk")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	s := &flowdStub{socket: filepath.Join(dir, "s"), reqs: make(chan capturedRequest, 10)}
	holdLock(t, s.socket)
	l, err := net.Listen("unix", s.socket)
	require.NoError(t, err)
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.reqs <- capturedRequest{r.Method, r.URL.Path, r.Header.Get("Content-Type"), b}
		h(w, r)
	})}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return s
}

// serve answers with h on socket until the test ends, as a flowd started
// there would: a stale socket file is removed first.
func serve(t *testing.T, socket string, h http.Handler) {
	t.Helper()
	holdLock(t, socket)
	l, err := net.Listen("unix", socket)
	if err != nil {
		os.Remove(socket)
		l, err = net.Listen("unix", socket)
	}
	require.NoError(t, err)
	srv := &http.Server{Handler: h}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
}

// holdLock takes flowd's lock beside socket, as flowd does before it
// listens: the hook asks only a listener that holds it.
func holdLock(t *testing.T, socket string) {
	t.Helper()
	unlock, err := localsock.Lock(socket)
	require.NoError(t, err)
	t.Cleanup(unlock)
}

func answer(v string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, v)
	}
}

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "internal", "claudecode", "testdata", name))
	require.NoError(t, err)
	return b
}

func runEvaluate(t *testing.T, stdin []byte, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(append([]string{"evaluate"}, args...), bytes.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestEvaluateAgainstFlowd(t *testing.T) {
	t.Setenv("FLOWD_SESSION", "")
	t.Setenv("CLAUDE_CODE_SESSION_ID", "cc-session-from-env")
	pre := readFixture(t, "perm_default.00.PreToolUse.Read.json")
	post := readFixture(t, "read_env_webfetch.01.PostToolUse.Read.json")

	tests := []struct {
		name    string
		event   string
		payload []byte
		answer  string
		want    string
	}{
		{"allow prints nothing", "PreToolUse", pre, `{"decision":"allow","reason":"no flow"}`, ""},
		{"deny", "PreToolUse", pre, `{"decision":"deny","reason":"flowd: .env to webhook.site"}`,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"flowd: .env to webhook.site"}}`},
		{"ask", "PreToolUse", pre, `{"decision":"ask","reason":"unknown server"}`,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"unknown server"}}`},
		{"warn", "PreToolUse", pre, `{"decision":"warn","reason":"secret to internal server"}`,
			`{"systemMessage":"flowd warn: secret to internal server"}`},
		{"post with context", "PostToolUse", post, `{"decision":"allow","additional_context":"holds secrets","extra":1}`,
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"holds secrets"}}`},
		{"post never denies", "PostToolUse", post, `{"decision":"deny","reason":"injection"}`,
			`{"systemMessage":"flowd deny: injection"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stub := startStub(t, answer(tt.answer))
			code, out, _ := runEvaluate(t, tt.payload, "--event", tt.event, "--socket", stub.socket)
			assert.Equal(t, 0, code)
			if tt.want == "" {
				assert.Empty(t, out)
			} else {
				assert.JSONEq(t, tt.want, out)
				assert.True(t, strings.HasSuffix(out, "}\n"))
			}

			r := <-stub.reqs
			assert.Equal(t, "POST", r.method)
			assert.Equal(t, "/api/v1/hooks/evaluate", r.path)
			assert.Equal(t, "application/json", r.contentType)
			var body map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(r.body, &body))
			assert.ElementsMatch(t, []string{"agent", "event", "session", "payload"}, keys(body))
			assert.JSONEq(t, `"claude-code"`, string(body["agent"]))
			assert.JSONEq(t, `"`+tt.event+`"`, string(body["event"]))
			assert.JSONEq(t, `{"claude_code":"cc-session-from-env"}`, string(body["session"]))
			assert.JSONEq(t, string(tt.payload), string(body["payload"]))
		})
	}
}

// With --scan-output the hook tells flowd it may replace the output, and
// prints the replacement flowd sends.
func TestEvaluateScanOutput(t *testing.T) {
	post := readFixture(t, "webfetch_local.03.PostToolUse.WebFetch.json")
	stub := startStub(t, answer(`{"decision":"warn","reason":"flowd: injection","additional_context":"c","updated_output":{"result":"[flowd redacted: x]"}}`))
	code, out, _ := runEvaluate(t, post, "--event", "PostToolUse", "--scan-output", "--socket", stub.socket)
	assert.Equal(t, 0, code)
	assert.JSONEq(t, `{"systemMessage":"flowd: injection","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"c","updatedToolOutput":{"result":"[flowd redacted: x]"}}}`, out)
	var body struct {
		ReplaceOutput bool `json:"replace_output"`
	}
	require.NoError(t, json.Unmarshal((<-stub.reqs).body, &body))
	assert.True(t, body.ReplaceOutput)
}

func keys(m map[string]json.RawMessage) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

// Without session variables in the environment, the payload's session_id
// names the Claude Code session, next to the process hints.
func TestEvaluateSessionFromPayload(t *testing.T) {
	t.Setenv("FLOWD_SESSION", "")
	t.Setenv("CLAUDE_CODE_SESSION_ID", "")
	stub := startStub(t, answer(`{"decision":"allow"}`))
	code, _, _ := runEvaluate(t, readFixture(t, "perm_default.00.PreToolUse.Read.json"),
		"--event", "PreToolUse", "--socket", stub.socket)
	require.Equal(t, 0, code)
	var body struct {
		Session map[string]any `json:"session"`
	}
	require.NoError(t, json.Unmarshal((<-stub.reqs).body, &body))
	assert.Equal(t, "5ae5f09e-3512-48f9-83a3-aefbd31ad279", body.Session["claude_code"])
	assert.NotZero(t, body.Session["client_pid"])
}

func TestEvaluateFailures(t *testing.T) {
	pre := readFixture(t, "perm_default.00.PreToolUse.Read.json")
	post := readFixture(t, "read_env_webfetch.01.PostToolUse.Read.json")
	fetch := []byte(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"WebFetch","tool_input":{"url":"https://x.example/","prompt":"x"},"cwd":"/tmp"}`)
	missing := filepath.Join(t.TempDir(), "none.sock")
	broken := startStub(t, func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", 500) })
	odd := startStub(t, answer(`{"decision":"quarantine"}`))
	notJSON := startStub(t, answer(`<html>`))
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	hung := startStub(t, func(w http.ResponseWriter, r *http.Request) { <-release })
	dead := deadSocket(t)
	dropping := droppingSocket(t)
	// kept has no socket, and the flowd installed cannot start there (its
	// lock held by whoever killed it and removed the socket); at missing
	// no flowd is installed.
	kept := filepath.Join(t.TempDir(), "kept-down.sock")
	starts := map[string]int{}
	startFlowdWith(t, func(socket string) error {
		starts[socket]++
		if socket == missing {
			return ondemand.ErrNotInstalled
		}
		return errors.New("no flowd here")
	})

	denied := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"`
	tests := []struct {
		name       string
		socket     string
		event      string
		payload    []byte
		failClosed bool
		wantOut    string // prefix; "" = nothing
		wantErr    string
	}{
		{"flowd down: open", missing, "PreToolUse", pre, false, "", "no flowd binary next to this program); not checked (fail-open)"},
		{"flowd down: a fetch goes on when none is installed", missing, "PreToolUse", fetch, false, "", "not checked (fail-open)"},
		{"flowd down: closed", missing, "PreToolUse", pre, true, denied + `,"permissionDecisionReason":"flowd is unreachable, and this hook is set to fail closed`, "denied (--fail-closed)"},
		{"flowd down: post records nothing and never denies", missing, "PostToolUse", post, true, "", "fail-open"},
		{"server error", broken.socket, "PreToolUse", pre, false, "", "status 500: boom"},
		{"server error, closed", broken.socket, "PreToolUse", pre, true, denied + `,"permissionDecisionReason":"flowd could not check this tool call`, "status 500"},
		{"unknown decision", odd.socket, "PreToolUse", pre, false, "", `unknown decision "quarantine"`},
		{"answer not JSON", notJSON.socket, "PreToolUse", pre, false, "", "not JSON"},
		{"timeout: a read goes on", hung.socket, "PreToolUse", pre, false, "", "i/o timeout"},
		// A flowd paused by the agent (kill -STOP) listens but does not
		// answer: what could send data out or change files is denied.
		{"timeout: a fetch is denied", hung.socket, "PreToolUse", fetch, false,
			denied + `,"permissionDecisionReason":"flowd is running but not answering (stopped or stuck), so WebFetch is denied`, "WebFetch denied until flowd answers"},
		{"timeout: post never denies", hung.socket, "PostToolUse", post, false, "", "not checked (fail-open)"},
		// A socket left behind is a flowd that was killed (one that stops
		// removes it); started again, it judges. When it cannot be, the
		// agent that killed it gets only reads.
		{"killed: a fetch is denied", dead, "PreToolUse", fetch, false,
			denied + `,"permissionDecisionReason":"flowd is gone but its socket is still there (killed or crashed), and could not be started again, so WebFetch is denied`, "starting it again failed: no flowd here"},
		// Found by a red team: a flood of half-sent requests made flowd
		// close every fresh connection, and the hook failed open.
		{"dropped: a fetch is denied", dropping, "PreToolUse", fetch, false,
			denied + `,"permissionDecisionReason":"flowd is taking connections but closing them unanswered`, "WebFetch denied until flowd answers"},
		// Found by a red team (RT4-1): flowd killed and its socket
		// removed looked like a flowd switched off, and the hook failed
		// open. Now it starts flowd; kept from starting, it is gone.
		{"kept down: a fetch is denied", kept, "PreToolUse", fetch, false,
			denied + `,"permissionDecisionReason":"flowd is not running, and could not be started, so WebFetch is denied`, "starting it failed: no flowd here"},
		{"kept down: a fetch is denied when failing closed too", kept, "PreToolUse", fetch, true,
			denied + `,"permissionDecisionReason":"flowd is not running, and could not be started, so WebFetch is denied`, "WebFetch denied until flowd answers"},
		{"kept down: a read goes on", kept, "PreToolUse", pre, false, "", "not checked (fail-open)"},
		{"kept down: post never denies", kept, "PostToolUse", post, false, "", "not checked (fail-open)"},
		{"dropped: a read goes on", dropping, "PreToolUse", pre, false, "", "not checked (fail-open)"},
		{"killed: a read goes on", dead, "PreToolUse", pre, false, "", "not checked (fail-open)"},
		{"killed: post never denies", dead, "PostToolUse", post, false, "", "not checked (fail-open)"},
		{"malformed payload", missing, "PreToolUse", []byte(`{"tool_name":`), false, "", "parse Claude Code hook payload"},
		{"malformed payload, closed", missing, "PreToolUse", []byte(`not json`), true, denied, "parse Claude Code hook payload"},
		{"payload too large", missing, "PreToolUse", bytes.Repeat([]byte(" "), maxPayload+1), false, "", "larger than 16 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"--event", tt.event, "--socket", tt.socket, "--timeout", "300ms"}
			if tt.failClosed {
				args = append(args, "--fail-closed")
			}
			// No clock: a hook that waited past its timeout would not
			// say "i/o timeout"; one that hung would not return.
			code, out, errOut := runEvaluate(t, tt.payload, args...)
			assert.Equal(t, 0, code)
			if tt.wantOut == "" {
				assert.Empty(t, out)
			} else {
				assert.True(t, strings.HasPrefix(out, tt.wantOut), out)
				assert.True(t, json.Valid([]byte(out)), out)
			}
			assert.Contains(t, errOut, tt.wantErr)
		})
	}
	assert.Equal(t, map[string]int{dead: 3, kept: 4, missing: 4}, starts,
		"each event that met a dead or missing socket tried to start flowd, and only those")
}

// --no-autostart (hook install --no-autostart) never starts flowd: a
// missing socket is a flowd switched off, and the call goes on unchecked.
func TestEvaluateNoAutostart(t *testing.T) {
	startFlowdWith(t, func(socket string) error { t.Errorf("started flowd on %s", socket); return nil })
	fetch := []byte(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"WebFetch","tool_input":{"url":"https://x.example/","prompt":"x"},"cwd":"/tmp"}`)
	missing := filepath.Join(t.TempDir(), "none.sock")
	code, out, errOut := runEvaluate(t, fetch, "--event", "PreToolUse", "--socket", missing, "--timeout", "300ms", "--no-autostart")
	assert.Equal(t, 0, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "no such file or directory; not checked (fail-open)")

	// A socket left behind is still a flowd killed, not one switched off.
	code, out, errOut = runEvaluate(t, fetch, "--event", "PreToolUse", "--socket", deadSocket(t), "--timeout", "300ms", "--no-autostart")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, `"permissionDecision":"deny"`)
	assert.Contains(t, errOut, "WebFetch denied until flowd answers")
}

// A flowd stopped, or killed and its socket removed, is started by the
// next hook event, which it then judges (red team RT4-1).
func TestEvaluateStartsFlowdWhoseSocketIsMissing(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "flowd.sock")
	var started []string
	startFlowdWith(t, func(socket string) error {
		started = append(started, socket)
		serve(t, socket, answer(`{"decision":"deny","reason":"judged by the flowd the hook started"}`))
		return nil
	})
	fetch := []byte(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"WebFetch","tool_input":{"url":"https://x.example/","prompt":"x"},"cwd":"/tmp"}`)
	code, out, errOut := runEvaluate(t, fetch, "--event", "PreToolUse", "--socket", missing, "--timeout", "5s")
	assert.Equal(t, 0, code)
	assert.Equal(t, []string{missing}, started)
	assert.Contains(t, out, "judged by the flowd the hook started")
	assert.Empty(t, errOut)
}

// A flowd killed under a hooks-only session is started again by the next
// hook event, which is then judged by it: the agent that killed flowd
// gains nothing, and the user need not restart it.
func TestEvaluateRestartsKilledFlowd(t *testing.T) {
	dead := deadSocket(t)
	saved := restartFlowd
	t.Cleanup(func() { restartFlowd = saved })
	var started []string
	restartFlowd = func(socket string) error {
		started = append(started, socket)
		serve(t, socket, answer(`{"decision":"deny","reason":"judged by the restarted flowd"}`))
		return nil
	}
	fetch := []byte(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"WebFetch","tool_input":{"url":"https://x.example/","prompt":"x"},"cwd":"/tmp"}`)
	code, out, errOut := runEvaluate(t, fetch, "--event", "PreToolUse", "--socket", dead, "--timeout", "5s")
	assert.Equal(t, 0, code)
	assert.Equal(t, []string{dead}, started)
	assert.Contains(t, out, "judged by the restarted flowd")
	assert.Empty(t, errOut)
}

func TestEvaluateUsage(t *testing.T) {
	tests := []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"--event", "Stop"}, 1, "--event must be one of"},
		{[]string{"--event", "Stop", "--fail-closed=true"}, 2, "--event must be one of"},
		{[]string{}, 1, "--event must be one of"},
		{[]string{"--event", "PreToolUse", "--nope"}, 1, "flag provided but not defined"},
		{[]string{"--event", "PreToolUse", "--nope", "--fail-closed"}, 2, "flag provided but not defined"},
		{[]string{"--event", "PreToolUse", "extra"}, 1, "unexpected arguments"},
		{[]string{"--agent", "codex", "--event", "BeforeTool"}, 1, "--event must be one of [PreToolUse PostToolUse]"},
		{[]string{"--agent", "codex", "--event", "PostToolUseFailure", "--fail-closed"}, 2, "--event must be one of [PreToolUse PostToolUse]"},
		{[]string{"--agent", "gemini-cli", "--event", "PreToolUse", "--fail-closed"}, 2, "--event must be one of [BeforeTool AfterTool]"},
		{[]string{"--agent", "vim", "--event", "x"}, 1, `unknown agent "vim"`},
	}
	for _, tt := range tests {
		code, out, errOut := runEvaluate(t, []byte(`{}`), tt.args...)
		assert.Equal(t, tt.code, code, tt.args)
		assert.Empty(t, out, tt.args)
		assert.Contains(t, errOut, tt.err, tt.args)
	}
}

func TestReadResponse(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		status int
		body   string
		err    bool
	}{
		{"content length", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", 200, "hello", false},
		{"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;x=y\r\n world\r\n0\r\nTrailer: 1\r\n\r\n", 200, "hello world", false},
		{"until close", "HTTP/1.0 404 Not Found\r\n\r\nno such path", 404, "no such path", false},
		{"short body", "HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nhello", 0, "", true},
		{"bad chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 0, "", true},
		{"not HTTP", "SSH-2.0-OpenSSH\r\n\r\n", 0, "", true},
		{"huge length", "HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\n", 0, "", true},
	}
	for _, tt := range tests {
		status, body, err := readResponse(bufio.NewReader(strings.NewReader(tt.in)))
		if tt.err {
			assert.Error(t, err, tt.name)
			continue
		}
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.status, status, tt.name)
		assert.Equal(t, tt.body, string(body), tt.name)
	}
}

// A real net/http server chunks a body it flushes early; the hook must
// read that too.
func TestCallChunkedFromNetHTTP(t *testing.T) {
	stub := startStub(t, func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"decision":`)
		w.(http.Flusher).Flush()
		io.WriteString(w, `"deny","reason":"r"}`)
	})
	status, body, err := call(stub.socket, "POST", hookproto.Path, []byte(`{}`), time.Second)
	require.NoError(t, err)
	assert.Equal(t, 200, status)
	assert.JSONEq(t, `{"decision":"deny","reason":"r"}`, string(body))
}

func TestDefaultTimeoutFromEnv(t *testing.T) {
	for _, tt := range []struct {
		env  string
		want time.Duration
		warn bool
	}{
		{"", 2 * time.Second, false},
		{"45s", 45 * time.Second, false},
		{"soon", 2 * time.Second, true},
		{"-1s", 2 * time.Second, true},
	} {
		t.Setenv(envTimeout, tt.env)
		var stderr bytes.Buffer
		assert.Equal(t, tt.want, defaultTimeout(&stderr), "%s=%q", envTimeout, tt.env)
		assert.Equal(t, tt.warn, strings.Contains(stderr.String(), "ignoring "+envTimeout), "%s=%q: %s", envTimeout, tt.env, stderr.String())
	}
}

// deadSocket is the socket file a killed flowd leaves: there, and nobody
// listening on it.
func deadSocket(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "dead.sock")
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: p, Net: "unix"})
	require.NoError(t, err)
	l.SetUnlinkOnClose(false)
	require.NoError(t, l.Close())
	return p
}

// droppingSocket is a socket whose listener takes each connection and
// closes it unanswered, as flowd does when it sheds connections.
func droppingSocket(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "drop.sock")
	holdLock(t, p)
	l, err := net.Listen("unix", p)
	require.NoError(t, err)
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	return p
}

// Found by a red team (RT4-2): a socket whose mode was changed while
// flowd runs (chmod 0) refuses the connect with EACCES, which the hook
// read as "flowd is not installed" and failed open on. It is a flowd
// made unreachable: only reads go on. Tests run as root here, where a
// mode refuses nothing, so the reading is tested on the error itself.
func TestDialFailuresAreRead(t *testing.T) {
	opErr := func(errno syscall.Errno) error {
		return &net.OpError{Op: "dial", Net: "unix", Err: os.NewSyscallError("connect", errno)}
	}
	for _, tt := range []struct {
		name         string
		err          error
		dead, silent bool
	}{
		{"socket left behind", opErr(syscall.ECONNREFUSED), true, false},
		{"socket refuses this user", opErr(syscall.EACCES), false, true},
		{"socket not permitted", opErr(syscall.EPERM), false, true},
		{"no socket", opErr(syscall.ENOENT), false, false},
		{"no Unix sockets here", &net.OpError{Op: "dial", Net: "unix", Err: os.NewSyscallError("socket", syscall.EAFNOSUPPORT)}, false, false},
		// Found in review: the socket's directory replaced by a file or
		// a link failed open, and flowd does not bind there again.
		{"directory replaced by a file", opErr(syscall.ENOTDIR), false, true},
		{"directory replaced by a link loop", opErr(syscall.ELOOP), false, true},
		{"connect timed out", &net.OpError{Op: "dial", Net: "unix", Err: os.ErrDeadlineExceeded}, false, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := dialFailed("/s", tt.err)
			assert.Equal(t, tt.dead, errors.Is(err, errDead), err)
			assert.Equal(t, tt.silent, errors.Is(err, errSilent), err)
		})
	}
}

// A socket removed again as soon as the started flowd made it (a loop
// racing the start) is a flowd gone, not one absent (found in review).
func TestEvaluateSocketGoneAgainAfterTheStart(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "flowd.sock")
	startFlowdWith(t, func(string) error { return nil }) // "started", and its socket is gone again
	fetch := []byte(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"WebFetch","tool_input":{"url":"https://x.example/","prompt":"x"},"cwd":"/tmp"}`)
	code, out, errOut := runEvaluate(t, fetch, "--event", "PreToolUse", "--socket", missing, "--timeout", "300ms")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, `"permissionDecision":"deny"`)
	assert.Contains(t, errOut, "WebFetch denied until flowd answers")
}

// Found by red teams (RT4-3, RT5-4): with flowd killed, any program of
// the user's listening on its socket and answering "allow" had the
// agent's tools allowed. The hook now asks only flowd: the program it
// would start, holding flowd's lock (here the test binary plays flowd).
func TestImpostorOnTheSocketIsNotAsked(t *testing.T) {
	fetch := []byte(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"WebFetch","tool_input":{"url":"https://x.example/","prompt":"x"},"cwd":"/tmp"}`)
	pre := readFixture(t, "perm_default.00.PreToolUse.Read.json")
	denied := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"flowd is not what listens on its socket`

	// A listener that does not hold flowd's lock.
	dir, err := os.MkdirTemp("", "hk")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	impostor := filepath.Join(dir, "s")
	l, err := net.Listen("unix", impostor)
	require.NoError(t, err)
	srv := &http.Server{Handler: answer(`{"decision":"allow"}`)}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })

	// The same, holding the lock, while the hook expects another flowd.
	other := startStub(t, answer(`{"decision":"allow"}`))

	for _, tt := range []struct {
		name, socket, flowd string
	}{
		{"no lock held", impostor, ""},
		{"another program", other.socket, filepath.Join(t.TempDir(), "flowd")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.flowd != "" {
				require.NoError(t, os.WriteFile(tt.flowd, []byte("#!/bin/sh\n"), 0o700))
				saved := flowdBinary
				flowdBinary = func() string { return tt.flowd }
				t.Cleanup(func() { flowdBinary = saved })
			}
			code, out, errOut := runEvaluate(t, fetch, "--event", "PreToolUse", "--socket", tt.socket, "--timeout", "5s")
			assert.Equal(t, 0, code)
			if runtime.GOOS != "linux" {
				t.Skipf("only Linux tells the client which process listens (uid checks only here): hook said %q", out)
			}
			assert.True(t, strings.HasPrefix(out, denied), out)
			assert.Contains(t, errOut, "is not flowd")

			code, out, _ = runEvaluate(t, pre, "--event", "PreToolUse", "--socket", tt.socket, "--timeout", "5s")
			assert.Equal(t, 0, code)
			assert.Empty(t, out, "reads go on")
		})
	}
}

// The machine's flowd, installed and stopped, is not started in place by
// the hook (a flowd of the user's own would shadow it for good): the call
// goes on under the hook's failure mode, with the fix.
func TestEvaluateStoppedSystemFlowd(t *testing.T) {
	if _, err := os.Lstat(paths.SystemSocket); err == nil {
		t.Skip("a system flowd's socket is on this machine: " + paths.SystemSocket)
	}
	startFlowdWith(t, func(socket string) error { t.Errorf("started flowd on %s", socket); return nil })
	fetch := []byte(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"WebFetch","tool_input":{"url":"https://x.example/","prompt":"x"},"cwd":"/tmp"}`)
	code, out, errOut := runEvaluate(t, fetch, "--event", "PreToolUse", "--socket", paths.SystemSocket, "--timeout", "300ms")
	assert.Equal(t, 0, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "installed but not running (start it with `sudo systemctl start flowd.socket flowd.service`)")

	code, out, _ = runEvaluate(t, fetch, "--event", "PreToolUse", "--socket", paths.SystemSocket, "--timeout", "300ms", "--fail-closed")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, `"permissionDecision":"deny"`)
	assert.Contains(t, out, "sudo systemctl start flowd.socket flowd.service")
}

// flowd's variables in the agent's environment (a project's settings can
// set it) follow the shim's rules: a FLOWD_SESSION apart from the
// client's own session is ignored, and said.
func TestHookIgnoresASessionApartFromTheClients(t *testing.T) {
	stub := startStub(t, answer(`{"decision":"allow"}`))
	t.Setenv("FLOWD_SESSION", "apart")
	t.Setenv("CLAUDE_CODE_SESSION_ID", "s1")
	pre := readFixture(t, "perm_default.00.PreToolUse.Read.json")
	code, _, errOut := runEvaluate(t, pre, "--event", "PreToolUse", "--socket", stub.socket, "--timeout", "30s")
	assert.Equal(t, 0, code)
	assert.Contains(t, errOut, "ignored FLOWD_SESSION=apart from the environment: it differs from the client's own session (s1)")
	req := <-stub.reqs
	var sent hookproto.Request
	require.NoError(t, json.Unmarshal(req.body, &sent))
	assert.Empty(t, sent.Session.Explicit)
	assert.Equal(t, "s1", sent.Session.ClaudeCode)
}
