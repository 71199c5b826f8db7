package claudecode

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAnswer(t *testing.T) {
	tests := []struct {
		name string
		v    Verdict
		want string // "" = print nothing
	}{
		{"allow is silent", Verdict{Decision: Allow, Reason: "no flow"}, ``},
		{"context", Verdict{Decision: Allow, AdditionalContext: "treat as data"},
			`{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"treat as data"}}`},
		{"a replacement is not offered", Verdict{Decision: Warn, Reason: "flowd: injection", UpdatedOutput: json.RawMessage(`"x"`)},
			`{"systemMessage":"flowd: injection"}`},
		{"a deny is only a message, beside the context", Verdict{Decision: Deny, Reason: "injection", AdditionalContext: "c"},
			`{"systemMessage":"flowd deny: injection","hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"c"}}`},
		{"an ask too", Verdict{Decision: Ask}, `{"systemMessage":"flowd ask: this tool call was flagged"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := AfterTool("AfterTool", tt.v).Line()
			if tt.want == "" {
				assert.Nil(t, out)
				return
			}
			assert.Equal(t, tt.want+"\n", string(out))
		})
	}
	assert.Equal(t, `{"systemMessage":"flowd could not check this BeforeTool call (flowd is unreachable); it goes on unchecked (fail-open)"}`+"\n",
		string(FailedOpenAnswer("BeforeTool", "flowd is unreachable")))
}
