//go:build redteam6

package judge

import (
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/policy"
)

// RT6-5. A message of the protocol's own (ping, initialize, a listing)
// that flowd could not check in time is let through: "Lifecycle" exempts
// it from the deny an unfinished check gets. Whether a message is one is
// its method name, so a ping or a tools/list whose params carry a raw
// token, queued behind other messages past flow.wait_budget, reaches an
// external server unchecked: the wait bound is passed before the check
// starts, so not even the token's shape is looked at. Here the wait budget
// is made tiny to stand for the queue. Safe outcome: denied, as a
// tools/call is.
func TestRT6OverdueLifecycleMessageCarriesAToken(t *testing.T) {
	cfg := config.Default()
	cfg.Flow.WaitBudget = config.Duration{Duration: time.Nanosecond}
	j, err := New(cfg, Stores{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NoError(t, err)
	external := classify.Result{Class: classify.External, CanExfiltrate: true}
	args := []byte(`{"_meta":{"note":"ghp_Zq8Lm2Nx4Rt6Vw8Yb0Cd2Ef4Gh6Jk8Mp0Qs2"}}`)
	for _, method := range []string{"ping", "tools/list", "notifications/initialized"} {
		var out Outcome
		if later := j.Call(Call{Session: "s", Server: "paste", Tool: method, Message: true, Lifecycle: true, Class: external,
			Args: args, Received: time.Now().Add(-time.Second), Bounded: true}, &out); later != nil {
			later()
		}
		if out.Decision.Action != policy.Deny {
			t.Errorf("%s carrying a token, overdue: %s (%s)", method, out.Decision.Action, out.Decision.Reason)
		}
	}
}
