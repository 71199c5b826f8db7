//go:build unix

package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/claudecode"
	"github.com/flowd-dev/flowd/internal/shellnorm"
)

// The tests in this file run the real Claude Code CLI, offline, through the
// harness at <repo>/../shared/harness/claude-code (FLOWD_CC_HARNESS names
// another place): its mock of the Messages API plays a scripted session
// from testdata/claudecode, Claude Code runs the tools for real, and a
// private flowd judges them through the hooks `hook install` wrote and the
// shim in front of the MCP server.

// ccHarness is the harness and the claude binary .ci/install-tools put in
// place, looked up once per run.
var ccHarness struct {
	once                 sync.Once
	dir, install, claude string // install: CC_HARNESS_DIR
	skip                 string // why every test here skips
}

// claudeCode returns the harness directory and the claude binary, or
// skips the test, saying what installs them.
func claudeCode(t *testing.T) (harness, claude string) {
	t.Helper()
	ccHarness.once.Do(func() { findClaudeCode(t) })
	if ccHarness.skip != "" {
		missingTool(t, "claude-code", "%s", ccHarness.skip)
	}
	// go test replays a cached pass until a file the test used changes;
	// the harness runs in subprocesses, so declare its files here (the
	// install's stamp, which every install rewrites, was read above).
	for _, f := range []string{"run_scenario.sh", "mock_anthropic.py", "hook_logger.py", "mcp_tap.py"} {
		os.Stat(filepath.Join(ccHarness.dir, f))
	}
	return ccHarness.dir, ccHarness.claude
}

// ccStamp is the file in CC_HARNESS_DIR that .ci/install-tools writes
// once the harness's packages are installed.
const ccStamp = ".flowd-harness-stamp"

// findClaudeCode finds the harness (../shared beside the repository, or
// FLOWD_CC_HARNESS) and its complete install (CC_HARNESS_DIR). It never
// installs: npm ci of Claude Code is some 250 MB, for .ci/install-tools
// to do where it can show its progress.
func findClaudeCode(t *testing.T) {
	dir := os.Getenv("FLOWD_CC_HARNESS")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "harness", "claude-code")
	}
	dir, err := filepath.Abs(dir)
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "run_scenario.sh"))
	}
	if err != nil {
		ccHarness.skip = fmt.Sprintf("no Claude Code harness at %s (it lives in ../shared beside the repository; FLOWD_CC_HARNESS names another place)", dir)
		return
	}
	if _, err := exec.LookPath("python3"); err != nil {
		ccHarness.skip = "python3 is not on PATH: the Claude Code harness's mock API needs Python 3.9+"
		return
	}
	ccHarness.dir = dir
	ccHarness.install = cacheDir(t, "CC_HARNESS_DIR", "flowd-cc-harness")
	if why := installed(ccHarness.install, ccStamp, filepath.Join(dir, "npm")); why != "" {
		ccHarness.skip = fmt.Sprintf("Claude Code in %s: %s; %s installs it (CC_HARNESS_DIR picks another dir)", ccHarness.install, why, installCmd)
		return
	}
	ccHarness.claude = filepath.Join(ccHarness.install, "node_modules", ".bin", "claude")
}

// claudeCodeFlowd starts a private flowd for a test that runs Claude
// Code, once it is clear that the test will not skip.
func claudeCodeFlowd(t *testing.T) *flowd {
	t.Helper()
	claudeCode(t)
	return startFlowd(t, localWeb)
}

// ccRun is one scripted Claude Code session.
type ccRun struct {
	scenario  string // file in testdata/claudecode
	socket    string // where the hooks and the shim find flowd
	mcp       bool   // MCP=filesystem (or servers), behind the shim
	servers   string // with mcp: the harness's MCP value when not just "filesystem"
	noShim    bool   // with mcp: the server without the shim, so only the hooks see it
	noHooks   bool   // proxy-only: flowd's hooks are not installed
	asyncPost bool   // hook install --async-post
	// noAutostart is hook install --no-autostart: a flowd that is not
	// running is not started by the hooks.
	noAutostart bool
	// scanOutput is hook install --scan-output: flowd may replace a
	// tool's output.
	scanOutput bool
	// logEvents are the events the harness's own logging hook runs for
	// (HOOK_EVENTS); empty means all three.
	logEvents string
}

// ccTimeout is the harness's limit on one Claude Code session.
const ccTimeout = 5 * time.Minute

// ccOut is what a session left behind: the harness's OUTDIR.
type ccOut struct {
	dir string
}

// runClaudeCode runs r through the harness and fails the test unless
// claude exits 0.
func runClaudeCode(t *testing.T, r ccRun) ccOut {
	t.Helper()
	harness, claude := claudeCode(t)
	tmp := t.TempDir()
	o := ccOut{dir: filepath.Join(tmp, "out")}
	// The harness writes proj/.claude/settings.json itself (its logging
	// hook, skipWebFetchPreflight) after copying PROJ_TEMPLATE, so a
	// settings file prepared beforehand would be overwritten, and HOOK_CMD
	// cannot say async. Instead claude's stand-in runs `hook install` in
	// the generated project, as a user would, and then becomes claude.
	install := []string{bins.hook, "install", "--agent", "claude-code", "--scope", "project", "--dir", "."}
	if r.asyncPost {
		install = append(install, "--async-post")
	}
	if r.noAutostart {
		install = append(install, "--no-autostart")
	}
	if r.scanOutput {
		install = append(install, "--scan-output")
	}
	wrapper := filepath.Join(tmp, "claude-with-flowd-hooks")
	script := "#!/bin/sh\n" + shellJoin(install...) + " >&2 || exit 97\nexec " + shellJoin(claude) + ` "$@"` + "\n"
	if r.noHooks {
		script = "#!/bin/sh\nexec " + shellJoin(claude) + ` "$@"` + "\n"
	}
	require.NoError(t, os.WriteFile(wrapper, []byte(script), 0o755))

	testdata, err := filepath.Abs(filepath.Join("testdata", "claudecode"))
	require.NoError(t, err)
	scenario := filepath.Join(testdata, r.scenario)
	_, err = os.Stat(scenario)
	require.NoError(t, err)
	// claude runs with a cleared environment; CC_ENV is what it, and so
	// the hooks and MCP servers, get.
	// In -p mode Claude Code connects MCP servers in the background and
	// asks the model at once, offering only the servers connected by then:
	// a server slower than that to start (the shim and the harness's tap
	// before it, on a busy machine) is missing from the first turn, and
	// the scenario's first call fails as "No such tool". Connecting in the
	// foreground makes it wait until every server has connected or failed,
	// and its deadline (5 s by default) is raised to what only a hung
	// server would reach.
	//
	// The hooks give flowd 2 s by default, then pass the call unchecked:
	// several sessions at once under -race on two cores made a scan take
	// longer. As for the shims (baseConfig), every call here must be
	// judged, so the hooks wait as long as Claude Code waits for them (the
	// timeout hook install writes), less a second to answer in.
	hookWait := time.Duration(claudecode.DefaultTimeout)*time.Second - time.Second
	ccEnv := "FLOWD_SOCKET=" + r.socket + " MCP_CONNECTION_NONBLOCKING=false MCP_CONNECT_TIMEOUT_MS=120000" +
		" FLOWD_HOOK_TIMEOUT=" + hookWait.String()
	if raceEnabled {
		// A binary built with -race sleeps a second on exit (the race
		// runtime's atexit_sleep_ms), and each hook call is one exit.
		ccEnv += " GORACE=atexit_sleep_ms=0"
	}
	env := []string{
		"CC_HARNESS_DIR=" + ccHarness.install, // where run_scenario.sh finds the MCP servers
		"CC_BIN=" + wrapper,
		"PROJ_TEMPLATE=" + filepath.Join(testdata, "proj"),
		"WEBFETCH_LOCAL=1", // the exfiltration sink is the mock's page server, never the internet
		"CC_ENV=" + ccEnv,
		"HOOK_EVENTS=" + r.logEvents,
		// A session takes seconds, and over a minute on a busy 2-core
		// machine under -race (each hook call starts a -race binary): the
		// limit is for a hung session only.
		"TIMEOUT=" + strconv.Itoa(int(ccTimeout.Seconds())),
		// Knobs a developer's shell could have set; "" is the default.
		"HOOK_CMD=", "HOOK_ARGS=", "HOOK_LOG=1", "HOOK_MATCHER=", "MCP_TAP=1", "MCP_MODE=", "PERM_ARGS=",
		"EXTRA_SETTINGS=", "PROMPT=", "OUTPUT_FORMAT=", "CLAUDE_ARGS=", "PS_SNAPSHOT=0", "PORT=", "CC_PATH=",
		"MCP=", "MCP_WRAP=",
	}
	if r.mcp {
		servers := "filesystem"
		if r.servers != "" {
			servers = r.servers
		}
		env = append(env, "MCP="+servers)
	}
	if r.mcp && !r.noShim {
		env = append(env, "MCP_WRAP="+shellJoin(bins.shim, "--socket", r.socket, "--no-autostart", "--name", "{name}", "--"))
	}

	var summary []byte
	t.Cleanup(func() {
		if t.Failed() {
			debug, _ := os.ReadFile(filepath.Join(o.dir, "debug.log"))
			stderr, _ := os.ReadFile(filepath.Join(o.dir, "claude.stderr"))
			t.Logf("%s in %s:\n%s\nclaude.stderr:\n%s\nend of debug.log:\n%s",
				r.scenario, o.dir, summary, stderr, tail(debug, 6000))
		}
	})
	start := time.Now()
	stdout, stderr, code := runTool(t, tmp, ccTimeout+time.Minute, []string{filepath.Join(harness, "run_scenario.sh"), scenario, o.dir}, env...)
	summary = append(stdout, stderr...)
	t.Logf("%s: the Claude Code session took %v", r.scenario, time.Since(start).Round(time.Millisecond))
	require.Equal(t, 0, code, "run_scenario.sh exited %d (claude's status; 124 is its timeout, 97 a failed hook install)", code)
	// Claude Code logs the hooks' and MCP servers' stderr there: a race
	// in the hook or the shim (built with -race under go test -race) would
	// otherwise pass as a hook error that does not block.
	debug, err := os.ReadFile(filepath.Join(o.dir, "debug.log"))
	require.NoError(t, err)
	assert.NotContains(t, string(debug), "DATA RACE", "claude's debug.log")
	// Had Claude Code gone ahead without a server (see ccEnv), it says so.
	for _, s := range []string{"running fully async", "background connection continues"} {
		assert.NotContains(t, string(debug), s, "claude's debug.log: it asked the model before every MCP server connected")
	}
	return o
}

// shellJoin quotes words for /bin/sh and for the harness's shell-like
// split of MCP_WRAP.
func shellJoin(words ...string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = shellnorm.Quote(w)
	}
	return strings.Join(q, " ")
}

func tail(b []byte, n int) string {
	if len(b) <= n {
		return string(b)
	}
	return "…" + string(b[len(b)-n:])
}

// jsonLines decodes every line of the file into a T; a missing file has
// no lines.
func jsonLines[T any](t *testing.T, path string) []T {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	var out []T
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var v T
		require.NoError(t, json.Unmarshal(sc.Bytes(), &v), "a line of %s: %s", path, clip(sc.Bytes()))
		out = append(out, v)
	}
	require.NoError(t, sc.Err())
	return out
}

// ccHook is one hook call as the harness's logging hook saw it.
type ccHook struct {
	Event, Tool, ToolUseID, Session string
}

func (o ccOut) hooks(t *testing.T) []ccHook {
	t.Helper()
	type line struct {
		Stdin struct {
			Event     string `json:"hook_event_name"`
			Tool      string `json:"tool_name"`
			ToolUseID string `json:"tool_use_id"`
			Session   string `json:"session_id"`
		} `json:"stdin"`
	}
	var out []ccHook
	for _, l := range jsonLines[line](t, filepath.Join(o.dir, "hooks.jsonl")) {
		out = append(out, ccHook(l.Stdin))
	}
	return out
}

// ccResult is the last line of claude's stream-json output.
type ccResult struct {
	Type              string `json:"type"`
	Subtype           string `json:"subtype"`
	IsError           bool   `json:"is_error"`
	Result            string `json:"result"`
	SessionID         string `json:"session_id"`
	PermissionDenials []struct {
		ToolName  string `json:"tool_name"`
		ToolUseID string `json:"tool_use_id"`
	} `json:"permission_denials"`
}

// result returns claude's result and checks that the session ran to the
// scenario's end.
func (o ccOut) result(t *testing.T) ccResult {
	t.Helper()
	lines := jsonLines[ccResult](t, filepath.Join(o.dir, "claude.stdout"))
	require.NotEmpty(t, lines, "claude printed nothing")
	r := lines[len(lines)-1]
	require.Equal(t, "result", r.Type, "claude's last line")
	require.Equal(t, "success", r.Subtype, "the session completes")
	require.False(t, r.IsError)
	require.Equal(t, "done", r.Result, "the session reached the scenario's last turn")
	require.NotEmpty(t, r.SessionID)
	return r
}

// ccRequest is one request the mock API got.
type ccRequest struct {
	TS   float64         `json:"ts"`
	Kind string          `json:"kind"` // main: a request that offers tools
	Body json.RawMessage `json:"body"`
}

func (r ccRequest) time() time.Time {
	sec, frac := math.Modf(r.TS)
	return time.Unix(int64(sec), int64(frac*1e9))
}

func (o ccOut) mainRequests(t *testing.T) []ccRequest {
	t.Helper()
	var out []ccRequest
	for _, r := range jsonLines[ccRequest](t, filepath.Join(o.dir, "requests.jsonl")) {
		if r.Kind == "main" {
			out = append(out, r)
		}
	}
	require.NotEmpty(t, out, "the mock got no main request")
	return out
}

// ccToolResult is a tool result as the model saw it.
type ccToolResult struct {
	IsError bool
	Text    string
}

// toolResults are the tool results in the last request to the model, by
// tool_use_id.
func (o ccOut) toolResults(t *testing.T) map[string]ccToolResult {
	t.Helper()
	reqs := o.mainRequests(t)
	var body struct {
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	require.NoError(t, json.Unmarshal(reqs[len(reqs)-1].Body, &body))
	out := map[string]ccToolResult{}
	for _, m := range body.Messages {
		var blocks []struct {
			Type      string          `json:"type"`
			ToolUseID string          `json:"tool_use_id"`
			IsError   bool            `json:"is_error"`
			Content   json.RawMessage `json:"content"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue // a plain string: no tool result
		}
		for _, b := range blocks {
			if b.Type == "tool_result" {
				out[b.ToolUseID] = ccToolResult{IsError: b.IsError, Text: contentText(t, b.Content)}
			}
		}
	}
	return out
}

// contentText is the text of a tool_result's content: a string, or text
// blocks.
func contentText(t *testing.T, c json.RawMessage) string {
	t.Helper()
	var s string
	if json.Unmarshal(c, &s) == nil {
		return s
	}
	var blocks []struct {
		Text string `json:"text"`
	}
	require.NoError(t, json.Unmarshal(c, &blocks), "tool_result content %s", c)
	var b strings.Builder
	for _, x := range blocks {
		b.WriteString(x.Text)
	}
	return b.String()
}

// ccHit is a request that reached the mock's HTTPS page server: the
// exfiltration sink.
type ccHit struct {
	Method string          `json:"method"`
	Path   string          `json:"path"`
	Body   json.RawMessage `json:"body"` // null, or the body as the mock decoded it
}

func (o ccOut) collected(t *testing.T) []ccHit {
	t.Helper()
	return jsonLines[ccHit](t, filepath.Join(o.dir, "collect.jsonl"))
}

// assertHooksInstalled checks that `hook install` put flowd's hook for
// every event into the project's settings, next to the harness's own.
func (o ccOut) assertHooksInstalled(t *testing.T, asyncPost bool) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(o.dir, "proj", ".claude", "settings.json"))
	require.NoError(t, err)
	var s struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Command string `json:"command"`
				Async   bool   `json:"async"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	require.NoError(t, json.Unmarshal(b, &s), "%s", b)
	for _, event := range []string{"PreToolUse", "PostToolUse", "PostToolUseFailure"} {
		var ours []bool
		for _, g := range s.Hooks[event] {
			for _, h := range g.Hooks {
				if strings.Contains(h.Command, bins.hook) && strings.Contains(h.Command, "evaluate --event "+event) {
					ours = append(ours, h.Async)
				}
			}
		}
		assert.Equal(t, []bool{asyncPost && event != "PreToolUse"}, ours,
			"flowd's %s hook (its async flag) in the settings the session ran with:\n%s", event, b)
	}
}

// ccKey is the API key in testdata/claudecode/proj/.env: a random-looking
// value in a KEY=value line, which flowd recognises as a secret there but
// not on its own in a URL or a command line, so only flow tracking can tie
// it to the file. (The harness's default sk-test-SECRET-1234567890 reads
// as a placeholder and is not a secret to flowd.)
func ccKey(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "claudecode", "proj", ".env"))
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^API_KEY=(\S+)$`).FindSubmatch(b)
	require.NotNil(t, m, "no API_KEY in the template's .env")
	return string(m[1])
}

// hookDetails is the part of a hook_evaluation record's details the tests
// look at.
type hookDetails struct {
	ToolUseID string `json:"tool_use_id"`
	Rule      string `json:"rule"`
	Flow      struct {
		Edges []hookEdge `json:"edges"`
	} `json:"flow"`
	// Injection is flowd's scan of a PostToolUse output.
	Injection struct {
		Action     string `json:"action"`
		Quarantine string `json:"quarantine_id"`
		Tainted    bool   `json:"tainted"`
	} `json:"injection"`
}

// hookEdge is data of an origin that flowd found in a tool call.
type hookEdge struct {
	From struct {
		Server string `json:"server"`
		Method string `json:"method"`
	} `json:"from"`
	Kind     string `json:"kind"`
	FlowType string `json:"flow_type"`
}

func details(t *testing.T, r record) hookDetails {
	t.Helper()
	var d hookDetails
	require.NoError(t, json.Unmarshal(r.Details, &d), "details of %+v", r)
	return d
}

// sessionRecord waits (bounded) for flowd's activity record of typ in
// session for which match holds, and reports whether one came.
func (f *flowd) sessionRecord(t *testing.T, typ, session string, timeout time.Duration, match func(record) bool) (record, bool) {
	t.Helper()
	// A hook's record is written before flowd answers the hook, but an
	// async hook, and the shim's record, may still be on their way.
	deadline := time.Now().Add(timeout)
	for {
		recs := f.activity(t, typ)
		if i := slices.IndexFunc(recs, func(r record) bool { return r.Session == session && match(r) }); i >= 0 {
			return recs[i], true
		}
		if time.Now().After(deadline) {
			return record{}, false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (f *flowd) hookRecord(t *testing.T, session, event, tool string) record {
	t.Helper()
	r, ok := f.sessionRecord(t, "hook_evaluation", session, hangBound,
		func(r record) bool { return r.Method == event && r.Tool == tool })
	require.True(t, ok, "flowd recorded no %s hook_evaluation of %s in session %s; it has %+v",
		event, tool, session, f.activity(t, "hook_evaluation"))
	return r
}

// assertExfilDenied checks a session whose tool tried to send .env's key
// out: flowd denied it in PreToolUse for coming from source, the tool
// never ran, the model saw flowd's reason, and nothing reached the sink.
func assertExfilDenied(t *testing.T, f *flowd, o ccOut, tool, source string) {
	t.Helper()
	res := o.result(t)
	require.Len(t, res.PermissionDenials, 1, "claude's permission_denials")
	id := res.PermissionDenials[0].ToolUseID
	assert.Equal(t, tool, res.PermissionDenials[0].ToolName)

	var events []string
	for _, h := range o.hooks(t) {
		assert.Equal(t, res.SessionID, h.Session, "every hook call is of the one session")
		if h.ToolUseID == id {
			events = append(events, h.Event)
		}
	}
	assert.Equal(t, []string{"PreToolUse"}, events, "hook calls of the denied %s: a tool denied before it runs has no Post hook", tool)

	rec := f.hookRecord(t, res.SessionID, "PreToolUse", tool)
	assert.Equal(t, "deny", rec.Verdict)
	d := details(t, rec)
	assert.Equal(t, id, d.ToolUseID, "flowd judged the call claude denied")
	assert.Equal(t, "sensitive_data_external", d.Rule)
	assert.True(t, slices.ContainsFunc(d.Flow.Edges, func(e hookEdge) bool {
		return e.From.Server == source && e.Kind == "secret" && e.FlowType == "internal→external"
	}), "flowd traced the key to %s: %s", source, rec.Details)

	tr, ok := o.toolResults(t)[id]
	require.True(t, ok, "the model got no result for the denied %s", tool)
	assert.True(t, tr.IsError, "the model sees the denial as an error")
	assert.Equal(t, "flowd blocked: "+rec.Reason, tr.Text, "the model sees flowd's reason, and that flowd gave it")
	assert.Contains(t, rec.Reason, source)

	assert.Empty(t, o.collected(t), "requests that reached the page server (the key must not)")
}

// (1) Read .env → WebFetch with the key: denied.
func TestClaudeCodeReadEnvThenWebFetchDenied(t *testing.T) {
	t.Parallel()
	f := claudeCodeFlowd(t)
	o := runClaudeCode(t, ccRun{scenario: "read_env_webfetch.json", socket: f.socket})
	o.assertHooksInstalled(t, false)
	assertExfilDenied(t, f, o, "WebFetch", "Read")
}

// (2) Read .env → Bash curl -d key: denied.
func TestClaudeCodeReadEnvThenCurlDenied(t *testing.T) {
	t.Parallel()
	f := claudeCodeFlowd(t)
	o := runClaudeCode(t, ccRun{scenario: "read_env_bash_curl.json", socket: f.socket})
	o.assertHooksInstalled(t, false)
	assertExfilDenied(t, f, o, "Bash", "Read")
}

// (3) .env read through the MCP filesystem server, behind the shim →
// WebFetch with the key: denied. The shim and the hooks join one flowd
// session by CLAUDE_CODE_SESSION_ID.
func TestClaudeCodeMCPReadThenWebFetchDenied(t *testing.T) {
	t.Parallel()
	f := claudeCodeFlowd(t)
	o := runClaudeCode(t, ccRun{scenario: "mcp_read_webfetch.json", socket: f.socket, mcp: true})
	o.assertHooksInstalled(t, false)
	assertExfilDenied(t, f, o, "WebFetch", "fs")

	res := o.result(t)
	call, ok := f.sessionRecord(t, "tool_call", res.SessionID, hangBound,
		func(r record) bool { return r.Server == "fs" && r.Tool == "read_text_file" })
	require.True(t, ok, "flowd has no tool_call record of the shim's read_text_file in Claude Code's session %s: %+v",
		res.SessionID, f.activity(t, "tool_call"))
	assert.Equal(t, "pass", call.Verdict)
}

// (4) Read README → Write a summary that copies it: an internal flow,
// allowed, and the file is written.
func TestClaudeCodeReadmeThenWriteAllowed(t *testing.T) {
	t.Parallel()
	f := claudeCodeFlowd(t)
	o := runClaudeCode(t, ccRun{scenario: "readme_write_summary.json", socket: f.socket})
	o.assertHooksInstalled(t, false)
	res := o.result(t)
	assert.Empty(t, res.PermissionDenials)

	want := scenarioInput(t, "readme_write_summary.json", "Write")["content"]
	got, err := os.ReadFile(filepath.Join(o.dir, "proj", "SUMMARY.md"))
	require.NoError(t, err, "Write ran")
	assert.Equal(t, want, string(got))
	for id, tr := range o.toolResults(t) {
		assert.False(t, tr.IsError, "tool result %s: %s", id, tr.Text)
	}

	rec := f.hookRecord(t, res.SessionID, "PreToolUse", "Write")
	assert.Equal(t, "allow", rec.Verdict)
	d := details(t, rec)
	require.NotEmpty(t, d.Flow.Edges, "flowd saw the README's text in the Write: %s", rec.Details)
	assert.Equal(t, "Read", d.Flow.Edges[0].From.Server)
	assert.Equal(t, "internal→internal", d.Flow.Edges[0].FlowType)
}

// scenarioInput returns the input of the scenario's first call of tool.
func scenarioInput(t *testing.T, scenario, tool string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "claudecode", scenario))
	require.NoError(t, err)
	var s struct {
		Turns []struct {
			Content []struct {
				Name  string         `json:"name"`
				Input map[string]any `json:"input"`
			} `json:"content"`
		} `json:"turns"`
	}
	require.NoError(t, json.Unmarshal(b, &s), scenario)
	for _, turn := range s.Turns {
		for _, c := range turn.Content {
			if c.Name == tool {
				return c.Input
			}
		}
	}
	t.Fatalf("%s calls no %s", scenario, tool)
	return nil
}

// (5) flowd stopped: the hooks and the shim fail open, everything runs,
// the session completes, and the key does leave.
func TestClaudeCodeFlowdStoppedFailsOpen(t *testing.T) {
	t.Parallel()
	claudeCode(t)
	var socket string
	// startFlowd stops its flowd (SIGTERM, and waits) when its test ends:
	// here, when this subtest returns.
	t.Run("flowd ran and stopped", func(t *testing.T) { socket = startFlowd(t, localWeb).socket })
	_, err := os.Stat(socket)
	require.ErrorIs(t, err, os.ErrNotExist, "the stopped flowd's socket")

	// The hooks would start a flowd (as the shim would, but for its
	// --no-autostart): what fails open is a flowd the user switched off.
	o := runClaudeCode(t, ccRun{scenario: "all_exfil.json", socket: socket, mcp: true, noAutostart: true})
	o.assertHooksInstalled(t, false)
	res := o.result(t)
	assert.Empty(t, res.PermissionDenials)
	results := o.toolResults(t)
	assert.Len(t, results, 3, "the model got a result for each call")
	for id, tr := range results {
		assert.False(t, tr.IsError, "tool result %s: %s", id, tr.Text)
	}

	key := ccKey(t)
	hits := o.collected(t)
	require.Len(t, hits, 2, "WebFetch's and curl's requests reached the page server")
	assert.Equal(t, "GET", hits[0].Method)
	assert.Contains(t, hits[0].Path, key)
	assert.Equal(t, "POST", hits[1].Method)
	assert.Contains(t, string(hits[1].Body), key)

	// The calls passed because flowd was unreachable, not because its
	// hooks or the shim were left out: Claude Code logs their stderr.
	debug, err := os.ReadFile(filepath.Join(o.dir, "debug.log"))
	require.NoError(t, err)
	var pre int
	for _, h := range o.hooks(t) {
		if h.Event == "PreToolUse" {
			pre++
		}
	}
	assert.Equal(t, 3, pre, "PreToolUse calls")
	assert.GreaterOrEqual(t, bytes.Count(debug, []byte("flowd is unreachable")), 2*pre,
		"hook stderr (fail-open notes) in claude's debug.log")
	assert.Contains(t, string(debug), "not checked (fail-open)")
	assert.Contains(t, string(debug), "messages pass unchecked (fail_mode=open)", "the shim's fail-open note")
}

// TestClaudeCodeAsyncPostRace runs (1) with flowd's PostToolUse hook
// synchronous and async (hook install --async-post). An async Post hook
// records the .env read in the background while Claude Code already asks
// the model, which here answers at once; if the WebFetch's PreToolUse
// reaches flowd before the record, flowd cannot see the key's origin. Only
// the synchronous install must deny; the async outcome is logged.
//
// The harness's logging hook only gets PreToolUse here: as a synchronous
// Post hook (a Python start, ~40 ms) it would hold Claude Code back and
// give the async hook the head start a user's setup does not give it.
func TestClaudeCodeAsyncPostRace(t *testing.T) {
	t.Parallel()
	for _, async := range []bool{false, true} {
		name := "sync"
		if async {
			name = "async-post"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f := claudeCodeFlowd(t)
			o := runClaudeCode(t, ccRun{scenario: "read_env_webfetch.json", socket: f.socket, asyncPost: async,
				logEvents: "PreToolUse"})
			o.assertHooksInstalled(t, async)
			res := o.result(t)
			pre := f.hookRecord(t, res.SessionID, "PreToolUse", "WebFetch")
			// An ask stops the call too: claude -p has nobody to ask. It is
			// what flowd says when the Read's result is not recorded yet
			// but its PreToolUse named a .env (the async race's outcome).
			denied := pre.Verdict == "deny" || pre.Verdict == "ask"
			hits := o.collected(t)
			if denied {
				assert.Empty(t, hits, "requests that reached the page server after the deny")
			} else {
				require.Len(t, hits, 1, "the allowed WebFetch reached the page server")
				assert.Contains(t, hits[0].Path, ccKey(t))
			}

			// The timeline: the Read's record, the model asked again, the
			// WebFetch checked.
			reqs := o.mainRequests(t)
			require.GreaterOrEqual(t, len(reqs), 2)
			asked := reqs[1].time() // the request with the Read's result
			post, recorded := f.sessionRecord(t, "hook_evaluation", res.SessionID, 10*time.Second,
				func(r record) bool { return r.Method == "PostToolUse" && r.Tool == "Read" })
			if !async {
				require.True(t, recorded, "flowd recorded the Read's PostToolUse")
				assert.Equal(t, "deny", pre.Verdict, "with a synchronous PostToolUse hook the WebFetch is denied: %s", pre.Reason)
				assert.True(t, post.Time.Before(asked),
					"a synchronous Post hook holds Claude Code until flowd has the record (recorded %v, model asked %v)",
					post.Time, asked)
			}
			if !recorded {
				t.Logf("%s: WebFetch %s; flowd never recorded the Read's PostToolUse", name, pre.Verdict)
				return
			}
			verdict := "DENIED"
			if !denied {
				verdict = "ALLOWED (the async record lost the race)"
			}
			t.Logf("%s: WebFetch %s; the Read was recorded %v before the model was asked again and %v before the WebFetch was checked (negative: after)",
				name, verdict, asked.Sub(post.Time).Round(time.Microsecond), pre.Time.Sub(post.Time).Round(time.Microsecond))
		})
	}
}

// Claude Code declares MCP elicitation, so without hooks (proxy-only) an
// "ask" reaches it as flowd's form instead of becoming a warning. In -p
// mode there is no one to show it to: Claude Code answers for the absent
// user, and the call must not go ahead unasked.
func TestClaudeCodeProxyOnlyAskIsElicited(t *testing.T) {
	t.Parallel()
	claudeCode(t)
	f := startFlowd(t, "[classify.servers]\n\"memory\" = \"external\"\n")
	o := runClaudeCode(t, ccRun{scenario: "mcp_read_memory_ask.json", socket: f.socket, mcp: true, servers: "filesystem memory", noHooks: true})
	rec, ok := f.sessionRecord(t, "tool_call", o.result(t).SessionID, hangBound, func(r record) bool {
		return r.Server == "memory" && r.Tool == "create_entities"
	})
	require.True(t, ok, "flowd recorded the create_entities call")
	assert.Equal(t, "ask", rec.Decision)
	assert.Equal(t, "block", rec.Verdict)
	var d struct {
		Asked *struct {
			Allowed bool   `json:"allowed"`
			Outcome string `json:"outcome"`
		} `json:"asked"`
	}
	require.NoError(t, json.Unmarshal(rec.Details, &d))
	require.NotNil(t, d.Asked, "flowd asked through Claude Code: %s", rec.Details)
	assert.False(t, d.Asked.Allowed)
	assert.Equal(t, "cancel", d.Asked.Outcome, "Claude Code -p cancels a form nobody can fill in")

	var blocked []string
	for _, res := range o.toolResults(t) {
		if res.IsError {
			blocked = append(blocked, res.Text)
		}
	}
	assert.Equal(t, []string{"flowd blocked: Data from internal source (fs) flowing to external destination (memory); the user declined"}, blocked,
		"the model reads flowd's refusal")
	// The harness's tap sits between the shim and each server.
	fsTap, err := os.ReadFile(filepath.Join(o.dir, "mcp.fs.jsonl"))
	require.NoError(t, err)
	assert.Contains(t, string(fsTap), `"read_text_file"`, "the tap saw the read")
	memTap, err := os.ReadFile(filepath.Join(o.dir, "mcp.memory.jsonl"))
	require.NoError(t, err)
	assert.Contains(t, string(memTap), `"tools/list"`, "the tap saw the memory server's traffic")
	assert.NotContains(t, string(memTap), `create_entities", "arguments`, "the memory server never got the call")
}
