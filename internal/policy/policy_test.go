package policy

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDecide(t *testing.T) {
	r := Rules{DefaultAction: Allow, ToolOverrides: map[string]Action{
		"delete_file":        Deny,
		"fs/delete_file":     Warn,
		"WebSearch":          Allow,
		"everything/get-env": Deny,
	}}
	tests := []struct {
		call Call
		want Action
		rule string
	}{
		{Call{"fs", "delete_file"}, Warn, "tool_overrides.fs/delete_file"},
		{Call{"other", "delete_file"}, Deny, "tool_overrides.delete_file"},
		{Call{"everything", "get-env"}, Deny, "tool_overrides.everything/get-env"},
		{Call{"everything", "echo"}, Allow, "default_action"},
		{Call{"", "WebSearch"}, Allow, "tool_overrides.WebSearch"},
	}
	for _, tt := range tests {
		d := r.Decide(tt.call)
		assert.Equal(t, tt.want, d.Action, "%+v", tt.call)
		assert.Equal(t, tt.rule, d.Rule, "%+v", tt.call)
		if d.Action != Allow {
			assert.Contains(t, d.Reason, tt.call.Tool)
		}
	}
	assert.Equal(t, Allow, Rules{}.Decide(Call{"a", "b"}).Action, "zero rules allow")
	assert.Equal(t, Ask, Rules{DefaultAction: Ask}.Decide(Call{"a", "b"}).Action)
}

func TestValid(t *testing.T) {
	for _, s := range []string{"allow", "warn", "ask", "deny"} {
		assert.True(t, Valid(s), s)
	}
	assert.False(t, Valid("block"))
	assert.False(t, Valid(""))
}
