package upstream

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

// Each record of a shim message keeps its JSON-RPC id, so that a
// collector can join it to the client's and server's own traces.
func TestRecordsKeepTheRequestID(t *testing.T) {
	d := newEnv(t, nil)
	u := NewStream(1, shimproto.Hello{Name: "notes"}, "s1")
	judgeMsg(d, u, msg(c2s, `{"jsonrpc":"2.0","id":"call-\"a\"","method":"tools/call","params":{"name":"read","arguments":{}}}`))
	judgeMsg(d, u, msg(s2c, `{"jsonrpc":"2.0","id":"call-\"a\"","result":{"content":[{"type":"text","text":"ok"}]}}`))
	judgeMsg(d, u, msg(c2s, `{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"read","arguments":{}}}`))
	judgeMsg(d, u, msg(s2c, `{"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"text","text":"ok"}]}}`))
	// Refused: its id is taken by a request still waiting.
	judgeMsg(d, u, msg(c2s, `{"jsonrpc":"2.0","id":43,"method":"tools/call","params":{"name":"read","arguments":{}}}`))
	require.Equal(t, shimproto.Respond, judgeMsg(d, u, msg(c2s, `{"jsonrpc":"2.0","id":43,"method":"prompts/get","params":{"name":"x"}}`)).Action)

	require.NoError(t, d.store.Flush())
	calls, err := d.store.Query(activity.Filter{Type: activity.TypeToolCall, Server: "notes"})
	require.NoError(t, err)
	var ids []string
	for _, r := range calls {
		ids = append(ids, r.RequestID)
	}
	assert.ElementsMatch(t, []string{`call-"a"`, "42"}, ids)
	refused, err := d.store.Query(activity.Filter{Type: activity.TypeMessage, Server: "notes"})
	require.NoError(t, err)
	require.Len(t, refused, 1)
	assert.Equal(t, "43", refused[0].RequestID)
	assert.Equal(t, "block", refused[0].Verdict)
}
