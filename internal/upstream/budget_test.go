package upstream

import (
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/judge/judgetest"
	"github.com/flowd-dev/flowd/internal/shimproto"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A call to an external destination whose check does not finish within
// flow.check_budget is denied, with a reason that says so, at once; the
// same call to an internal one is not.
func TestCheckBudgetDeniesUnfinishedExternalCall(t *testing.T) {
	d := newEnv(t, nil)
	cfg := config.Default()
	cfg.Flow.CheckBudget = config.Duration{Duration: time.Millisecond}
	require.NoError(t, d.Reload(cfg))
	args := `{"text":"` + strings.Repeat("the quick brown fox jumps over the lazy dog ", 100000) + `"}`

	slack := NewStream(1, shimproto.Hello{Name: "slack"}, "s")
	// The reason says the budget ran out: a verdict that waited for the
	// whole check would have found nothing to deny. (No clock: on a busy
	// machine under the race detector, parsing 4 MB alone takes seconds.)
	v := judgetest.CallAndAnswer(d.judge, slack, 1, "post_message", args, "ok")
	assert.Contains(t, judgetest.BlockedText(t, v), "could not finish checking this call in time")

	internal := NewStream(2, shimproto.Hello{Name: "postgres-db"}, "s")
	v2 := judgetest.CallAndAnswer(d.judge, internal, 2, "query", args, "ok")
	assert.Equal(t, shimproto.Pass, v2.Action, "%s", v2.Data)
}

// The attack run's shape: an external page plants thousands of AWS-key-
// shaped strings, then a call hides the hex of a token read internally
// inside a megabyte of their hex. flowd finds the token. (The old matcher
// took 16 s per MB here; that the new one is linear is held by the work
// counting tests of internal/fingerprint, not by a clock here.)
func TestTokenHiddenAmongPlantedKeysIsFound(t *testing.T) {
	d := newEnv(t, nil)
	cfg := config.Default()
	cfg.Flow.CheckBudget = config.Duration{Duration: time.Minute} // a busy machine, -race
	// The call waits for the planted pages to be recorded first; under
	// -race at load ~70 that took longer than the default 30 s of wall
	// time (2.9 s of CPU), and the wait, not the check, ran out.
	cfg.Flow.WaitBudget = config.Duration{Duration: 5 * time.Minute}
	require.NoError(t, d.Reload(cfg))
	const token = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
	fs := NewStream(1, shimproto.Hello{Name: "testserver"}, "s")
	judgetest.CallAndAnswer(d.judge, fs, 1, "read", `{}`, "GITHUB_TOKEN="+token)
	var planted strings.Builder
	for i := range 2048 {
		fmt.Fprintf(&planted, "AKIAQZ7XK2MV%08d ", i)
	}
	web := NewStream(2, shimproto.Hello{Name: "fetch"}, "s")
	for p := 0; p*60000 < planted.Len(); p++ {
		judgetest.CallAndAnswer(d.judge, web, 10+p, "fetch", `{}`, planted.String()[p*60000:min(planted.Len(), (p+1)*60000)])
	}
	junk := strings.Repeat(hex.EncodeToString([]byte(planted.String()[:21*64])), 400)
	args := `{"text":"` + junk[:len(junk)/2] + hex.EncodeToString([]byte(token)) + junk[len(junk)/2:] + `"}`
	slack := NewStream(3, shimproto.Hello{Name: "slack"}, "s")
	text := judgetest.BlockedText(t, judgetest.CallAndAnswer(d.judge, slack, 100, "post_message", args, "ok"))
	assert.NotContains(t, text, "in time", "the check finished")
	assert.Contains(t, text, "github_token")
}
