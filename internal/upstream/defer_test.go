package upstream

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/policy"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

// Policy reads the flow analysis only for destinations that can send data
// out, so a call to an internal server gets its verdict before the flow
// check, which then runs for the log; a call to an external server waits
// for it, and for every result it might copy.
func TestOnlyExternalCallsWaitForTheFlowCheck(t *testing.T) {
	d := newEnv(t, nil)
	sess := d.flows.Session("s")
	sess.Begin() // a result announced, not yet recorded: flow checks wait for it

	fs := NewStream(1, shimproto.Hello{Name: "filesystem"}, "s")
	type judged struct {
		v     shimproto.Verdict
		after func()
	}
	internal := make(chan judged, 1)
	go func() {
		v, after := fs.Judge(d.judge, msg(c2s, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"notes.md","content":"the quarterly numbers for the board, not to be shared"}}}`))
		internal <- judged{v, after}
	}()
	var in judged
	select {
	case in = <-internal:
	case <-time.After(10 * time.Second):
		t.Fatal("the verdict of a call to an internal server waited for a pending result")
	}
	assert.Equal(t, shimproto.Pass, in.v.Action)
	require.NotNil(t, in.after, "the flow check of the internal call is left for after the verdict")

	slack := NewStream(2, shimproto.Hello{Name: "slack"}, "s")
	external := make(chan shimproto.Verdict, 1)
	go func() {
		v, after := slack.Judge(d.judge, msg(c2s, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"send_message","arguments":{"channel":"#general","text":"the quarterly numbers for the board, not to be shared"}}}`))
		if after != nil {
			after()
		}
		external <- v
	}()
	select {
	case <-external:
		t.Fatal("the verdict of a call to an external server did not wait for the pending result")
	case <-time.After(50 * time.Millisecond): // proving a negative: nothing to wait on but time
	}
	sess.Record(flow.Origin{Server: "vault", Tool: "read", Class: classify.Internal},
		[]byte(`{"text":"the quarterly numbers for the board, not to be shared"}`))
	<-external
	out := slack.calls[`2`]
	require.NotNil(t, out)
	assert.Equal(t, "internal→external", out.Analysis.FlowType, "the copy of the recorded result is traced")
	assert.Equal(t, policy.Warn, out.Decision.Action, "ask, degraded to warn without hooks")

	in.after()
	c := fs.calls[`1`]
	require.NotNil(t, c)
	assert.Equal(t, "internal→internal", c.Analysis.FlowType, "the deferred check still analysed the internal call")
}

// A result's verdict comes before its activity record and its recording
// as an origin: the result is not held up for the log. Both follow once
// the work after the verdict has run, dated and timed as of the verdict.
func TestResultVerdictComesBeforeItsRecord(t *testing.T) {
	d := newEnv(t, nil)
	u := NewStream(1, shimproto.Hello{Name: "filesystem"}, "s")
	start := time.Now()
	judgeMsg(d, u, msg(c2s, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"notes.md"}}}`))
	v, after := u.Judge(d.judge, msg(s2c, `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"the quarterly numbers for the board"}]}}`))
	assert.Equal(t, shimproto.Pass, v.Action)
	require.NotNil(t, after)

	require.NoError(t, d.store.Flush())
	recs, err := d.store.Query(activity.Filter{Type: "tool_call"})
	require.NoError(t, err)
	assert.Empty(t, recs, "the call was logged before its result's verdict went out")

	judged := time.Now()
	time.Sleep(20 * time.Millisecond) // a gap before the record is written, as in a busy background queue
	after()
	require.NoError(t, d.store.Flush())
	recs, err = d.store.Query(activity.Filter{Type: "tool_call"})
	require.NoError(t, err)
	require.Len(t, recs, 1)
	assert.False(t, recs[0].Time.After(judged), "the record is dated when the result was judged, not when it was written")
	assert.LessOrEqual(t, recs[0].LatencyMicros, judged.Sub(start).Microseconds(), "the call's latency leaves out the wait before the record is written")
	assert.Equal(t, "read_file", recs[0].Tool)
	assert.Equal(t, "pass", recs[0].Verdict)
	assert.Equal(t, 1, d.flows.Session("s").Summary(time.Now()).Origins, "the result became an origin")
}
