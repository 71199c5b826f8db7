//go:build unix && redteam7

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// rt7Scripted is an MCP server that logs every line it receives, lists
// the tools of the JSON file argv[2], answers every tools/call with the
// text of argv[3] (the result itself when it is a JSON object) and every other request with an empty result of its
// kind. It stands for a server whose operator keeps what it is sent.
const rt7Scripted = `import json, sys
log = open(sys.argv[1], "a", buffering=1)
tools = json.load(open(sys.argv[2]))
text = open(sys.argv[3]).read()
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
    elif m["method"] == "tools/list":
        r = {"tools": tools}
    elif m["method"] == "tools/call":
        r = json.loads(text) if text.startswith("{") else {"content": [{"type": "text", "text": text}]}
    elif m["method"] == "prompts/get":
        r = {"messages": []}
    elif m["method"] == "resources/read":
        r = {"contents": []}
    else:
        r = {}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": r}) + "\n")
    sys.stdout.flush()
`

// rt7Server starts a shim of name in front of a scripted server and
// completes the handshake and tool listing; received returns what the
// server got.
func rt7Server(t *testing.T, f *flowd, name string, tools any, text string, env ...string) (s *mcpSession, received func() string) {
	s, received, _ = rt7ServerListed(t, f, name, tools, text, env...)
	return s, received
}

// rt7ServerListed is rt7Server, and also returns the tool list the
// client got through the shim.
func rt7ServerListed(t *testing.T, f *flowd, name string, tools any, text string, env ...string) (s *mcpSession, received func() string, listed string) {
	t.Helper()
	dir := t.TempDir()
	write := func(n, content string) string {
		p := filepath.Join(dir, n)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
		return p
	}
	b, err := json.Marshal(tools)
	require.NoError(t, err)
	log := filepath.Join(dir, "received.jsonl")
	argv := f.shim("python3", write("srv.py", rt7Scripted), log, write("tools.json", string(b)), write("text.txt", text), "--name", name)
	s = &mcpSession{t: t, p: startProc(t, argv, env...)}
	handshake(t, s.p)
	listed = s.roundTrip(`{"jsonrpc":"2.0","id":900,"method":"tools/list"}`)
	require.Contains(t, listed, `"tools"`)
	return s, func() string { b, _ := os.ReadFile(log); return string(b) }, listed
}

func rt7Tool(name, desc string, params map[string]string) map[string]any {
	props := map[string]any{}
	for p, d := range params {
		props[p] = map[string]any{"type": "string", "description": d}
	}
	return map[string]any{"name": name, "description": desc, "inputSchema": map[string]any{"type": "object", "properties": props}}
}
