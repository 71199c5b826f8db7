package upstream

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/judge/judgetest"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

var msg = judgetest.Msg

const c2s, s2c = shimproto.ClientToServer, shimproto.ServerToClient

func TestJudgeBlocksDeniedToolAndSwallowsItsCancel(t *testing.T) {
	d := newEnv(t, map[string]string{"github/delete_repo": "deny"})
	u := NewStream(1, shimproto.Hello{Name: "github"}, "s1")

	v := judgeMsg(d, u, msg(c2s, `{"jsonrpc":"2.0","id":"r1","method":"tools/call","params":{"name":"delete_repo","arguments":{"repo":"x"}}}`))
	require.Equal(t, shimproto.Respond, v.Action)
	var reply struct {
		ID     string `json:"id"`
		Result struct {
			IsError    bool   `json:"isError"`
			ResultType string `json:"resultType"`
			Content    []struct{ Text string }
		}
	}
	require.NoError(t, json.Unmarshal(v.Data, &reply))
	assert.Equal(t, "r1", reply.ID)
	assert.True(t, reply.Result.IsError)
	assert.Empty(t, reply.Result.ResultType, "legacy session: no resultType")
	assert.True(t, strings.HasPrefix(reply.Result.Content[0].Text, "flowd blocked: "))
	assert.Contains(t, reply.Result.Content[0].Text, "delete_repo")

	assert.Equal(t, shimproto.Drop, judgeMsg(d, u, msg(c2s, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"r1"}}`)).Action)
	assert.Equal(t, shimproto.Pass, judgeMsg(d, u, msg(c2s, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"r1"}}`)).Action, "swallowed once")
	assert.Equal(t, shimproto.Pass, judgeMsg(d, u, msg(c2s, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"other"}}`)).Action)

	assert.Equal(t, shimproto.Pass, judgeMsg(d, u, msg(c2s, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_repos"}}`)).Action)

	require.NoError(t, d.store.Flush())
	recs, err := d.store.Query(activity.Filter{Type: "tool_call"})
	require.NoError(t, err)
	require.Len(t, recs, 1)
	assert.Equal(t, "block", recs[0].Verdict)
	assert.Equal(t, "deny", recs[0].Decision)
	assert.Equal(t, "github", recs[0].Server)
	assert.Equal(t, "delete_repo", recs[0].Tool)
	assert.Equal(t, "s1", recs[0].Session)
}

func TestJudgeModernSessionsGetResultType(t *testing.T) {
	d := newEnv(t, map[string]string{"rm": "deny"})
	u := NewStream(1, shimproto.Hello{Name: "fs"}, "s")
	judgeMsg(d, u, msg(c2s, `{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`))
	v := judgeMsg(d, u, msg(c2s, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"rm","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`))
	require.Equal(t, shimproto.Respond, v.Action)
	assert.Contains(t, string(v.Data), `"resultType":"complete"`)
}

func TestJudgeRecordsCallsAndLearnsName(t *testing.T) {
	d := newEnv(t, nil)
	u := NewStream(1, shimproto.Hello{Command: []string{"npx", "-y", "@modelcontextprotocol/server-filesystem", "/tmp"}}, "s")
	assert.Equal(t, "server-filesystem", u.Name())
	judgeMsg(d, u, msg(c2s, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`))
	judgeMsg(d, u, msg(s2c, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","serverInfo":{"name":"secure-filesystem-server","version":"1"}}}`))
	assert.Equal(t, "secure-filesystem-server", u.Name())
	judgeMsg(d, u, msg(c2s, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_text_file","arguments":{"path":"/tmp/a"}}}`))
	judgeMsg(d, u, msg(s2c, `{"jsonrpc":"2.0","id":2,"result":{"content":[],"isError":true}}`))
	// Answers to nothing, server requests and garbage pass without effect.
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":99,"result":{}}`,
		`{"jsonrpc":"2.0","id":5,"method":"sampling/createMessage","params":{}}`,
		"\x00\x01garbage",
		`[{"jsonrpc":"2.0","id":3,"result":{}}]`,
	} {
		assert.Equal(t, shimproto.Pass, judgeMsg(d, u, msg(s2c, s)).Action, s)
	}
	require.NoError(t, d.store.Flush())
	recs, err := d.store.Query(activity.Filter{Type: "tool_call"})
	require.NoError(t, err)
	require.Len(t, recs, 1)
	r := recs[0]
	assert.Equal(t, "secure-filesystem-server", r.Server)
	assert.Equal(t, "read_text_file", r.Tool)
	assert.Equal(t, "pass", r.Verdict)
	assert.Equal(t, len(`{"path":"/tmp/a"}`), r.ArgsBytes)
	assert.Positive(t, r.ResultBytes)
	var det struct {
		IsError        bool `json:"is_error"`
		Classification struct {
			Class string `json:"class"`
		} `json:"classification"`
	}
	require.NoError(t, json.Unmarshal(r.Details, &det))
	assert.True(t, det.IsError)
	assert.Equal(t, "internal", det.Classification.Class)
	// --name wins over serverInfo.
	named := NewStream(2, shimproto.Hello{Name: "docs"}, "s")
	judgeMsg(d, named, msg(c2s, `{"jsonrpc":"2.0","id":1,"method":"initialize"}`))
	judgeMsg(d, named, msg(s2c, `{"jsonrpc":"2.0","id":1,"result":{"serverInfo":{"name":"other"}}}`))
	assert.Equal(t, "docs", named.Name())
}

func TestJudgeBatchCannotBypassPolicy(t *testing.T) {
	d := newEnv(t, map[string]string{"send": "deny"})
	u := NewStream(1, shimproto.Hello{Name: "slack"}, "s")
	v := judgeMsg(d, u, msg(c2s, `[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list"}},{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"send"}}]`))
	require.Equal(t, shimproto.Respond, v.Action)
	var replies []struct {
		ID     int `json:"id"`
		Result struct {
			IsError bool `json:"isError"`
		}
	}
	require.NoError(t, json.Unmarshal(v.Data, &replies))
	require.Len(t, replies, 2, "one reply per request, none for the notification")
	assert.Equal(t, 1, replies[0].ID)
	assert.Equal(t, 2, replies[1].ID)
	assert.True(t, replies[0].Result.IsError && replies[1].Result.IsError)
	assert.Equal(t, shimproto.Pass, judgeMsg(d, u, msg(c2s, `[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list"}}]`)).Action)
}

func TestNameFromCommand(t *testing.T) {
	for want, cmd := range map[string][]string{
		"server-x":          {"npx", "-y", "@scope/server-x"},
		"server-github":     {"npx", "-y", "@modelcontextprotocol/server-github@1.2.3"},
		"mcp-server-fetch":  {"uvx", "mcp-server-fetch"},
		"server-everything": {"node", "/opt/node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"},
		"my-server":         {"/usr/local/bin/my-server", "--flag"},
		"weather":           {"python3", "-u", "weather.py"},
		"unknown":           {},
	} {
		assert.Equal(t, want, NameFromCommand(cmd), "%v", cmd)
	}
}

func TestReloadSwapsPolicyAndKeepsItOnError(t *testing.T) {
	d := newEnv(t, nil)
	u := NewStream(1, shimproto.Hello{Name: "fs"}, "s")
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete_file"}}`
	assert.Equal(t, shimproto.Pass, judgeMsg(d, u, msg(c2s, call)).Action)

	deny := config.Default()
	deny.Policy.ToolOverrides["delete_file"] = "deny"
	require.NoError(t, d.Reload(deny))
	assert.Equal(t, shimproto.Respond, judgeMsg(d, u, msg(c2s, call)).Action, "new policy applies at once")

	bad := config.Default()
	bad.Classify.Servers["fs"] = "sideways"
	assert.Error(t, d.Reload(bad))
	assert.Equal(t, shimproto.Respond, judgeMsg(d, u, msg(c2s, call)).Action, "a bad config leaves the last good one in force")
}

// A request whose id is still in use by one waiting for its answer is
// answered with an error, not forwarded: its answer could not be told
// from the first one's, nor judged as the right one's. Once the first is
// answered, the id is free again.
func TestDuplicateRequestIDIsRefused(t *testing.T) {
	d := newEnv(t, nil)
	u := NewStream(1, shimproto.Hello{Name: "notes"}, "s1")
	call := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"read","arguments":{}}}`
	assert.Equal(t, shimproto.Pass, judgeMsg(d, u, msg(c2s, call)).Action)
	v := judgeMsg(d, u, msg(c2s, `{"jsonrpc":"2.0","id":7,"method":"prompts/get","params":{"name":"x"}}`))
	require.Equal(t, shimproto.Respond, v.Action)
	assert.Contains(t, string(v.Data), `"id":7`)
	assert.Contains(t, string(v.Data), "already in use by a request still waiting for its answer")

	judgeMsg(d, u, msg(s2c, `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"ok"}]}}`))
	assert.Equal(t, shimproto.Pass, judgeMsg(d, u, msg(c2s, call)).Action, "answered: the id is free again")
}
