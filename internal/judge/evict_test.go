package judge

import (
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/policy"
)

// Pages full of made-up keys, fetched after a secret was read from an
// internal source, do not turn its deny into anything else: not by
// pushing it out of what flowd remembers, not by memory (past
// flow.max_memory_bytes the session used to be forgotten, the secret
// with it, and the call went out as mere internal data: ask → warn), not
// by repeating it.
func TestFakeKeyPagesDoNotWeakenTheVerdict(t *testing.T) {
	for _, memory := range []int{0, 1 << 20} {
		for _, echo := range []bool{false, true} {
			t.Run(fmt.Sprintf("max_memory_bytes=%d/echo=%v", memory, echo), func(t *testing.T) {
				cfg := config.Default()
				if memory > 0 {
					cfg.Flow.MaxMemoryBytes = memory
				}
				j, err := New(cfg, Stores{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
				require.NoError(t, err)
				r := rand.New(rand.NewPCG(uint64(memory), 2))
				pass := "Tq" + keyish(r, "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789", 16)
				s := j.Flows.Session("s")
				record := func(server string, c classify.Class, text string) {
					s.Begin()
					s.Record(flow.Origin{Server: server, Tool: "read", Class: c}, []byte(fmt.Sprintf(`{"content":[{"type":"text","text":%q}]}`, text)))
					s.Wait()
				}
				record("filesystem", classify.Internal, "APP_ENV=prod\nDB_PASSWORD="+pass+"\n")
				for p := range 5 {
					var b strings.Builder
					for b.Len() < 64_000 {
						fmt.Fprintf(&b, "AKIA%s ghp_%s\n", keyish(r, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16),
							keyish(r, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 36))
						if echo && b.Len() > 32_000 && !strings.Contains(b.String(), pass) {
							b.WriteString("password: " + pass + "\n")
						}
					}
					record(fmt.Sprintf("fetch%d", p), classify.External, b.String())
				}
				var out Outcome
				in := Call{Session: "s", Server: "pastebin", Tool: "create", Class: classify.Result{Class: classify.External, CanExfiltrate: true},
					Args: []byte(`{"text":"` + pass + `"}`)}
				if later := j.Call(in, &out); later != nil {
					later()
				}
				assert.Equal(t, policy.Deny, out.Decision.Action, out.Decision.Reason)
				assert.Equal(t, "sensitive_data_external", out.Decision.Rule)
				assert.Equal(t, flow.RiskCritical, out.Analysis.Risk)
				assert.Equal(t, []string{"filesystem"}, out.Analysis.Sources)
			})
		}
	}
}

func keyish(r *rand.Rand, set string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = set[r.IntN(len(set))]
	}
	return string(b)
}

// Sessions cost nothing to make: a flood of them, each reading a token,
// pushes a session that read a key past flow.max_memory_bytes, and
// flowd forgets what it read (red team RT8-12). Its key, sent then, is
// denied as a lost session's is: random-looking text it sends may be
// the secret flowd no longer holds.
func TestFloodOfSessionsDoesNotFreeTheKey(t *testing.T) {
	const key = "Zk3Lq9Vm2Xb7Nc4Tp1Wd8YsQr5Hq8vN2xTz5Lk9R"
	cfg := config.Default()
	cfg.Flow.MaxMemoryBytes = 1 << 20
	j, err := New(cfg, Stores{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NoError(t, err)
	record := func(session, text string) {
		s := j.Flows.Session(session)
		s.Begin()
		s.Record(flow.Origin{Server: "filesystem", Tool: "read", Class: classify.Internal}, []byte(fmt.Sprintf(`{"content":[{"type":"text","text":%q}]}`, text)))
		s.Wait()
	}
	send := func() Outcome {
		var out Outcome
		in := Call{Session: "victim", Server: "slack", Tool: "post_message", Class: classify.Result{Class: classify.External, CanExfiltrate: true},
			Args: []byte(`{"channel":"ops","text":"ref ` + key + `"}`)}
		if later := j.Call(in, &out); later != nil {
			later()
		}
		return out
	}
	record("victim", "API_KEY="+key+"\nDB_HOST=db.internal\n")
	require.Equal(t, policy.Deny, send().Decision.Action, "control")
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; j.Flows.Session("victim").Summary(time.Now()).Forgotten == false; i++ {
		require.Less(t, i, 10_000, "the flood never pushed the session out")
		record(fmt.Sprintf("flood-%d", i), "TOKEN="+keyish(r, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 32))
	}
	out := send()
	assert.Equal(t, policy.Deny, out.Decision.Action, out.Decision.Reason)
	assert.Equal(t, policy.LostSecretRule, out.Decision.Rule)
	assert.Contains(t, out.Decision.Reason, "flow.max_memory_bytes")
}
