package cursor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/flowd-dev/flowd/internal/claudecode"
)

// Agent is the name `hook evaluate --agent` and flowd use for Cursor.
const Agent = "cursor"

// Hook events flowd installs itself for.
const (
	BeforeMCPExecution   = "beforeMCPExecution"
	BeforeShellExecution = "beforeShellExecution"
	BeforeReadFile       = "beforeReadFile"
	AfterMCPExecution    = "afterMCPExecution"
	AfterShellExecution  = "afterShellExecution"
)

// Events are the hook events flowd handles, in the order it installs them.
var Events = []string{BeforeMCPExecution, BeforeShellExecution, BeforeReadFile, AfterMCPExecution, AfterShellExecution}

// Gates reports whether Cursor waits on event's answer before it runs
// the tool (a before* event).
func Gates(event string) bool { return strings.HasPrefix(event, "before") }

// Translate reads a Cursor hook's stdin as the Claude Code event flowd
// judges. Only a payload that is not a JSON object is an error: a field of
// an unexpected type stays empty, so that a newer Cursor does not make the
// hook fail.
func Translate(event string, payload []byte) (claudecode.Event, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(payload, &m); err != nil {
		return claudecode.Event{}, fmt.Errorf("parse Cursor hook payload: %w", err)
	}
	if m == nil {
		return claudecode.Event{}, errors.New("parse Cursor hook payload: not a JSON object")
	}
	p := claudecode.Payload{
		SessionID:      str(m["conversation_id"]),
		TranscriptPath: str(m["transcript_path"]),
		HookEventName:  str(m["hook_event_name"]),
		ToolUseID:      str(m["generation_id"]),
	}
	if roots := strs(m["workspace_roots"]); len(roots) > 0 {
		p.CWD = roots[0]
	}
	ev := claudecode.Event{Name: claudecode.PreToolUse, CanAsk: true}
	switch event {
	case BeforeMCPExecution, AfterMCPExecution:
		server := serverName(str(m["mcp_server_name"]), str(m["url"]), str(m["command"]), flowdShim)
		tool := str(m["tool_name"])
		p.ToolName = claudecode.MCPToolName(server, tool)
		p.MCPServer = &claudecode.MCPServer{Name: server}
		p.ToolInput = object(m["tool_input"])
		if event == AfterMCPExecution {
			ev.Name = claudecode.PostToolUse
			p.ToolResponse = object(m["result_json"])
			ev.Response = p.ToolResponse
		}
	case BeforeShellExecution, AfterShellExecution:
		p.ToolName = "Bash"
		if cwd := str(m["cwd"]); cwd != "" {
			p.CWD = cwd
		}
		p.ToolInput, _ = json.Marshal(map[string]string{"command": str(m["command"])})
		if event == AfterShellExecution {
			ev.Name = claudecode.PostToolUse
			p.ToolResponse, _ = json.Marshal(map[string]string{"stdout": str(m["output"])})
			ev.Response = p.ToolResponse
		}
	case BeforeReadFile:
		// The hook sees the content Cursor is about to hand the model, so
		// one event both gates the read and records what it reads.
		p.ToolName = "Read"
		p.ToolInput, _ = json.Marshal(map[string]string{"file_path": str(m["file_path"])})
		p.ToolResponse, _ = json.Marshal(str(m["content"]))
		ev.Response = p.ToolResponse
		ev.Delivers = true
		ev.CanAsk = false // beforeReadFile answers allow or deny only
	default:
		ev.Name = event
	}
	ev.Payload = p
	return ev, nil
}

// serverName names the MCP server behind a call: the --name of flowd's
// shim (what flowd's shim traffic calls it), else the server's name in
// Cursor's mcp.json (mcp_server_name, which newer Cursor sends; `shim
// wrap` gives the shim the same name), else the URL's host, else the
// command (older Cursor sends only these). isShim says whether a program
// is flowd's shim: any other program named shim could claim the name of
// a server flowd trusts.
func serverName(configured, rawURL, command string, isShim func(program string) bool) string {
	words := strings.Fields(command)
	if len(words) > 0 {
		if isShim(words[0]) {
			for i, w := range words[1:] {
				if w == "--" {
					break
				}
				if v, ok := strings.CutPrefix(w, "--name="); ok && v != "" {
					return v
				}
				if w == "--name" && i+2 < len(words) {
					return words[i+2]
				}
			}
		}
	}
	if configured = strings.TrimSpace(configured); configured != "" {
		return configured
	}
	if u, err := url.Parse(rawURL); err == nil && u.Hostname() != "" {
		return u.Hostname()
	}
	if command = strings.TrimSpace(command); command != "" {
		return command
	}
	return "unknown"
}

// flowdShim is shimBeside; tests name a shim of their own.
var flowdShim = shimBeside

// shimBeside reports whether program is the shim installed beside this
// process's executable (flowd's: one install directory is one version),
// the same file however it is named or linked. `shim wrap` writes the
// shim's absolute path; a relative one is not taken on trust.
func shimBeside(program string) bool {
	self, err := os.Executable()
	if err != nil || !filepath.IsAbs(program) {
		return false
	}
	got, err := os.Stat(program)
	if err != nil && runtime.GOOS == "windows" {
		got, err = os.Stat(program + ".exe")
	}
	if err != nil {
		return false
	}
	for _, name := range []string{"shim", "shim.exe"} {
		if want, err := os.Stat(filepath.Join(filepath.Dir(self), name)); err == nil && os.SameFile(want, got) {
			return true
		}
	}
	return false
}

// object reads a value that Cursor sends as an object or as a JSON string
// holding one (tool_input, result_json: sources disagree); a string that
// holds no JSON stays a string.
func object(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return raw
	}
	if inner := strings.TrimSpace(s); json.Valid([]byte(inner)) && (strings.HasPrefix(inner, "{") || strings.HasPrefix(inner, "[")) {
		return json.RawMessage(inner)
	}
	return raw
}

func str(raw json.RawMessage) string {
	var s string
	json.Unmarshal(raw, &s) // absent, null or not a string: ""
	return s
}

func strs(raw json.RawMessage) []string {
	var ss []string
	json.Unmarshal(raw, &ss)
	return ss
}
