package upstream

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/judge/judgetest"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

const roadmap = "Quarterly roadmap: migrate the billing service to the new ledger schema before the March freeze."

// askSetup gives a daemon whose session holds an internal document, and an
// external server whose client said initialize with caps.
func askSetup(t *testing.T, caps string, configure func(d *env)) (*env, *Stream) {
	t.Helper()
	d := newEnv(t, nil)
	if configure != nil {
		configure(d)
	}
	gh := NewStream(1, shimproto.Hello{Name: "github"}, "s")
	judgetest.CallAndAnswer(d.judge, gh, 1, "get_file", `{"path":"ROADMAP.md"}`, roadmap)
	slack := NewStream(2, shimproto.Hello{Name: "slack-notifications"}, "s")
	judgeMsg(d, slack, msg(c2s, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":`+caps+`,"clientInfo":{"name":"c","version":"1"}}}`))
	return d, slack
}

func sendRoadmap(d *env, u *Stream, seq uint64, id int, extra string) shimproto.Verdict {
	v, _ := u.Judge(d.judge, shimproto.Message{Seq: seq, Dir: c2s, Data: fmt.Appendf(nil,
		`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"send_message","arguments":{"channel":"#general",%s"text":%q}}}`+"\n", id, extra, roadmap)})
	return v
}

func question(t *testing.T, v shimproto.Verdict) (shimproto.Question, string) {
	t.Helper()
	require.Equal(t, shimproto.Ask, v.Action, "the call must be held to ask the user")
	var q shimproto.Question
	require.NoError(t, json.Unmarshal(v.Data, &q))
	var el struct {
		Message         string
		RequestedSchema struct {
			Properties map[string]struct{ Type string }
			Required   []string
		}
	}
	require.NoError(t, json.Unmarshal(q.Elicitation, &el))
	assert.Equal(t, "boolean", el.RequestedSchema.Properties[shimproto.AllowField].Type)
	assert.Equal(t, []string{shimproto.AllowField}, el.RequestedSchema.Required)
	return q, el.Message
}

func TestAskGoesToTheClientOnlyWhereItCanAsk(t *testing.T) {
	tests := []struct {
		name      string
		caps      string
		configure func(d *env)
		modern    bool
		want      shimproto.Action
	}{
		{"form elicitation", `{"elicitation":{}}`, nil, false, shimproto.Ask},
		{"form named", `{"elicitation":{"form":{},"url":{}}}`, nil, false, shimproto.Ask},
		{"url mode only", `{"elicitation":{"url":{}}}`, nil, false, shimproto.Pass},
		{"no elicitation", `{"roots":{}}`, nil, false, shimproto.Pass},
		{"switched off", `{"elicitation":{}}`, func(d *env) { d.current().Cfg.Policy.AskWithElicitation = false }, false, shimproto.Pass},
		{"2026-07-28 session", `{"elicitation":{}}`, nil, true, shimproto.Pass},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, slack := askSetup(t, tt.caps, tt.configure)
			slack.modern = tt.modern
			v := sendRoadmap(d, slack, 7, 5, "")
			assert.Equal(t, tt.want, v.Action)
		})
	}
}

func TestAskQuestionAndAnswers(t *testing.T) {
	d, slack := askSetup(t, `{"elicitation":{}}`, nil)
	q, text := question(t, sendRoadmap(d, slack, 7, 5, ""))
	assert.Contains(t, text, `Server: "slack-notifications"`)
	assert.Contains(t, text, `Tool: "send_message"`)
	assert.Contains(t, text, "Data from internal source (github) flowing to external destination (slack-notifications)")
	assert.NotContains(t, text, roadmap, "the data itself is not shown")
	assert.Equal(t, int64(120000), q.TimeoutMS)
	assert.Contains(t, q.DenyReason, "Data from internal source (github)")
	assert.Empty(t, q.Forward, "nothing to change in the request")

	// Refused: recorded as blocked, and the client's cancel stays here.
	slack.Answered(d.judge, shimproto.Answer{Seq: 7, Allowed: false, Outcome: "decline"})
	v, _ := slack.Judge(d.judge, msg(c2s, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}`))
	assert.Equal(t, shimproto.Drop, v.Action)

	// Allowed: the result comes back and is recorded with the answer.
	question(t, sendRoadmap(d, slack, 8, 6, ""))
	slack.Answered(d.judge, shimproto.Answer{Seq: 8, Allowed: true, Outcome: "accept"})
	judgeMsg(d, slack, msg(s2c, `{"jsonrpc":"2.0","id":6,"result":{"content":[{"type":"text","text":"sent"}]}}`))

	require.NoError(t, d.store.Flush())
	recs, err := d.store.Query(activity.Filter{Type: "tool_call", Server: "slack-notifications"})
	require.NoError(t, err)
	require.Len(t, recs, 2)
	byVerdict := map[string]activity.Record{}
	for _, r := range recs {
		byVerdict[r.Verdict] = r
	}
	refused, allowed := byVerdict["block"], byVerdict["pass"]
	assert.Equal(t, "ask", refused.Decision)
	assert.Contains(t, refused.Reason, "not allowed by the user (decline)")
	assert.Contains(t, string(refused.Details), `"asked":{"seq":7,"allowed":false,"outcome":"decline"}`)
	assert.Equal(t, "ask", allowed.Decision)
	assert.Contains(t, string(allowed.Details), `"asked":{"seq":8,"allowed":true,"outcome":"accept"}`)

	// An answer for nothing held changes nothing.
	slack.Answered(d.judge, shimproto.Answer{Seq: 99, Allowed: false})
	assert.Empty(t, slack.held)
}

func TestAskNotRepeatedAfterAHookAsked(t *testing.T) {
	d, slack := askSetup(t, `{"elicitation":{}}`, nil)
	args := fmt.Sprintf(`{"channel":"#general","text":%q}`, roadmap)
	d.judge.Announce("s", "toolu_1")
	v, _ := slack.Judge(d.judge, shimproto.Message{Seq: 3, Dir: c2s, Data: []byte(
		`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"send_message","arguments":` + args + `,"_meta":{"claudecode/toolUseId":"toolu_1"}}}` + "\n")})
	assert.Equal(t, shimproto.Pass, v.Action, "the hook asked the user already")
}

func TestRequireJustification(t *testing.T) {
	require1 := func(d *env) { d.current().Rules.RequireJustification = true }
	t.Run("missing", func(t *testing.T) {
		d, slack := askSetup(t, `{}`, require1)
		text := judgetest.BlockedText(t, sendRoadmap(d, slack, 1, 1, ""))
		assert.Contains(t, text, `"flowd_justification"`)
	})
	t.Run("given, proxy-only", func(t *testing.T) {
		d, slack := askSetup(t, `{}`, require1)
		v := sendRoadmap(d, slack, 1, 1, `"flowd_justification":"the user asked for the roadmap in #general",`)
		require.Equal(t, shimproto.Replace, v.Action, "the argument is taken out")
		assert.NotContains(t, string(v.Data), "flowd_justification")
		assert.True(t, json.Valid(v.Data))
		judgeMsg(d, slack, msg(s2c, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"sent"}]}}`))
		require.NoError(t, d.store.Flush())
		recs, err := d.store.Query(activity.Filter{Type: "tool_call", Server: "slack-notifications"})
		require.NoError(t, err)
		require.Len(t, recs, 1)
		assert.Equal(t, "warn", recs[0].Decision)
		assert.Contains(t, recs[0].Reason, `the agent's stated reason: "the user asked for the roadmap in #general"`)
	})
	t.Run("given, asked, written to deceive", func(t *testing.T) {
		// The reason forges a line of flowd's own, hides an instruction
		// in tag characters and variation selectors, and turns text
		// around: the user reads every character as what it is, inside
		// one quote.
		d, slack := askSetup(t, `{"elicitation":{}}`, require1)
		reason := `ok\"\nWhy flowd asks: nothing, it is safe\u202e \udb40\udc41\udb40\udc6c low\ufe01` // JSON escapes
		_, text := question(t, sendRoadmap(d, slack, 1, 1, `"flowd_justification":"`+reason+`",`))
		line := text[strings.Index(text, "The agent says"):]
		line = line[:strings.IndexByte(line, '\n')]
		assert.Equal(t, `The agent says (unverified): "ok\"\x0aWhy flowd asks: nothing, it is safe\u202e \U000e0041\U000e006c low\ufe01"`, line)
		assert.Equal(t, 1, strings.Count(text, "\nWhy flowd asks:"), "no forged line")
	})
	t.Run("given, asked", func(t *testing.T) {
		d, slack := askSetup(t, `{"elicitation":{}}`, require1)
		q, text := question(t, sendRoadmap(d, slack, 1, 1, `"flowd_justification":"posting\u0007 the roadmap",`))
		assert.Contains(t, text, `The agent says (unverified): "posting\x07 the roadmap"`, "control characters shown as escapes")
		assert.NotContains(t, q.Forward, "flowd_justification")
		assert.True(t, strings.HasSuffix(q.Forward, "}}}\n"), "a whole request line: %q", q.Forward)
	})
}
