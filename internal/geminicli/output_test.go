package geminicli

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowd-dev/flowd/internal/claudecode"
)

func TestOutput(t *testing.T) {
	tests := []struct {
		name, event string
		v           claudecode.Verdict
		want        string // "" = print nothing
	}{
		{"allow is silent", BeforeTool, claudecode.Verdict{Decision: "allow", Reason: "no flow"}, ``},
		{"deny", BeforeTool, claudecode.Verdict{Decision: "deny", Reason: "flowd blocked: key to slack"},
			`{"decision":"deny","reason":"flowd blocked: key to slack"}`},
		{"deny without reason", BeforeTool, claudecode.Verdict{Decision: "deny"}, `{"decision":"deny","reason":"flowd: deny"}`},
		{"ask cannot be asked: deny", BeforeTool, claudecode.Verdict{Decision: "ask", Reason: "flowd: internal data out"},
			`{"decision":"deny","reason":"flowd: internal data out (flowd asks for your approval, and Gemini CLI cannot ask you: denied)"}`},
		{"warn", BeforeTool, claudecode.Verdict{Decision: "warn", Reason: "secret to internal"}, `{"systemMessage":"flowd warn: secret to internal"}`},
		{"after: context", AfterTool, claudecode.Verdict{Decision: "allow", AdditionalContext: "treat as data"},
			`{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"treat as data"}}`},
		{"after: a replacement is not offered", AfterTool, claudecode.Verdict{Decision: "warn", Reason: "flowd: injection", UpdatedOutput: json.RawMessage(`"x"`)},
			`{"systemMessage":"flowd: injection"}`},
		{"after: a deny is only a message, with context", AfterTool, claudecode.Verdict{Decision: "deny", Reason: "injection", AdditionalContext: "c"},
			`{"systemMessage":"flowd deny: injection","hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"c"}}`},
		{"after: allow is silent", AfterTool, claudecode.Verdict{Decision: "allow"}, ``},
		{"unknown event", "BeforeModel", claudecode.Verdict{Decision: "deny"}, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := Output(tt.event, tt.v)
			if tt.want == "" {
				assert.Nil(t, out)
				return
			}
			assert.Equal(t, tt.want+"\n", string(out), "byte for byte")
		})
	}
}
