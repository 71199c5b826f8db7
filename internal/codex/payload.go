package codex

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/flowd-dev/flowd/internal/claudecode"
)

// Agent is the name `hook evaluate --agent` and flowd use for Codex CLI.
const Agent = "codex"

// Events are the hook events flowd handles, in the order it installs them.
// Codex names them as Claude Code does; it has no PostToolUseFailure (a
// failed call is a PostToolUse whose response says so).
var Events = []string{claudecode.PreToolUse, claudecode.PostToolUse}

// applyPatch is Codex's file-editing tool. Its hook input is {"command":
// the patch}, whose "*** Add File: …" and "*** Update File: …" lines name
// the files it writes.
const applyPatch = "apply_patch"

// Translate reads a Codex hook's stdin as the Claude Code event flowd
// judges. Codex already names its shell tool Bash (input {"command"}) and
// MCP tools mcp__<server>__<tool>; apply_patch becomes a Write of the
// files the patch names, the patch as its content (not as a "command",
// which flowd would read as a shell command line). Only a payload that is
// not a JSON object is an error: a field of an unexpected type stays
// empty, so that a newer Codex does not make the hook fail.
func Translate(event string, payload []byte) (claudecode.Event, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(payload, &m); err != nil {
		return claudecode.Event{}, fmt.Errorf("parse Codex hook payload: %w", err)
	}
	if m == nil {
		return claudecode.Event{}, errors.New("parse Codex hook payload: not a JSON object")
	}
	ev, err := claudecode.Translate(event, payload)
	if err != nil {
		return claudecode.Event{}, fmt.Errorf("parse Codex hook payload: %w", err)
	}
	// Codex cannot put a question to its user from a hook (it refuses
	// permissionDecision "ask"): policy.ask_fallback decides instead.
	ev.CanAsk = false
	if ev.Payload.ToolName == applyPatch {
		ev.Payload.ToolName = "Write"
		ev.Payload.ToolInput = patchInput(ev.Payload.ToolInput)
	}
	return ev, nil
}

// patchInput is apply_patch's input, {"command": patch}, as a Write's:
// the first file the patch writes as file_path, every one as files, and
// the patch as content. Any other input is kept as it is.
func patchInput(raw json.RawMessage) json.RawMessage {
	var in struct {
		Command *string `json:"command"`
	}
	if json.Unmarshal(raw, &in) != nil || in.Command == nil {
		return raw
	}
	files := patchedFiles(*in.Command)
	out := struct {
		FilePath string   `json:"file_path,omitempty"`
		Files    []string `json:"files,omitempty"`
		Content  string   `json:"content"`
	}{Files: files, Content: *in.Command}
	if len(files) > 0 {
		out.FilePath = files[0]
	}
	b, err := json.Marshal(out)
	if err != nil {
		return raw
	}
	return b
}

// patchedFiles are the files a patch in Codex's apply_patch format adds,
// updates, deletes or moves to, in order.
func patchedFiles(patch string) []string {
	var out []string
	for _, line := range strings.Split(patch, "\n") {
		line = strings.TrimSpace(line)
		for _, h := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "} {
			if p, ok := strings.CutPrefix(line, h); ok && strings.TrimSpace(p) != "" {
				out = append(out, strings.TrimSpace(p))
			}
		}
	}
	return out
}
