package daemon

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/jsonrpc"
)

func TestSplice(t *testing.T) {
	line := []byte(`{"id":1,"result":{"a":1}}` + "\n")
	e, err := jsonrpc.Parse(line)
	require.NoError(t, err)
	assert.Equal(t, `{"id":1,"result":{"b":2}}`+"\n", string(splice(line, e.Result, []byte(`{"b":2}`))))
	assert.Equal(t, `{"id":1,"result":{"a":1}}`+"\n", string(line), "the original is not touched")
}

func TestPrepend(t *testing.T) {
	item := []byte(`{"n":0}`)
	tests := []struct{ in, want string }{
		{`{"content":[{"n":1}],"x":2}`, `{"content":[{"n":0},{"n":1}],"x":2}`},
		{`{"x":2, "content" : [ {"n":1} ] }`, `{"x":2, "content" : [{"n":0}, {"n":1} ] }`},
		{`{"content":[ ]}`, `{"content":[{"n":0}]}`},
		{`{"x":2}`, `{"content":[{"n":0}],"x":2}`},
		{`{}`, `{"content":[{"n":0}]}`},
		{` { } `, ` {"content":[{"n":0}] } `},
	}
	for _, tt := range tests {
		in := []byte(tt.in)
		got, err := prepend(in, in, "content", item)
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, string(got), tt.in)
	}
	// Within a whole reply, which is what comes back.
	for in, want := range map[string]string{
		`{"id":1,"result":{"content":[{"n":1}]},"jsonrpc":"2.0"}`: `{"id":1,"result":{"content":[{"n":0},{"n":1}]},"jsonrpc":"2.0"}`,
		`{"id":1,"result":{"content":[]},"jsonrpc":"2.0"}`:        `{"id":1,"result":{"content":[{"n":0}]},"jsonrpc":"2.0"}`,
		`{"id":1,"result":{"x":2},"jsonrpc":"2.0"}`:               `{"id":1,"result":{"content":[{"n":0}],"x":2},"jsonrpc":"2.0"}`,
	} {
		whole := []byte(in)
		result, ok := jsonrpc.Member(whole, "result")
		require.True(t, ok)
		got, err := prepend(whole, result, "content", item)
		require.NoError(t, err, in)
		assert.Equal(t, want, string(got), in)
	}
	bad := []byte(`{"content":"text"}`)
	_, err := prepend(bad, bad, "content", item)
	assert.Error(t, err)
}

func TestReplacement(t *testing.T) {
	assert.Equal(t, `{"jsonrpc":"2.0","id":"x","result":{"contents":[{"uri":"flowd:notice","mimeType":"text/plain","text":"flowd blocked: why"}],"resultType":"complete"}}`+"\n",
		string(replacement([]byte(`"x"`), "resources/read", "why", true)))
	assert.Equal(t, `{"jsonrpc":"2.0","id":3,"result":{"messages":[{"role":"user","content":{"type":"text","text":"flowd blocked: why"}}]}}`+"\n",
		string(replacement([]byte(`3`), "prompts/get", "why", false)))
	assert.Equal(t, string(jsonrpc.BlockedToolResult([]byte(`3`), "why", false)), string(replacement([]byte(`3`), "tools/call", "why", false)))
}

func TestWithoutTools(t *testing.T) {
	in := `{"tools":[{"name":"a","x":{"name":"b"}},{"name":"b"}, {"name":"c"}],"nextCursor":"n"}`
	got, err := withoutTools([]byte(in), map[string]bool{"b": true})
	require.NoError(t, err)
	assert.Equal(t, `{"tools":[{"name":"a","x":{"name":"b"}},{"name":"c"}],"nextCursor":"n"}`, string(got))
	got, err = withoutTools([]byte(in), map[string]bool{"a": true, "b": true, "c": true})
	require.NoError(t, err)
	assert.Equal(t, `{"tools":[],"nextCursor":"n"}`, string(got))
	_, err = withoutTools([]byte(`{"x":1}`), nil)
	assert.Error(t, err)
}
