package judge

import (
	"bytes"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/policy"
)

const waitToken = "ghp_Zq8Lm2Nx4Rt6Vw8Yb0Cd2Ef4Gh6Jk8Mp0Qs2"

// A call that waited long for its turn, behind other messages, and for
// the session's earlier results, which were still being recorded when it
// arrived, is not denied for its check budget when its own check is fast:
// the budget counts the check's work, not the waits. It is matched
// against the result it waited for.
func TestWaitForOthersDoesNotSpendTheCheckBudget(t *testing.T) {
	cfg := config.Default()
	cfg.Flow.CheckBudget = config.Duration{Duration: 2 * time.Second}
	cfg.Flow.WaitBudget = config.Duration{Duration: time.Hour}
	j, err := New(cfg, Stores{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NoError(t, err)
	s := j.Flows.Session("s")
	s.Begin() // a result on its way, recorded only after the call arrived

	external := classify.Result{Class: classify.External, CanExfiltrate: true}
	var out Outcome
	var wg sync.WaitGroup
	wg.Go(func() {
		// It arrived well over a check budget ago: its turn came late.
		j.Call(Call{Session: "s", Server: "slack", Tool: "post_message", Class: external,
			Args: []byte(`{"text":"` + waitToken + `"}`), Received: time.Now().Add(-10 * time.Second)}, &out)
	})
	s.Record(flow.Origin{Server: "files", Tool: "read", Class: classify.Internal},
		[]byte(`{"content":[{"type":"text","text":"GITHUB_TOKEN=`+waitToken+`"}]}`))
	wg.Wait()

	assert.False(t, out.Analysis.Unfinished, "the check finished")
	assert.Equal(t, policy.Deny, out.Decision.Action)
	assert.NotContains(t, []string{policy.UnfinishedRule, policy.OverdueRule}, out.Decision.Rule, out.Decision.Reason)
	require.NotEmpty(t, out.Analysis.Edges, "matched against the result it waited for")
	assert.Equal(t, "files", out.Analysis.Edges[0].From.Server)
}

// A wait for the session's earlier results that never ends still ends,
// at flow.wait_budget from the call's arrival, in the configured outcome:
// a call that could send data out is denied (rule flow.wait_budget), one
// to an internal destination keeps the policy's decision; both logged and
// marked unfinished.
func TestWaitThatNeverEndsEndsInTheConfiguredOutcome(t *testing.T) {
	cfg := config.Default()
	cfg.Flow.WaitBudget = config.Duration{Duration: 50 * time.Millisecond}
	cfg.Flow.CheckBudget = config.Duration{Duration: time.Hour} // the wait, not the check, runs out
	var log syncBuffer
	j, err := New(cfg, Stores{}, slog.New(slog.NewTextHandler(&log, nil)))
	require.NoError(t, err)
	j.Flows.Session("s").Begin() // never recorded

	var out Outcome
	start := time.Now()
	later := j.Call(Call{Session: "s", Server: "slack", Tool: "post_message",
		Class: classify.Result{Class: classify.External, CanExfiltrate: true}, Args: []byte(`{"text":"hello"}`)}, &out)
	assert.Nil(t, later)
	assert.Less(t, time.Since(start), time.Minute, "bounded by flow.wait_budget, not by the check budget")
	assert.Equal(t, policy.Deny, out.Decision.Action)
	assert.Equal(t, policy.OverdueRule, out.Decision.Rule)
	assert.Contains(t, out.Decision.Reason, "flow.wait_budget")
	assert.True(t, out.Analysis.Unfinished && out.Analysis.Overdue)
	assert.Contains(t, log.String(), "flow.wait_budget")

	var in Outcome
	done := make(chan struct{})
	go func() {
		defer close(done)
		if later := j.Call(Call{Session: "s", Server: "db", Tool: "query",
			Class: classify.Result{Class: classify.Internal}, Args: []byte(`{"sql":"select 1"}`)}, &in); later != nil {
			later() // the check for the log, which waits too
		}
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("the check of a call to an internal destination still waits for a result that is never recorded")
	}
	assert.Equal(t, policy.Allow, in.Decision.Action, in.Decision.Reason)
	assert.True(t, in.Analysis.Overdue, "the log says the check did not finish")
}

// syncBuffer is a log sink that may be written by the goroutine a check
// runs on while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A message of the protocol's own (a ping, a listing) is let through when
// its check is cut short, or client and server stop talking under load;
// but it is one by its method's name alone. Cut short, its params are
// still read for secrets by their form, and a large one does not pass.
func TestOverdueLifecycleMessageIsStillReadForSecrets(t *testing.T) {
	cfg := config.Default()
	cfg.Flow.WaitBudget = config.Duration{Duration: time.Nanosecond} // stands for a long queue ahead of it
	j, err := New(cfg, Stores{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NoError(t, err)
	external := classify.Result{Class: classify.External, CanExfiltrate: true}
	for _, c := range []struct {
		name, args string
		want       policy.Action
		rule       string
	}{
		{"a plain ping passes", `{}`, policy.Allow, ""},
		{"a listing's cursor passes", `{"cursor":"eyJwYWdlIjoyfQ=="}`, policy.Allow, ""},
		{"a token in _meta", `{"_meta":{"note":"` + waitToken + `"}}`, policy.Deny, "sensitive_data_external"},
		{"a token as the cursor", `{"cursor":"` + waitToken + `"}`, policy.Deny, "sensitive_data_external"},
		{"params too large to read whole", `{"_meta":{"note":"` + strings.Repeat("lorem ipsum ", 2000) + `"}}`, policy.Deny, policy.OverdueRule},
	} {
		for _, method := range []string{"ping", "tools/list", "notifications/initialized"} {
			var out Outcome
			if later := j.Call(Call{Session: "s", Server: "paste", Tool: method, Message: true, Lifecycle: true, Class: external,
				Args: []byte(c.args), Received: time.Now().Add(-time.Second), Bounded: true}, &out); later != nil {
				later()
			}
			require.True(t, out.Analysis.Unfinished, "%s, %s: the check is cut short", c.name, method)
			assert.Equal(t, c.want, out.Decision.Action, "%s, %s: %s", c.name, method, out.Decision.Reason)
			if c.rule != "" {
				assert.Equal(t, c.rule, out.Decision.Rule, "%s, %s", c.name, method)
			}
		}
	}
}
