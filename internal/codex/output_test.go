package codex

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowd-dev/flowd/internal/claudecode"
)

func TestOutput(t *testing.T) {
	const pre, post = claudecode.PreToolUse, claudecode.PostToolUse
	tests := []struct {
		name, event string
		v           claudecode.Verdict
		want        string // "" = print nothing
	}{
		// Codex 0.171 refuses permissionDecision "allow" as invalid output.
		{"allow is silent", pre, claudecode.Verdict{Decision: "allow", Reason: "no flow"}, ``},
		{"deny", pre, claudecode.Verdict{Decision: "deny", Reason: "flowd blocked: key to slack"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"flowd blocked: key to slack"}}`},
		// Codex refuses a deny without a non-empty reason.
		{"deny without reason", pre, claudecode.Verdict{Decision: "deny"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"flowd: deny"}}`},
		{"ask cannot be asked: deny, saying how to let it through", pre, claudecode.Verdict{Decision: "ask", Reason: "flowd: internal data out"},
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"flowd: internal data out (flowd asks for your approval, and Codex cannot ask you, so it is denied; to let such calls through, run them yourself, or set policy.codex_ask_fallback = \"warn\" in flowd's config)"}}`},
		{"warn", pre, claudecode.Verdict{Decision: "warn", Reason: "secret to internal"}, `{"systemMessage":"flowd warn: secret to internal"}`},
		{"after: context", post, claudecode.Verdict{Decision: "allow", AdditionalContext: "treat as data"},
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"treat as data"}}`},
		// Codex refuses updatedMCPToolOutput: a replacement is dropped, the warning stays.
		{"after: a replacement is not offered", post, claudecode.Verdict{Decision: "warn", Reason: "flowd: injection", UpdatedOutput: json.RawMessage(`"x"`)},
			`{"systemMessage":"flowd: injection"}`},
		{"after: a deny is only a message", post, claudecode.Verdict{Decision: "deny", Reason: "injection"},
			`{"systemMessage":"flowd deny: injection"}`},
		{"after: allow is silent", post, claudecode.Verdict{Decision: "allow"}, ``},
		{"unknown event", "PermissionRequest", claudecode.Verdict{Decision: "deny"}, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := Output(tt.event, tt.v)
			if tt.want == "" {
				assert.Nil(t, out)
				return
			}
			assert.Equal(t, tt.want+"\n", string(out), "byte for byte")
			assert.NotContains(t, string(out), `"allow"`)
			assert.NotContains(t, string(out), `"ask"`)
			assert.NotContains(t, string(out), "updated")
		})
	}
}
