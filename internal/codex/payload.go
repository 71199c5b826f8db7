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
// MCP tools mcp__<server>__<tool>; apply_patch becomes Edit, with the
// first file it writes as file_path. Only a payload that is not a JSON
// object is an error: a field of an unexpected type stays empty, so that
// a newer Codex does not make the hook fail.
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
		ev.Payload.ToolName = "Edit"
		ev.Payload.ToolInput = withFilePath(ev.Payload.ToolInput)
	}
	return ev, nil
}

// withFilePath adds Claude Code's file_path to apply_patch's input: the
// first file the patch adds, updates, deletes or moves to.
func withFilePath(raw json.RawMessage) json.RawMessage {
	var in map[string]json.RawMessage
	if json.Unmarshal(raw, &in) != nil || in == nil {
		return raw
	}
	var patch string
	if json.Unmarshal(in["command"], &patch) != nil {
		return raw
	}
	if _, ok := in["file_path"]; ok {
		return raw
	}
	path := patchedFile(patch)
	if path == "" {
		return raw
	}
	in["file_path"], _ = json.Marshal(path)
	b, err := json.Marshal(in)
	if err != nil {
		return raw
	}
	return b
}

// patchedFile is the first file a patch in Codex's apply_patch format
// names, or "".
func patchedFile(patch string) string {
	for _, line := range strings.Split(patch, "\n") {
		line = strings.TrimSpace(line)
		for _, h := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "} {
			if p, ok := strings.CutPrefix(line, h); ok && strings.TrimSpace(p) != "" {
				return strings.TrimSpace(p)
			}
		}
	}
	return ""
}
