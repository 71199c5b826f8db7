package claudecode

import (
	"encoding/json"
	"strings"
)

// Decisions flowd makes about a tool call.
const (
	Allow = "allow"
	Warn  = "warn" // allow, and tell the user
	Ask   = "ask"
	Deny  = "deny"
)

// Verdict is flowd's answer to one hook event.
type Verdict struct {
	Decision string // Allow, Warn, Ask or Deny
	Reason   string
	// AdditionalContext is text Claude Code adds to the model's context.
	AdditionalContext string
	// UpdatedOutput, for PostToolUse, replaces the tool's output before
	// the model sees it (a JSON value in the shape of tool_response).
	UpdatedOutput json.RawMessage
}

type output struct {
	SystemMessage      string          `json:"systemMessage,omitempty"`
	HookSpecificOutput *specificOutput `json:"hookSpecificOutput,omitempty"`
}

type specificOutput struct {
	HookEventName            string          `json:"hookEventName"`
	PermissionDecision       string          `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string          `json:"permissionDecisionReason,omitempty"`
	AdditionalContext        string          `json:"additionalContext,omitempty"`
	UpdatedToolOutput        json.RawMessage `json:"updatedToolOutput,omitempty"`
}

// Output is what a hook prints on stdout (and then exits 0) to give Claude
// Code the verdict; nil means print nothing.
//
// An allow is never said out loud: a PreToolUse "allow" makes Claude Code
// skip its own permission prompt, which would weaken the user's permission
// settings. Silence lets Claude Code decide as if flowd were not there. A
// warn is the same plus a message to the user. Only deny and ask set a
// permission decision, and only for PreToolUse: after a tool has run there
// is nothing left to refuse, so a Post* event turns them into a message
// to the user.
func Output(event string, v Verdict) []byte {
	switch event {
	case PreToolUse, PostToolUse, PostToolUseFailure:
	default:
		return nil // Claude Code would reject hookSpecificOutput for an event it does not expect
	}
	spec := &specificOutput{HookEventName: event, AdditionalContext: v.AdditionalContext}
	if event == PostToolUse && json.Valid(v.UpdatedOutput) {
		spec.UpdatedToolOutput = v.UpdatedOutput
	}
	var o output
	switch {
	case v.Decision == Deny || v.Decision == Ask:
		if event == PreToolUse {
			spec.PermissionDecision = v.Decision
			spec.PermissionDecisionReason = v.ReasonOr("flowd: " + v.Decision)
		} else {
			o.SystemMessage = v.UserMessage()
		}
	case v.Decision == Warn:
		o.SystemMessage = v.UserMessage()
	}
	if spec.PermissionDecision != "" || spec.AdditionalContext != "" || spec.UpdatedToolOutput != nil {
		o.HookSpecificOutput = spec
	}
	if o.SystemMessage == "" && o.HookSpecificOutput == nil {
		return nil
	}
	b, err := json.Marshal(o)
	if err != nil {
		return nil // strings only: cannot fail
	}
	return append(b, '\n')
}

// UserMessage is the verdict as the user reads it, outside the tool
// call's context, so it says who is speaking.
func (v Verdict) UserMessage() string {
	r := v.ReasonOr("this tool call was flagged")
	if strings.HasPrefix(r, "flowd") {
		return r
	}
	return "flowd " + v.Decision + ": " + r
}

// ReasonOr is the verdict's reason, or def when it gives none.
func (v Verdict) ReasonOr(def string) string {
	if v.Reason == "" {
		return def
	}
	return v.Reason
}

// ReplacementOutput is text in the shape of tool's tool_response, for
// Verdict.UpdatedOutput. Claude Code checks a built-in tool's replacement
// against that tool's output schema and, when it does not fit, gives the
// model the original output (2.1.197 logs "PostToolUse hook returned
// updatedToolOutput that does not match WebFetch's output shape"); an MCP
// tool's tool_response is a string and takes any string. ok is false for
// a shape flowd does not know how to fill.
func ReplacementOutput(tool string, response json.RawMessage, text string) (out json.RawMessage, ok bool) {
	var s string
	if json.Unmarshal(response, &s) == nil {
		return mustMarshal(text), true
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(response, &obj) != nil {
		return nil, false
	}
	switch tool {
	case "WebFetch": // {bytes, code, codeText, result, durationMs, url}: result is the summariser's answer
		if _, ok := obj["result"]; !ok {
			return nil, false
		}
		obj["result"] = mustMarshal(text)
		if _, ok := obj["bytes"]; ok {
			obj["bytes"] = mustMarshal(len(text))
		}
	case "Read": // {type: "text", file: {filePath, content, numLines, startLine, totalLines}}
		var typ string
		var file map[string]json.RawMessage
		if json.Unmarshal(obj["type"], &typ) != nil || typ != "text" || json.Unmarshal(obj["file"], &file) != nil || file == nil {
			return nil, false
		}
		lines := strings.Count(text, "\n") + 1
		file["content"], file["numLines"], file["startLine"], file["totalLines"] =
			mustMarshal(text), mustMarshal(lines), mustMarshal(1), mustMarshal(lines)
		obj["file"] = mustMarshal(file)
	case "Bash": // {stdout, stderr, interrupted, isImage, noOutputExpected, …}
		if _, ok := obj["stdout"]; !ok {
			return nil, false
		}
		// The model reads stdout and stderr joined, or instead of them the
		// content blocks of structuredContent, an image when isImage, or a
		// preview of the output saved at persistedOutputPath: only the
		// notice may be left to read.
		obj["stdout"], obj["stderr"] = mustMarshal(text), mustMarshal("")
		if _, ok := obj["isImage"]; ok {
			obj["isImage"] = mustMarshal(false)
		}
		delete(obj, "structuredContent")
		delete(obj, "persistedOutputPath")
		delete(obj, "persistedOutputSize")
	default:
		return nil, false
	}
	return mustMarshal(obj), true
}

// mustMarshal encodes values that cannot fail to encode: strings, ints,
// and maps of raw JSON that was valid when it was decoded.
func mustMarshal(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
