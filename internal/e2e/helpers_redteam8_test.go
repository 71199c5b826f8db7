//go:build unix && (redteam8 || redteam9)

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// rt8Scripted is an MCP server that logs every line it receives, lists
// the tools of the JSON file argv[2], answers every tools/call with the
// text of argv[3] (the result itself when it is a JSON object; each
// {{id}} in it replaced by the call's id) and every
// other request with an empty result of its kind. The file argv[4], when
// given, is a JSON object of extra members of the initialize result
// (instructions, …).
const rt8Scripted = `import json, sys
log = open(sys.argv[1], "a", buffering=1)
tools = json.load(open(sys.argv[2]))
text = open(sys.argv[3]).read()
init = json.load(open(sys.argv[4])) if len(sys.argv) > 4 else {}
for line in sys.stdin:
    log.write(line)
    try:
        m = json.loads(line)
    except Exception:
        continue
    if not isinstance(m, dict) or "id" not in m or "method" not in m:
        continue
    if m["method"] == "initialize":
        r = {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "srv", "version": "1"}}
        r.update(init)
    elif m["method"] == "tools/list":
        r = {"tools": tools}
    elif m["method"] == "tools/call":
        t = text.replace("{{id}}", str(m["id"]))
        r = json.loads(t) if t.startswith("{") else {"content": [{"type": "text", "text": t}]}
    elif m["method"] == "prompts/get":
        r = {"messages": []}
    elif m["method"] == "resources/read":
        r = {"contents": []}
    else:
        r = {}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": r}) + "\n")
    sys.stdout.flush()
`

type rt8Srv struct {
	s        *mcpSession
	received func() string
	init     string // the initialize answer the client got
	listed   string // the tools/list answer the client got
}

// rt8Server starts a shim of name in front of the scripted server,
// completes the handshake and the tool listing.
func rt8Server(t *testing.T, f *flowd, name string, tools any, text string, init map[string]any, env ...string) rt8Srv {
	t.Helper()
	dir := t.TempDir()
	write := func(n, content string) string {
		p := filepath.Join(dir, n)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
		return p
	}
	b, err := json.Marshal(tools)
	require.NoError(t, err)
	if init == nil {
		init = map[string]any{}
	}
	ib, err := json.Marshal(init)
	require.NoError(t, err)
	log := filepath.Join(dir, "received.jsonl")
	argv := f.shim("python3", write("srv.py", rt8Scripted), log, write("tools.json", string(b)), write("text.txt", text), write("init.json", string(ib)), "--name", name)
	s := &mcpSession{t: t, p: startProc(t, argv, env...)}
	initAnswer := s.roundTrip(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"rt8","version":"1"}}}`)
	_, err = s.p.stdin.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"))
	require.NoError(t, err)
	listed := s.roundTrip(`{"jsonrpc":"2.0","id":900,"method":"tools/list"}`)
	return rt8Srv{s: s, received: func() string { b, _ := os.ReadFile(log); return string(b) }, init: initAnswer, listed: listed}
}

func rt8Tool(name, desc string, params map[string]string) map[string]any {
	props := map[string]any{}
	for p, d := range params {
		props[p] = map[string]any{"type": "string", "description": d}
	}
	return map[string]any{"name": name, "description": desc, "inputSchema": map[string]any{"type": "object", "properties": props}}
}

// rt8PassedUnasked runs each command line through the real hook as a
// Bash call, each in a session of its own, and returns those neither
// denied nor asked about.
func rt8PassedUnasked(t *testing.T, f *flowd, proj, session string, cmds []string) []string {
	t.Helper()
	pre := bins.hook + " evaluate --event PreToolUse"
	var passed []string
	for i, c := range cmds {
		out, _ := runHook(t, pre, claudeBash(c, proj), f.socket, fmt.Sprintf("%s-%d", session, i))
		if !strings.Contains(out, `"deny"`) && !strings.Contains(out, `"ask"`) {
			passed = append(passed, c)
		}
	}
	return passed
}

// rt8Flagged reports whether a tools/call answer reached the client
// flagged: an error, flowd's notice first, or marker removed.
func rt8Flagged(t *testing.T, line, marker string) bool {
	t.Helper()
	a := decodeAnswer(t, line)
	if a.Result.IsError || len(a.Result.Content) == 0 {
		return true
	}
	if strings.HasPrefix(a.Result.Content[0].Text, "flowd notice: ") || strings.Contains(line, "flowd blocked") {
		return true
	}
	return !strings.Contains(line, marker)
}

// rt8ReadThenSlack starts, in session, a filesystem server whose read
// returns doc (read once, checked to hold want) and a slack server; post
// sends text to slack as a tools/call with the given id.
func rt8ReadThenSlack(t *testing.T, f *flowd, session, doc, want string) (slack rt8Srv, post func(id int, text string) string) {
	t.Helper()
	env := []string{"FLOWD_SESSION=" + session}
	fs := rt8Server(t, f, "filesystem", []any{rt8Tool("read_text_file", "Read a file from the project", map[string]string{"path": "file path"})}, doc, nil, env...)
	require.Contains(t, fs.s.roundTrip(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_text_file","arguments":{"path":".env"}}}`), want)
	slack = rt8Server(t, f, "slack", []any{rt8Tool("post_message", "Post a message to a channel", map[string]string{"channel": "channel", "text": "message text"})}, "ok", nil, env...)
	return slack, func(id int, text string) string {
		return slack.s.roundTrip(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"post_message","arguments":{"channel":"ops","text":%s}}}`, id, jsonText(text)))
	}
}

// rt8ClaudeCodeScenario runs the real Claude Code CLI through the
// harness's mock API on the scenario file scen (under
// testdata/claudecode), flowd's hooks installed for the project, against
// f, and returns what it left.
func rt8ClaudeCodeScenario(t *testing.T, f *flowd, scen string) ccOut {
	t.Helper()
	harness, claude := claudeCode(t)
	proj, err := filepath.Abs(filepath.Join("testdata", "claudecode", "proj"))
	require.NoError(t, err)
	tmp := t.TempDir()
	o := ccOut{dir: filepath.Join(tmp, "out")}
	install := []string{bins.hook, "install", "--agent", "claude-code", "--scope", "project", "--dir", "."}
	wrapper := filepath.Join(tmp, "claude-with-flowd-hooks")
	script := "#!/bin/sh\n" + shellJoin(install...) + " >&2 || exit 97\nexec " + shellJoin(claude) + ` "$@"` + "\n"
	require.NoError(t, os.WriteFile(wrapper, []byte(script), 0o755))
	scen, err = filepath.Abs(filepath.Join("testdata", "claudecode", scen))
	require.NoError(t, err)
	env := []string{
		"CC_HARNESS_DIR=" + ccHarness.install, "CC_BIN=" + wrapper, "PROJ_TEMPLATE=" + proj,
		"WEBFETCH_LOCAL=1", "CC_ENV=FLOWD_SOCKET=" + f.socket + " FLOWD_HOOK_TIMEOUT=9s", "HOOK_EVENTS=", "TIMEOUT=300",
		"HOOK_CMD=", "HOOK_ARGS=", "HOOK_LOG=1", "HOOK_MATCHER=", "MCP_TAP=1", "MCP_MODE=", "PERM_ARGS=",
		"EXTRA_SETTINGS=", "PROMPT=", "OUTPUT_FORMAT=", "CLAUDE_ARGS=", "PS_SNAPSHOT=0", "PORT=", "CC_PATH=",
		"MCP=", "MCP_WRAP=",
	}
	stdout, stderr, code := runTool(t, tmp, ccTimeout+ccTimeout/5, []string{filepath.Join(harness, "run_scenario.sh"), scen, o.dir}, env...)
	require.Equal(t, 0, code, "run_scenario.sh: %s%s", stdout, stderr)
	o.assertHooksInstalled(t, false)
	return o
}
