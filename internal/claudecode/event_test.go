package claudecode

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTranslate(t *testing.T) {
	ev, err := Translate(PostToolUse, []byte(`{"tool_name":"mcp__fs__read","tool_response":"{\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}","tool_response":"last"}`))
	require.NoError(t, err)
	assert.Equal(t, PostToolUse, ev.Name)
	assert.True(t, ev.CanAsk)
	assert.False(t, ev.Delivers)
	assert.Equal(t, `"last"`, string(ev.Response), "the output as sent, the last of a repeated name as JSON.parse reads it")
	assert.Equal(t, "last", ev.Payload.ResponseText())
	_, err = Translate(PreToolUse, []byte(`[]`))
	assert.ErrorContains(t, err, "parse Claude Code hook payload")
}
