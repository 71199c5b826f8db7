package claudecode

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Hook events flowd installs itself for.
const (
	PreToolUse         = "PreToolUse"
	PostToolUse        = "PostToolUse"
	PostToolUseFailure = "PostToolUseFailure"
)

// Events are the hook events flowd handles, in the order it installs them.
var Events = []string{PreToolUse, PostToolUse, PostToolUseFailure}

// Payload is a hook's stdin. Fields a Claude Code version does not send
// stay empty; fields flowd does not know are ignored.
type Payload struct {
	SessionID      string
	TranscriptPath string
	CWD            string
	PermissionMode string // default, acceptEdits, bypassPermissions, plan, dontAsk, auto, …
	HookEventName  string
	ToolName       string
	ToolUseID      string
	// ToolInput is the tool's arguments, normally an object.
	ToolInput json.RawMessage
	// ToolResponse is PostToolUse's tool output. Built-in tools send an
	// object; MCP tools send the result serialised as a JSON string, which
	// is decoded here when it holds JSON, so both read the same way.
	ToolResponse json.RawMessage
	Error        string // PostToolUseFailure
	IsInterrupt  bool   // PostToolUseFailure
	MCPServer    *MCPServer
}

// MCPServer names the MCP server behind an mcp__ tool (newer Claude Code
// versions only). Source is open-ended: sdk, plugin, user, project, local,
// dynamic, managed, enterprise, claudeai, agent, …
type MCPServer struct {
	Name   string
	Source string
}

// ParsePayload reads a hook's stdin. Only a payload that is not a JSON
// object is an error: a field of an unexpected type is left empty, because
// a newer Claude Code must not make the hook fail.
func ParsePayload(b []byte) (Payload, error) {
	p, _, err := parsePayload(b)
	return p, err
}

// parsePayload is ParsePayload that also returns the payload's members.
func parsePayload(b []byte) (Payload, map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return Payload{}, nil, fmt.Errorf("parse Claude Code hook payload: %w", err)
	}
	if m == nil {
		return Payload{}, nil, errors.New("parse Claude Code hook payload: not a JSON object")
	}
	p := Payload{
		SessionID:      str(m["session_id"]),
		TranscriptPath: str(m["transcript_path"]),
		CWD:            str(m["cwd"]),
		PermissionMode: str(m["permission_mode"]),
		HookEventName:  str(m["hook_event_name"]),
		ToolName:       str(m["tool_name"]),
		ToolUseID:      str(m["tool_use_id"]),
		ToolInput:      unwrap(m["tool_input"]),
		ToolResponse:   unwrap(m["tool_response"]),
		Error:          str(m["error"]),
	}
	json.Unmarshal(m["is_interrupt"], &p.IsInterrupt) // absent or not a bool: false
	if raw, ok := m["mcp_server"]; ok {
		var s map[string]json.RawMessage
		if json.Unmarshal(raw, &s) == nil && s != nil {
			p.MCPServer = &MCPServer{Name: str(s["name"]), Source: str(s["source"])}
		}
	}
	return p, m, nil
}

func str(raw json.RawMessage) string {
	var s string
	json.Unmarshal(raw, &s) // absent, null or not a string: ""
	return s
}

// unwrap decodes a value that arrived as a JSON string holding a JSON
// object or array. Anything else (including a string of plain text) is
// returned as it came.
func unwrap(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '"' {
		return raw
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return raw
	}
	inner := strings.TrimSpace(s)
	if inner == "" || (inner[0] != '{' && inner[0] != '[') || !json.Valid([]byte(inner)) {
		return raw
	}
	return json.RawMessage(inner)
}

// IsMCP reports whether the tool is an MCP server's tool.
func (p Payload) IsMCP() bool {
	return p.MCPServer != nil || strings.HasPrefix(p.ToolName, "mcp__")
}

// MCPTool splits an MCP tool name (mcp__<server>__<tool>) into the server
// and the tool. Claude Code rewrites the server name into the tool name
// (every character but letters, digits, _ and - becomes _), so the server
// comes from mcp_server when the payload has it; otherwise the name is split
// at the first "__", which is wrong for a server key that itself holds "__".
func (p Payload) MCPTool() (server, tool string, ok bool) {
	rest, found := strings.CutPrefix(p.ToolName, "mcp__")
	if !found {
		return "", "", false
	}
	if p.MCPServer != nil && p.MCPServer.Name != "" {
		if t, ok := strings.CutPrefix(rest, mcpKey(p.MCPServer.Name)+"__"); ok {
			return p.MCPServer.Name, t, true
		}
	}
	server, tool, ok = strings.Cut(rest, "__")
	if !ok || server == "" || tool == "" {
		return "", "", false
	}
	return server, tool, true
}

// MCPToolName is Claude Code's name for an MCP server's tool, which
// MCPTool splits back when the payload names the server: how another
// agent's MCP call is put in Claude Code's terms.
func MCPToolName(server, tool string) string {
	return "mcp__" + mcpKey(server) + "__" + tool
}

// mcpKey is how Claude Code spells a server name inside tool names.
func mcpKey(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, name)
}

// ResponseText is the text a tool returned, for recording where data came
// from: a Read's file content, a Bash command's stdout and stderr, a
// WebFetch's result, the text blocks of an MCP result. For any other shape it
// is the tool_response JSON itself, whose string values flowd's fingerprints
// pick out. For PostToolUseFailure it is the error: an MCP result marked
// isError arrives that way, and its text is the server's output like any
// other.
func (p Payload) ResponseText() string {
	raw := p.ToolResponse
	if len(raw) == 0 || string(raw) == "null" {
		return p.Error
	}
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return text // a plain string: an MCP result that is not JSON, or a tool's message
	}
	if p.IsMCP() {
		if t, ok := contentBlocksText(raw); ok {
			return t
		}
		return string(raw)
	}
	switch p.ToolName {
	case "Read":
		var r struct {
			File struct {
				Content *string `json:"content"`
			} `json:"file"`
		}
		if json.Unmarshal(raw, &r) == nil && r.File.Content != nil {
			return *r.File.Content
		}
	case "Bash":
		var r struct {
			Stdout *string `json:"stdout"`
			Stderr *string `json:"stderr"`
		}
		if json.Unmarshal(raw, &r) == nil && (r.Stdout != nil || r.Stderr != nil) {
			return joinNonEmpty(deref(r.Stdout), deref(r.Stderr))
		}
	case "WebFetch":
		var r struct {
			Result *string `json:"result"`
		}
		if json.Unmarshal(raw, &r) == nil && r.Result != nil {
			return *r.Result
		}
	}
	return string(raw)
}

// contentBlocksText joins the text of MCP content blocks, given either as
// a result object ({"content": [...]}) or as the bare block array that some
// Claude Code versions pass on.
func contentBlocksText(raw json.RawMessage) (string, bool) {
	type block struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		Resource *struct {
			Text string `json:"text"`
		} `json:"resource"`
	}
	var blocks []block
	if json.Unmarshal(raw, &blocks) != nil {
		var r struct {
			Content []block `json:"content"`
		}
		if json.Unmarshal(raw, &r) != nil || r.Content == nil {
			return "", false
		}
		blocks = r.Content
	}
	var texts []string
	for _, b := range blocks {
		switch {
		case b.Type == "text":
			texts = append(texts, b.Text)
		case b.Type == "resource" && b.Resource != nil:
			texts = append(texts, b.Resource.Text)
		}
	}
	if len(texts) == 0 && len(blocks) > 0 {
		return "", false // images or unknown blocks only: fall back to the JSON
	}
	return joinNonEmpty(texts...), true
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func joinNonEmpty(parts ...string) string {
	var out []string
	for _, s := range parts {
		if s != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, "\n")
}
