package judge

import (
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"

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
