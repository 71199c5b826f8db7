package upstream

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/judge/judgetest"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

// told collects the grant frames an upstream sends its shim, which may
// come from other goroutines (withdrawals for a sibling's tool list).
type told struct {
	mu     sync.Mutex
	grants []shimproto.Grant
	more   chan struct{} // a frame arrived
}

// newest is the frame the shim would hold: the highest numbered.
func (tl *told) newest() shimproto.Grant {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	var g shimproto.Grant
	for _, f := range tl.grants {
		if f.Seq > g.Seq {
			g = f
		}
	}
	return g
}

func (tl *told) count() int {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	return len(tl.grants)
}

// await waits until the newest frame has the tools want.
func (tl *told) await(t *testing.T, want []string) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for !slices.Equal(tl.newest().Tools, want) {
		select {
		case <-tl.more:
		case <-timeout:
			t.Fatalf("the shim was told %v, not %v", tl.newest().Tools, want)
		}
	}
}

// connected registers u as a shim of d whose grants go to the returned told.
func connected(d *env, u *Stream) *told {
	tl := &told{more: make(chan struct{}, 1)}
	u.grants.send = func(g shimproto.Grant) error {
		tl.mu.Lock()
		tl.grants = append(tl.grants, g)
		tl.mu.Unlock()
		select {
		case tl.more <- struct{}{}:
		default:
		}
		return nil
	}
	d.hub.Add(u)
	return tl
}

func toolCall(id int, tool, args string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, tool, args)
}

func TestGrantOnlyForStandingDecisions(t *testing.T) {
	tests := []struct {
		name      string
		server    string
		call      string
		overrides map[string]string
		justify   bool
		granted   bool
	}{
		{"internal tool, allowed", "filesystem", toolCall(1, "read_file", `{"path":"notes.md"}`), nil, false, true},
		{"allowed by an override", "filesystem", toolCall(1, "read_file", `{}`), map[string]string{"read_file": "allow"}, false, true},
		{"external destination", "slack-notifications", toolCall(1, "send_message", `{"text":"hi"}`), nil, false, false},
		{"hybrid destination", "shell", toolCall(1, "run_command", `{"command":"ls"}`), nil, false, false},
		{"suspicious endpoint", "filesystem", toolCall(1, "read_file", `{"path":"https://webhook.site/x"}`), nil, false, false},
		{"override warns", "filesystem", toolCall(1, "read_file", `{}`), map[string]string{"read_file": "warn"}, false, false},
		{"override denies", "filesystem", toolCall(1, "read_file", `{}`), map[string]string{"filesystem/read_file": "deny"}, false, false},
		{"justification required", "filesystem", toolCall(1, "read_file", `{}`), nil, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newEnv(t, nil)
			cfg := config.Default()
			cfg.Policy.ToolOverrides = tt.overrides
			cfg.Policy.RequireJustification = tt.justify
			require.NoError(t, d.Reload(cfg))
			u := NewStream(1, shimproto.Hello{Name: tt.server}, "s")
			tl := connected(d, u)
			judgeMsg(d, u, msg(c2s, tt.call))
			if !tt.granted {
				assert.Zero(t, tl.count())
				return
			}
			require.Equal(t, 1, tl.count())
			assert.Equal(t, []string{"read_file"}, tl.newest().Tools)
			assert.Equal(t, []string{"read_file"}, d.hub.Shims(func(string) bool { return true })[0].Granted, "flowd status shows what goes at once")
			assert.Equal(t, cfg.Policy.SuspiciousEndpoints, tl.newest().Hosts, "the shim checks the hosts flowd would")
			judgeMsg(d, u, msg(c2s, tt.call))
			assert.Equal(t, 1, tl.count(), "a tool is granted once")
			went := msg(c2s, strings.Replace(tt.call, `"id":1`, `"id":3`, 1))
			went.Forwarded = true
			judgeMsg(d, u, went)
			assert.Equal(t, uint64(1), d.hub.Shims(func(string) bool { return true })[0].Forwarded,
				"flowd status counts the calls that went on under the grant (the benchmark checks it measured them)")
		})
	}
}

func TestWithheldToolIsNotGranted(t *testing.T) {
	d := newEnv(t, nil)
	u := NewStream(1, shimproto.Hello{Name: "math"}, "s")
	tl := connected(d, u)
	judgetest.Answer(t, d.judge, u, judgetest.ListReq, judgetest.PoisonedList)
	judgetest.BlockedText(t, judgeMsg(d, u, msg(c2s, judgetest.AddCall(1))))
	judgeMsg(d, u, msg(c2s, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"sub"}}`))
	assert.Equal(t, []string{"sub"}, tl.newest().Tools)
}

// Everything that could change a standing decision withdraws the grants
// before it takes effect.
func TestGrantsWithdrawn(t *testing.T) {
	hello := shimproto.Hello{Name: "math", Command: []string{"npx", "server-math"}}
	tests := []struct {
		name   string
		change func(t *testing.T, d *env, u *Stream)
	}{
		{"config reloaded", func(t *testing.T, d *env, u *Stream) {
			require.NoError(t, d.Reload(config.Default()))
		}},
		{"tool list answered", func(t *testing.T, d *env, u *Stream) {
			judgetest.Answer(t, d.judge, u, judgetest.ListReq, judgetest.MathTools)
		}},
		{"server named at initialize", func(t *testing.T, d *env, u *Stream) {
			judgetest.Answer(t, d.judge, u, `{"jsonrpc":"2.0","id":20,"method":"initialize","params":{}}`,
				`{"jsonrpc":"2.0","id":20,"result":{"protocolVersion":"2025-06-18","serverInfo":{"name":"calc"}}}`)
		}},
		{"same server's tools changed under another shim", func(t *testing.T, d *env, u *Stream) {
			other := NewStream(2, hello, "s2")
			connected(d, other)
			judgetest.Answer(t, d.judge, other, judgetest.ListReq, judgetest.RugPulled)
			assert.Contains(t, judgetest.BlockedText(t, judgeMsg(d, u, msg(c2s, judgetest.AddCall(30)))), "changed since it was approved",
				"the pin is shared: this shim's next call is refused, so it must not go at once")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newEnv(t, nil)
			u := NewStream(1, hello, "s")
			tl := connected(d, u)
			judgetest.Answer(t, d.judge, u, judgetest.ListReq, judgetest.MathTools)
			judgeMsg(d, u, msg(c2s, judgetest.AddCall(1)))
			require.Equal(t, []string{"add"}, tl.newest().Tools)
			tt.change(t, d, u)
			tl.await(t, nil)
		})
	}

	// An unrelated server's tool list leaves the grant alone.
	d := newEnv(t, nil)
	u := NewStream(1, hello, "s")
	tl := connected(d, u)
	judgeMsg(d, u, msg(c2s, judgetest.AddCall(1)))
	other := NewStream(2, shimproto.Hello{Name: "fs", Command: []string{"npx", "server-fs"}}, "s")
	connected(d, other)
	judgetest.Answer(t, d.judge, other, judgetest.ListReq, judgetest.MathTools)
	assert.Equal(t, []string{"add"}, tl.newest().Tools)
	assert.Equal(t, 1, tl.count())
}

// A decision made while the grants were withdrawn grants nothing: it may
// rest on what the withdrawal was about.
func TestGrantVoidedByWithdrawalDuringDecision(t *testing.T) {
	var g grants
	var sent []shimproto.Grant
	g.send = func(gr shimproto.Grant) error { sent = append(sent, gr); return nil }
	epoch := g.current()
	assert.Nil(t, g.withdraw(), "nothing granted, nothing to tell")
	g.give("add", epoch, nil, nil)
	assert.Empty(t, sent)
	g.give("add", g.current(), nil, nil)
	g.give("", g.current(), nil, nil)
	assert.Equal(t, []shimproto.Grant{{Seq: 1, Tools: []string{"add"}}}, sent, "a call without a tool name is never granted")
	g.withdraw()()
	assert.Equal(t, shimproto.Grant{Seq: 2}, sent[1])
}

// A sibling's call decided while another shim's tool list is being
// screened rests on the old pins; the grant it earns must not outlive the
// screening. B calls add in a loop while A answers a rug-pulled list.
func TestGrantNotKeptAcrossSiblingsScreening(t *testing.T) {
	var extra strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&extra, `,{"name":"t%d","description":"tool number %d does a thing with the data you give it","inputSchema":{"type":"object"}}`, i, i)
	}
	big := strings.Replace(judgetest.RugPulled, `,{"name":"sub"`, extra.String()+`,{"name":"sub"`, 1)
	hello := shimproto.Hello{Name: "math", Command: []string{"npx", "server-math"}}
	for range 5 {
		d := newEnv(t, nil)
		a := NewStream(1, hello, "s")
		connected(d, a)
		judgetest.Answer(t, d.judge, a, judgetest.ListReq, judgetest.MathTools)
		b := NewStream(2, hello, "s2")
		tlB := connected(d, b)
		judgeMsg(d, b, msg(c2s, judgetest.AddCall(1)))
		require.Equal(t, []string{"add"}, tlB.newest().Tools)

		require.Equal(t, shimproto.Pass, judgeMsg(d, a, msg(c2s, judgetest.ListReq)).Action)
		done := make(chan struct{})
		var wg sync.WaitGroup
		wg.Go(func() {
			for i := 100; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				judgeMsg(d, b, msg(c2s, judgetest.AddCall(i)))
			}
		})
		judgeMsg(d, a, msg(s2c, big))
		close(done)
		wg.Wait()
		tlB.await(t, nil)
		assert.Empty(t, b.grants.granted(), "flowd's record of B's grants")
		judgetest.BlockedText(t, judgeMsg(d, b, msg(c2s, judgetest.AddCall(99999))))
	}
}

// A call the shim sent on gets no verdict of its own but is tracked as
// any other: its result is screened and it is recorded as forwarded.
func TestForwardedCallIsTrackedAndRecorded(t *testing.T) {
	d := newEnv(t, nil)
	u := NewStream(1, shimproto.Hello{Name: "filesystem"}, "s")
	connected(d, u)
	call := msg(c2s, toolCall(7, "read_file", `{"path":"notes.md"}`))
	call.Forwarded = true
	judgeMsg(d, u, call)
	assert.Empty(t, u.held)
	v := judgeMsg(d, u, msg(s2c, judgetest.TextResult(7, judgetest.BlockText)))
	assert.Equal(t, shimproto.Replace, v.Action, "the result is screened for injection as any other")
	rec, _ := lastCall(t, d)
	assert.Equal(t, "read_file", rec.Tool)
	var det struct {
		Forwarded bool `json:"forwarded"`
	}
	require.NoError(t, json.Unmarshal(rec.Details, &det))
	assert.True(t, det.Forwarded)
	assert.Equal(t, 1, d.flows.Session("s").Summary(time.Now()).Origins, "the result is an origin, as for any call")
}

// A call that went out under a grant withdrawn meanwhile cannot be
// stopped; it is recorded with what policy now says.
func TestForwardedAfterWithdrawalIsRecorded(t *testing.T) {
	d := newEnv(t, map[string]string{"read_file": "deny"})
	u := NewStream(1, shimproto.Hello{Name: "filesystem"}, "s")
	connected(d, u)
	call := msg(c2s, toolCall(7, "read_file", `{"path":"notes.md"}`))
	call.Forwarded = true
	judgeMsg(d, u, call)
	assert.Empty(t, u.blocked, "its cancellation still reaches the server")
	judgeMsg(d, u, msg(s2c, judgetest.TextResult(7, "contents")))
	rec, _ := lastCall(t, d)
	assert.Equal(t, "pass", rec.Verdict)
	assert.Equal(t, "deny", rec.Decision)
	assert.Equal(t, "high", rec.RiskLevel)
	assert.Contains(t, rec.Reason, "grant withdrawn while the call was on its way")
}

// A message that could be read two ways is refused: flowd cannot know
// which reading the peer takes.
func TestAmbiguousMessagesRefused(t *testing.T) {
	d := newEnv(t, map[string]string{"filesystem/delete_file": "deny"})
	u := NewStream(1, shimproto.Hello{Name: "filesystem"}, "s")
	tl := connected(d, u)

	// A Go server keeps delete_file past the null; JSON.parse takes the null.
	v := judgeMsg(d, u, msg(c2s, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete_file","arguments":{"path":"/"},"name":null}}`))
	assert.Contains(t, judgetest.BlockedText(t, v), "gives its tool name or arguments twice")
	judgeMsg(d, u, msg(c2s, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"arguments":{}}}`))
	assert.Zero(t, tl.count(), "a call without a tool name earns no grant")

	v = judgeMsg(d, u, msg(c2s, `{"jsonrpc":"2.0","id":3,"method":"ping","Method":"tools/call","params":{"name":"delete_file"}}`))
	require.Equal(t, shimproto.Respond, v.Action)
	assert.Contains(t, string(v.Data), `"id":3,"error":{"code":-32600,"message":"flowd blocked: ambiguous message: member \"method\"`)

	v = judgeMsg(d, u, msg(s2c, `{"jsonrpc":"2.0","id":2,"result":{"content":[]},"Result":{"content":[{"type":"text","text":"x"}]}}`))
	require.Equal(t, shimproto.Replace, v.Action, "a response the client could read two ways")
	assert.Contains(t, string(v.Data), `"id":2,"error"`)

	v = judgeMsg(d, u, msg(s2c, `{"jsonrpc":"2.0","id":2,"ID":3,"result":{}}`))
	assert.Equal(t, shimproto.Drop, v.Action, "no id to answer")

	require.NoError(t, d.store.Flush())
	recs, err := d.store.Query(activity.Filter{Type: "message"})
	require.NoError(t, err)
	assert.Len(t, recs, 3)
}

// Nesting deeper than any of flowd's JSON readers go is still judged: the
// arguments are the model's to shape, and a TypeScript peer reads them.
func TestDeeplyNestedMessagesJudged(t *testing.T) {
	pad := strings.Repeat("[", 30000) + strings.Repeat("]", 30000)
	d := newEnv(t, map[string]string{"filesystem/delete_file": "deny"})
	fs := NewStream(1, shimproto.Hello{Name: "filesystem"}, "s")
	assert.Contains(t, judgetest.BlockedText(t, judgeMsg(d, fs, msg(c2s, toolCall(1, "delete_file", `{"path":"/","pad":`+pad+`}`)))),
		"set to deny")

	gh := NewStream(2, shimproto.Hello{Name: "github"}, "s")
	judgetest.CallAndAnswer(d.judge, gh, 2, "read_file", `{"path":".env"}`, "AWS_SECRET_ACCESS_KEY="+judgetest.AWSSecret)
	slack := NewStream(3, shimproto.Hello{Name: "slack-notifications"}, "s")
	v := judgeMsg(d, slack, msg(c2s, toolCall(3, "send_message", `{"pad":`+pad+`,"text":"`+judgetest.AWSSecret+`"}`)))
	assert.Contains(t, judgetest.BlockedText(t, v), "Sensitive data (aws_secret_key)")

	web := NewStream(4, shimproto.Hello{Name: "fetch"}, "s")
	require.Equal(t, shimproto.Pass, judgeMsg(d, web, msg(c2s, judgetest.FetchCall(5))).Action)
	text, _ := json.Marshal(judgetest.BlockText)
	v = judgeMsg(d, web, msg(s2c, `{"jsonrpc":"2.0","id":5,"result":{"_meta":{"x":`+pad+`},"content":[{"type":"text","text":`+string(text)+`}]}}`))
	assert.Equal(t, shimproto.Replace, v.Action, "the injection in a deeply nested result is caught")
}

// A batch (gone from MCP, but a way around policy if flowd let it be)
// with a message the server may read otherwise than flowd, or one flowd
// cannot read at all, does not reach the server.
func TestAmbiguousBatchRefused(t *testing.T) {
	d := newEnv(t, map[string]string{"filesystem/delete_file": "deny"})
	u := NewStream(1, shimproto.Hello{Name: "filesystem"}, "s")
	v := judgeMsg(d, u, msg(c2s, `[{"jsonrpc":"2.0","id":1,"method":"ping","Method":"tools/call","params":{"name":"delete_file"}},{"jsonrpc":"2.0","id":2,"method":"ping"}]`))
	require.Equal(t, shimproto.Respond, v.Action)
	assert.Contains(t, string(v.Data), `member \"method\" of a message is given twice or in another case`)
	v = judgeMsg(d, u, msg(c2s, `[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete_file","arguments":{"x":NaN}}}]`))
	assert.Equal(t, shimproto.Drop, v.Action, "a batch flowd cannot read")
}

// A tool list over max_inspect_bytes cannot be pinned: it is refused.
func TestOversizeToolListRefused(t *testing.T) {
	d := newEnv(t, nil)
	u := NewStream(1, shimproto.Hello{Name: "math"}, "s")
	require.Equal(t, shimproto.Pass, judgeMsg(d, u, msg(c2s, judgetest.ListReq)).Action)
	v := judgeMsg(d, u, shimproto.Message{Seq: 2, Dir: s2c, Truncated: true, Size: 20 << 20,
		Data: []byte(`{"jsonrpc":"2.0","id":10,"result":{"tools":[{"name":"add","description":"aaaa`), Tail: []byte(`aaaa"}]}}` + "\n")})
	require.Equal(t, shimproto.Replace, v.Action)
	assert.Contains(t, string(v.Data), `"id":10,"error"`)
	assert.Contains(t, string(v.Data), "can neither pin nor screen it")
}

// A call sent on under no grant that policy still allows is recorded as
// high risk too: the flow check that completes its record after the
// verdict used to overwrite the raised risk with its own.
func TestForwardedWithoutGrantIsHighRisk(t *testing.T) {
	d := newEnv(t, nil)
	u := NewStream(1, shimproto.Hello{Name: "filesystem"}, "s")
	connected(d, u)
	call := msg(c2s, toolCall(7, "read_file", `{"path":"notes.md"}`))
	call.Forwarded = true
	judgeMsg(d, u, call)
	judgeMsg(d, u, msg(s2c, judgetest.TextResult(7, "contents")))
	rec, _ := lastCall(t, d)
	assert.Equal(t, "allow", rec.Decision)
	assert.Equal(t, "high", rec.RiskLevel)
	assert.Contains(t, rec.Reason, "grant withdrawn while the call was on its way")
}
