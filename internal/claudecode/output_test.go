package claudecode

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestOutput(t *testing.T) {
	tests := []struct {
		name  string
		event string
		v     Verdict
		want  string // "" = print nothing
	}{
		{"allow says nothing, so Claude Code's own permission check still runs", PreToolUse,
			Verdict{Decision: Allow, Reason: "fine"}, ""},
		{"allow with context", PreToolUse, Verdict{Decision: Allow, AdditionalContext: "note"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"note"}}`},
		{"deny", PreToolUse, Verdict{Decision: Deny, Reason: "flowd: .env data to webhook.site"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"flowd: .env data to webhook.site"}}`},
		{"deny without a reason still gives one", PreToolUse, Verdict{Decision: Deny},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"flowd: deny"}}`},
		{"ask", PreToolUse, Verdict{Decision: Ask, Reason: "sends a file to an unknown server"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sends a file to an unknown server"}}`},
		{"warn is an allow left unsaid, with a message to the user", PreToolUse,
			Verdict{Decision: Warn, Reason: "secret sent to an internal server"},
			`{"systemMessage":"flowd warn: secret sent to an internal server"}`},
		{"warn with context", PreToolUse, Verdict{Decision: Warn, Reason: "flowd: x", AdditionalContext: "c"},
			`{"systemMessage":"flowd: x","hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"c"}}`},
		{"post allow", PostToolUse, Verdict{Decision: Allow}, ""},
		{"post context", PostToolUse, Verdict{Decision: Allow, AdditionalContext: "untrusted content"},
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"untrusted content"}}`},
		{"post never denies", PostToolUse, Verdict{Decision: Deny, Reason: "prompt injection"},
			`{"systemMessage":"flowd deny: prompt injection"}`},
		{"failure event context", PostToolUseFailure, Verdict{Decision: Allow, AdditionalContext: "c"},
			`{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"c"}}`},
		{"post replaces the output", PostToolUse, Verdict{Decision: Warn, Reason: "flowd: injection", AdditionalContext: "c",
			UpdatedOutput: []byte(`{"result":"[flowd redacted: ai-addressee]"}`)},
			`{"systemMessage":"flowd: injection","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"c","updatedToolOutput":{"result":"[flowd redacted: ai-addressee]"}}}`},
		{"only PostToolUse replaces output", PreToolUse, Verdict{Decision: Allow, UpdatedOutput: []byte(`"x"`)}, ""},
		{"invalid replacement is dropped", PostToolUse, Verdict{Decision: Allow, UpdatedOutput: []byte(`{`)}, ""},
		{"unknown event", "Stop", Verdict{Decision: Deny, Reason: "x"}, ""},
		{"unknown decision is not a deny", PreToolUse, Verdict{Decision: "quarantine"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Output(tt.event, tt.v)
			if tt.want == "" {
				assert.Nil(t, got)
				return
			}
			assert.Equal(t, tt.want+"\n", string(got))
		})
	}
}
