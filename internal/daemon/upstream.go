package daemon

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/jsonrpc"
	"github.com/flowd-dev/flowd/internal/policy"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

// upstream is flowd's view of one shim and the MCP server behind it. Its
// message methods run on the connection's goroutine only; the mutex guards
// what status readers see.
type upstream struct {
	id        uint64
	hello     shimproto.Hello
	session   string
	connected time.Time

	mu       sync.Mutex
	name     string // what activity and policy call this server
	named    bool   // name came from --name or serverInfo, not the command
	messages uint64
	modern   bool // the stream speaks the 2026-07-28 revision

	calls   map[string]*call // client requests awaiting a response, by raw id
	blocked map[string]bool  // ids answered by flowd, whose cancellation must not reach the upstream
}

// call is a client request the upstream has not answered yet.
type call struct {
	method    string
	tool      string
	argsBytes int
	start     time.Time
	decision  policy.Decision
}

// maxOutstanding bounds the request table: a client that never gets
// answers (or sends ids forever) must not grow flowd without limit.
const maxOutstanding = 10000

func newUpstream(id uint64, h shimproto.Hello, session string) *upstream {
	u := &upstream{id: id, hello: h, session: session, connected: time.Now(),
		calls: make(map[string]*call), blocked: make(map[string]bool)}
	if h.Name != "" {
		u.name, u.named = h.Name, true
	} else {
		u.name = NameFromCommand(h.Command)
	}
	return u
}

func (u *upstream) serverName() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.name
}

// judge decides one message. It never fails: what flowd cannot read passes,
// because the stream belongs to the client and the server.
func (u *upstream) judge(d *Daemon, m shimproto.Message) shimproto.Verdict {
	u.mu.Lock()
	u.messages++
	u.mu.Unlock()
	v := shimproto.Verdict{Seq: m.Seq}
	if m.Truncated {
		d.log.Warn("message larger than max_inspect_bytes passed with only its start inspected",
			"server", u.serverName(), "direction", m.Dir.String(), "inspected", len(m.Data))
		return v
	}
	e, err := jsonrpc.Parse(m.Data)
	if err != nil {
		d.log.Debug("unparseable message passed", "server", u.serverName(), "direction", m.Dir.String(), "err", err)
		return v
	}
	if m.Dir == shimproto.ClientToServer {
		return u.fromClient(d, v, e, m.Data)
	}
	u.fromServer(d, e, len(m.Data))
	return v
}

func (u *upstream) fromClient(d *Daemon, v shimproto.Verdict, e jsonrpc.Envelope, raw []byte) shimproto.Verdict {
	switch e.Kind {
	case jsonrpc.Batch:
		return u.batch(d, v, raw)
	case jsonrpc.Notification:
		if e.Method == "notifications/cancelled" {
			var p struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			if json.Unmarshal(e.Params, &p) == nil && u.blocked[string(p.RequestID)] {
				delete(u.blocked, string(p.RequestID))
				v.Action = shimproto.Drop
			}
		}
		return v
	case jsonrpc.Request:
	default:
		return v
	}
	if e.Method == "server/discover" || strings.Contains(string(e.Params), jsonrpc.ModernVersionKey) {
		u.mu.Lock()
		u.modern = true
		u.mu.Unlock()
	}
	c := &call{method: e.Method, start: time.Now()}
	if e.Method == "tools/call" {
		name, args := jsonrpc.ToolCall(e.Params)
		c.tool, c.argsBytes = name, len(args)
		dec := d.policy().Decide(policy.Call{Server: u.serverName(), Tool: name})
		if dec.Action == policy.Deny {
			u.blocked[string(e.ID)] = true
			v.Action, v.Data = shimproto.Respond, jsonrpc.BlockedToolResult(e.ID, dec.Reason, u.isModern())
			u.record(d, c, "block", dec, 0, false)
			return v
		}
		if dec.Action != policy.Allow {
			d.log.Warn("tool call allowed with a warning", "server", u.serverName(), "tool", name, "reason", dec.Reason)
		}
		c.decision = dec
	}
	if len(u.calls) < maxOutstanding {
		u.calls[string(e.ID)] = c
	}
	return v
}

// batch judges each call inside a JSON-RPC batch (gone from MCP since
// 2025-06-18, but a batch must not be a way around policy). When any call
// is denied, nothing reaches the upstream and every request in the batch
// gets a blocked result.
func (u *upstream) batch(d *Daemon, v shimproto.Verdict, raw []byte) shimproto.Verdict {
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return v
	}
	var ids [][]byte
	var reason string
	for _, it := range items {
		e, err := jsonrpc.Parse(it)
		if err != nil || e.Kind != jsonrpc.Request {
			continue
		}
		ids = append(ids, e.ID)
		if e.Method != "tools/call" || reason != "" {
			continue
		}
		name, args := jsonrpc.ToolCall(e.Params)
		if dec := d.policy().Decide(policy.Call{Server: u.serverName(), Tool: name}); dec.Action == policy.Deny {
			reason = dec.Reason
			u.record(d, &call{method: e.Method, tool: name, argsBytes: len(args), start: time.Now()}, "block", dec, 0, false)
		}
	}
	if reason == "" || len(ids) == 0 {
		return v
	}
	out := []byte{'['}
	for i, id := range ids {
		if i > 0 {
			out = append(out, ',')
		}
		r := jsonrpc.BlockedToolResult(id, "a call in this batch was denied: "+reason, u.isModern())
		out = append(out, r[:len(r)-1]...) // without its newline
	}
	v.Action, v.Data = shimproto.Respond, append(out, ']', '\n')
	return v
}

func (u *upstream) fromServer(d *Daemon, e jsonrpc.Envelope, size int) {
	if e.Kind != jsonrpc.Response && e.Kind != jsonrpc.ErrorReply {
		return
	}
	c := u.calls[string(e.ID)]
	if c == nil {
		return // an answer to a request of the server's own, or to nothing
	}
	delete(u.calls, string(e.ID))
	switch c.method {
	case "initialize", "server/discover":
		u.learn(e.Result)
	case "tools/call":
		u.record(d, c, "pass", c.decision, size, e.Kind == jsonrpc.ErrorReply || jsonrpc.IsError(e.Result))
	}
}

// learn takes the server's own name and protocol era from its handshake.
func (u *upstream) learn(result []byte) {
	var r struct {
		ProtocolVersion string `json:"protocolVersion"`
		ServerInfo      struct {
			Name string `json:"name"`
		} `json:"serverInfo"`
	}
	if json.Unmarshal(result, &r) != nil {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if r.ServerInfo.Name != "" && !u.named {
		u.name, u.named = r.ServerInfo.Name, true
	}
	if r.ProtocolVersion >= "2026-07-28" {
		u.modern = true
	}
}

func (u *upstream) isModern() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.modern
}

func (u *upstream) record(d *Daemon, c *call, verdict string, dec policy.Decision, resultBytes int, isErr bool) {
	rec := activity.Record{
		Type:        "tool_call",
		Session:     u.session,
		Server:      u.serverName(),
		Tool:        c.tool,
		Method:      c.method,
		ArgsBytes:   c.argsBytes,
		ResultBytes: resultBytes,
		Verdict:     verdict,
		Decision:    string(dec.Action),
		Reason:      dec.Reason,
	}
	if verdict == "pass" {
		rec.LatencyMicros = time.Since(c.start).Microseconds()
	}
	if isErr {
		rec.Details = json.RawMessage(`{"is_error":true}`)
	}
	d.store.Append(rec)
}

// close records the calls that never got an answer.
func (u *upstream) close(d *Daemon) {
	for _, c := range u.calls {
		if c.method == "tools/call" {
			u.record(d, c, "pass", c.decision, 0, false)
		}
	}
}

// NameFromCommand names a server by its command when it has not named
// itself: `npx -y @scope/server-x` → server-x, `node …/server-everything/dist/index.js` → server-everything.
func NameFromCommand(cmd []string) string {
	if len(cmd) == 0 {
		return "unknown"
	}
	runners := map[string]bool{"npx": true, "uvx": true, "node": true, "python": true, "python3": true,
		"deno": true, "bun": true, "bunx": true, "pipx": true, "uv": true, "go": true, "run": true, "exec": true, "dlx": true, "pnpm": true, "yarn": true}
	for _, a := range cmd {
		base := strings.TrimSuffix(filepath.Base(a), ".exe")
		if strings.HasPrefix(a, "-") || runners[base] {
			continue
		}
		return packageName(a)
	}
	return filepath.Base(cmd[0])
}

func packageName(arg string) string {
	// A package spec: @scope/name@version or name@version.
	if !strings.ContainsAny(arg, `/\`) || strings.HasPrefix(arg, "@") {
		if i := strings.LastIndex(arg, "@"); i > 0 {
			arg = arg[:i]
		}
		return scriptName(filepath.Base(arg))
	}
	// A script path: skip generic file and build-directory names.
	generic := map[string]bool{"index": true, "main": true, "server": true, "cli": true, "dist": true,
		"build": true, "lib": true, "src": true, "bin": true, "out": true, "__main__": true}
	p := filepath.Clean(arg)
	for p != "." && p != "/" {
		name := scriptName(filepath.Base(p))
		if !generic[name] && name != "" {
			return name
		}
		p = filepath.Dir(p)
	}
	return filepath.Base(arg)
}

// scriptName drops a script's extension: weather.py → weather. Package
// names keep their dots (mcp.server stays as it is) unless the extension is
// a known script one.
func scriptName(base string) string {
	switch ext := filepath.Ext(base); ext {
	case ".js", ".mjs", ".cjs", ".ts", ".py", ".rb", ".sh", ".exe", ".jar":
		return strings.TrimSuffix(base, ext)
	}
	return base
}
