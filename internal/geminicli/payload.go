package geminicli

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/flowd-dev/flowd/internal/claudecode"
)

// Agent is the name `hook evaluate --agent` and flowd use for Gemini CLI.
const Agent = "gemini-cli"

// Hook events flowd installs itself for.
const (
	BeforeTool = "BeforeTool"
	AfterTool  = "AfterTool"
)

// Events are the hook events flowd handles, in the order it installs them.
var Events = []string{BeforeTool, AfterTool}

// builtins maps Gemini CLI's own tools to the Claude Code tools that do
// the same, whose names flowd's classifier and output readers know.
// Tools not listed keep their name and are classified by it.
var builtins = map[string]string{
	"read_file":           "Read",
	"read_many_files":     "Read",
	"write_file":          "Write",
	"replace":             "Edit",
	"run_shell_command":   "Bash",
	"web_fetch":           "WebFetch",
	"google_web_search":   "WebSearch",
	"glob":                "Glob",
	"search_file_content": "Grep",
	"grep_search":         "Grep",
	// save_memory appends a "fact" to the global GEMINI.md, which every
	// later session reads as instructions: it is judged as the write of
	// that file it is, so the check for instructions planted for a model
	// reads the fact (RT7-23).
	"save_memory": "Write",
}

// MemoryFile is the file save_memory appends its facts to. It names the
// home directory as ~ because flowd, not the hook, translates the event,
// and a system flowd's home is not the agent's.
const MemoryFile = "~/.gemini/GEMINI.md"

// Translate reads a Gemini CLI hook's stdin as the Claude Code event
// flowd judges. Only a payload that is not a JSON object is an error: a
// field of an unexpected type stays empty, so that a newer Gemini CLI does
// not make the hook fail.
func Translate(event string, payload []byte) (claudecode.Event, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(payload, &m); err != nil {
		return claudecode.Event{}, fmt.Errorf("parse Gemini CLI hook payload: %w", err)
	}
	if m == nil {
		return claudecode.Event{}, errors.New("parse Gemini CLI hook payload: not a JSON object")
	}
	name := str(m["tool_name"])
	p := claudecode.Payload{
		SessionID:      str(m["session_id"]),
		TranscriptPath: str(m["transcript_path"]),
		CWD:            str(m["cwd"]),
		HookEventName:  str(m["hook_event_name"]),
		ToolName:       name,
		ToolInput:      m["tool_input"],
	}
	switch server, tool := mcpTool(m["mcp_context"]); {
	case server != "" && tool != "":
		// Gemini CLI 0.61 names MCP tools mcp_<server>_<tool>, which cannot
		// be split; mcp_context names both parts.
		p.ToolName = claudecode.MCPToolName(server, tool)
		p.MCPServer = &claudecode.MCPServer{Name: server}
	case server != "" && strings.HasPrefix(name, "mcp__"):
		p.MCPServer = &claudecode.MCPServer{Name: server}
	}
	if t, ok := builtins[name]; ok {
		p.ToolName = t
		switch t {
		case "Read", "Write", "Edit":
			if name == "save_memory" {
				p.ToolInput = memoryWrite(p.ToolInput)
				break
			}
			p.ToolInput = withFilePath(p.ToolInput)
		case "WebFetch":
			p.ToolInput = withURLs(p.ToolInput)
		}
	}
	ev := claudecode.Event{Payload: p, Response: m["tool_response"]}
	switch event {
	case BeforeTool:
		ev.Name = claudecode.PreToolUse
	case AfterTool:
		ev.Name = claudecode.PostToolUse
		text, failed := responseText(m["tool_response"])
		if failed {
			ev.Name = claudecode.PostToolUseFailure
			ev.Payload.Error = text
		} else {
			ev.Payload.ToolResponse, _ = json.Marshal(text)
		}
	default:
		ev.Name = event
	}
	return ev, nil
}

// mcpTool reads mcp_context: the server's name as configured and the
// tool's name on that server (Gemini CLI 0.61's McpToolContext).
func mcpTool(raw json.RawMessage) (server, tool string) {
	var c map[string]json.RawMessage
	if json.Unmarshal(raw, &c) != nil {
		return "", ""
	}
	return str(c["server_name"]), str(c["tool_name"])
}

// withFilePath adds Claude Code's file_path to a file tool's input, from
// Gemini CLI's absolute_path (older) or path.
func withFilePath(raw json.RawMessage) json.RawMessage {
	var in map[string]json.RawMessage
	if json.Unmarshal(raw, &in) != nil || in == nil {
		return raw
	}
	if _, ok := in["file_path"]; ok {
		return raw
	}
	for _, k := range []string{"absolute_path", "path"} {
		if v, ok := in[k]; ok {
			in["file_path"] = v
			b, err := json.Marshal(in)
			if err != nil {
				return raw
			}
			return b
		}
	}
	return raw
}

// memoryWrite is save_memory's input as the Write it is: its fact as
// the content of MemoryFile, beside the fields it had.
func memoryWrite(raw json.RawMessage) json.RawMessage {
	var in map[string]json.RawMessage
	if json.Unmarshal(raw, &in) != nil || in == nil {
		in = map[string]json.RawMessage{}
	}
	in["file_path"], _ = json.Marshal(MemoryFile)
	if f, ok := in["fact"]; ok {
		in["content"] = f
	}
	b, err := json.Marshal(in)
	if err != nil {
		return raw
	}
	return b
}

// promptURL is a URL as web_fetch finds them in its prompt.
var promptURL = regexp.MustCompile(`(?i)\bhttps?://[^\s<>"'` + "`" + `]+`)

// withURLs adds, to web_fetch's input, the URLs its prompt names: Gemini
// CLI's web_fetch has no url parameter and fetches the URLs written in
// its prompt ("Summarize https://…"), which flowd must check as the
// addresses it fetches, not read as prose.
func withURLs(raw json.RawMessage) json.RawMessage {
	var in map[string]json.RawMessage
	if json.Unmarshal(raw, &in) != nil || in == nil {
		return raw
	}
	if _, ok := in["urls"]; ok {
		return raw
	}
	urls := promptURL.FindAllString(str(in["prompt"]), maxPromptURLs)
	if len(urls) == 0 {
		return raw
	}
	for i, u := range urls {
		urls[i] = strings.TrimRight(u, ".,;:!?)]}")
	}
	b, err := json.Marshal(urls)
	if err != nil {
		return raw
	}
	in["urls"] = b
	if b, err = json.Marshal(in); err != nil {
		return raw
	}
	return b
}

// maxPromptURLs bounds the URLs read from a prompt; Gemini CLI fetches at
// most 20.
const maxPromptURLs = 64

// responseText is what the model read from a tool: tool_response's
// llmContent (a string, or parts with text), or its error.
func responseText(raw json.RawMessage) (text string, failed bool) {
	var r struct {
		LLMContent    json.RawMessage `json:"llmContent"`
		ReturnDisplay json.RawMessage `json:"returnDisplay"`
		Error         json.RawMessage `json:"error"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return string(raw), false
	}
	if e := errorText(r.Error); e != "" {
		return e, true
	}
	if t, ok := partsText(r.LLMContent); ok {
		return t, false
	}
	if t, ok := partsText(r.ReturnDisplay); ok {
		return t, false
	}
	return string(raw), false
}

func errorText(raw json.RawMessage) string {
	if s := str(raw); s != "" {
		return s
	}
	var e struct {
		Message string `json:"message"`
	}
	json.Unmarshal(raw, &e)
	return e.Message
}

// partsText reads llmContent: a string, a part ({"text": …}), or a list
// of either.
func partsText(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, true
	}
	var part struct {
		Text *string `json:"text"`
	}
	if json.Unmarshal(raw, &part) == nil && part.Text != nil {
		return *part.Text, true
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return "", false
	}
	var texts []string
	for _, it := range list {
		if t, ok := partsText(it); ok && t != "" {
			texts = append(texts, t)
		}
	}
	return strings.Join(texts, "\n"), len(texts) > 0
}

func str(raw json.RawMessage) string {
	var s string
	json.Unmarshal(raw, &s) // absent, null or not a string: ""
	return s
}
