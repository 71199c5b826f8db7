package daemon

import (
	"strings"
	"testing"
	"time"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/shimproto"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A call to an external destination whose check does not finish within
// flow.check_budget is denied, with a reason that says so, before the
// shim's verdict_timeout; the same call to an internal one is not.
func TestCheckBudgetDeniesUnfinishedExternalCall(t *testing.T) {
	d := testDaemon(t, nil)
	cfg := config.Default()
	cfg.Flow.CheckBudget = config.Duration{Duration: time.Millisecond}
	require.NoError(t, d.Reload(cfg))
	args := `{"text":"` + strings.Repeat("the quick brown fox jumps over the lazy dog ", 100000) + `"}`

	slack := newUpstream(1, shimproto.Hello{Name: "slack"}, "s")
	start := time.Now()
	v := callAndAnswer(d, slack, 1, "post_message", args, "ok")
	took := time.Since(start)
	assert.Contains(t, blockedText(t, v), "could not finish checking this call in time")
	assert.Less(t, took, cfg.Shim.VerdictTimeout.Duration, "the verdict comes before the shim gives up")

	internal := newUpstream(2, shimproto.Hello{Name: "testserver"}, "s")
	assert.Equal(t, shimproto.Pass, callAndAnswer(d, internal, 2, "echo", args, "ok").Action)
}
