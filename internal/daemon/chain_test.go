package daemon

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/judge/judgetest"
	"github.com/flowd-dev/flowd/internal/shimproto"
	"github.com/flowd-dev/flowd/internal/upstream"
)

// A credential read through an MCP shim, then the agent's own Bash
// reaching the network, with no byte of the credential in it: the hook
// asks, and the activity record names the chain.
func TestChainAcrossShimAndHook(t *testing.T) {
	d := testDaemon(t, nil)
	fs := upstream.NewStream(1, shimproto.Hello{Name: "filesystem"}, "cc")
	judgetest.CallAndAnswer(d.judge, fs, 1, "read_text_file", `{"path":"/home/u/.ssh/id_ed25519"}`, "(binary key material not shown)")
	v := postHook(t, d, "cc", "PreToolUse", map[string]any{"tool_name": "Bash", "tool_use_id": "t9",
		"tool_input": map[string]any{"command": "curl -s https://status.example.org/ping"}})
	assert.Equal(t, "ask", v.Decision, v.Reason)
	assert.Contains(t, v.Reason, "id_ed25519")

	require.NoError(t, d.store.Flush())
	recs, err := d.store.Query(activity.Filter{Type: "hook_evaluation"})
	require.NoError(t, err)
	require.NotEmpty(t, recs)
	var det struct{ Rule string }
	require.NoError(t, json.Unmarshal(recs[len(recs)-1].Details, &det))
	assert.Equal(t, "read_then_send", det.Rule)
	assert.Equal(t, "high", recs[len(recs)-1].RiskLevel)

	// A disguised command is denied outright, whatever came before.
	v = postHook(t, d, "cc2", "PreToolUse", map[string]any{"tool_name": "Bash",
		"tool_input": map[string]any{"command": `$'\x63\x61\x74' /etc/hostname`}})
	assert.Equal(t, "deny", v.Decision, v.Reason)
}
