// Package hookproto is what the hook command and flowd say to each other
// for one agent hook event: POST Path with a Request, a Verdict back. It
// stays free of net/http so the hook binary starts fast.
package hookproto

import (
	"encoding/json"

	"github.com/flowd-dev/flowd/internal/sessionid"
)

// Path is flowd's endpoint for hook events.
const Path = "/api/v1/hooks/evaluate"

// Request carries one hook event as the agent sent it.
type Request struct {
	Agent   string          `json:"agent"` // "claude-code", "gemini-cli" or "cursor"
	Event   string          `json:"event"` // the agent's name for it: PreToolUse, BeforeTool, beforeMCPExecution, …
	Session sessionid.Hints `json:"session"`
	Payload json.RawMessage `json:"payload"` // the agent's stdin, untouched
	// ReplaceOutput: the hook was installed to scan tool output
	// (hook install --scan-output) and runs synchronously, so the agent
	// takes a Verdict.UpdatedOutput in place of the tool's output.
	ReplaceOutput bool `json:"replace_output,omitempty"`
}

// Verdict is flowd's answer.
type Verdict struct {
	Decision          string `json:"decision"` // allow, warn, ask or deny
	Reason            string `json:"reason,omitempty"`
	AdditionalContext string `json:"additional_context,omitempty"`
	// UpdatedOutput, for a PostToolUse of a Request with ReplaceOutput,
	// is what the model reads instead of the tool's output: the output
	// with prompt injection removed, or a quarantine notice.
	UpdatedOutput json.RawMessage `json:"updated_output,omitempty"`
}
