package daemon

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

// told collects the grants an upstream sends its shim.
type told struct{ grants []shimproto.Grant }

func (tl *told) last() shimproto.Grant {
	if len(tl.grants) == 0 {
		return shimproto.Grant{}
	}
	return tl.grants[len(tl.grants)-1]
}

// connected registers u as a shim of d whose grants go to the returned told.
func connected(d *Daemon, u *upstream) *told {
	tl := &told{}
	u.grants.send = func(g shimproto.Grant) error {
		tl.grants = append(tl.grants, g)
		return nil
	}
	d.addShim(&shimConn{up: u})
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
			d := testDaemon(t, nil)
			cfg := config.Default()
			cfg.Policy.ToolOverrides = tt.overrides
			cfg.Policy.RequireJustification = tt.justify
			require.NoError(t, d.Reload(cfg))
			u := newUpstream(1, shimproto.Hello{Name: tt.server}, "s")
			tl := connected(d, u)
			judge(d, u, msg(c2s, tt.call))
			if !tt.granted {
				assert.Empty(t, tl.grants)
				return
			}
			require.Len(t, tl.grants, 1)
			assert.Equal(t, []string{"read_file"}, tl.last().Tools)
			assert.Equal(t, []string{"read_file"}, d.status(viewer{all: true}).Shims[0].Granted, "flowd status shows what goes at once")
			assert.Equal(t, cfg.Policy.SuspiciousEndpoints, tl.last().Hosts, "the shim checks the hosts flowd would")
			judge(d, u, msg(c2s, tt.call))
			assert.Len(t, tl.grants, 1, "a tool is granted once")
		})
	}
}

func TestWithheldToolIsNotGranted(t *testing.T) {
	d := testDaemon(t, nil)
	u := newUpstream(1, shimproto.Hello{Name: "math"}, "s")
	tl := connected(d, u)
	answer(t, d, u, listReq, poisonedList)
	blockedText(t, judge(d, u, msg(c2s, addCall(1))))
	judge(d, u, msg(c2s, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"sub"}}`))
	assert.Equal(t, []string{"sub"}, tl.last().Tools)
}

// Everything that could change a standing decision withdraws the grants
// before it takes effect.
func TestGrantsWithdrawn(t *testing.T) {
	hello := shimproto.Hello{Name: "math", Command: []string{"npx", "server-math"}}
	tests := []struct {
		name   string
		change func(t *testing.T, d *Daemon, u *upstream)
	}{
		{"config reloaded", func(t *testing.T, d *Daemon, u *upstream) {
			require.NoError(t, d.Reload(config.Default()))
		}},
		{"tool list answered", func(t *testing.T, d *Daemon, u *upstream) {
			answer(t, d, u, listReq, mathTools)
		}},
		{"server named at initialize", func(t *testing.T, d *Daemon, u *upstream) {
			answer(t, d, u, `{"jsonrpc":"2.0","id":20,"method":"initialize","params":{}}`,
				`{"jsonrpc":"2.0","id":20,"result":{"protocolVersion":"2025-06-18","serverInfo":{"name":"calc"}}}`)
		}},
		{"same server's tools changed under another shim", func(t *testing.T, d *Daemon, u *upstream) {
			other := newUpstream(2, hello, "s2")
			connected(d, other)
			answer(t, d, other, listReq, rugPulled)
			assert.Contains(t, blockedText(t, judge(d, u, msg(c2s, addCall(30)))), "changed since it was approved",
				"the pin is shared: this shim's next call is refused, so it must not go at once")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := testDaemon(t, nil)
			u := newUpstream(1, hello, "s")
			tl := connected(d, u)
			answer(t, d, u, listReq, mathTools)
			judge(d, u, msg(c2s, addCall(1)))
			require.Equal(t, []string{"add"}, tl.last().Tools)
			tt.change(t, d, u)
			assert.Empty(t, tl.last().Tools, "withdrawn")
			require.NotEmpty(t, tl.grants)
		})
	}

	// An unrelated server's tool list leaves the grant alone.
	d := testDaemon(t, nil)
	u := newUpstream(1, hello, "s")
	tl := connected(d, u)
	judge(d, u, msg(c2s, addCall(1)))
	other := newUpstream(2, shimproto.Hello{Name: "fs", Command: []string{"npx", "server-fs"}}, "s")
	connected(d, other)
	answer(t, d, other, listReq, mathTools)
	assert.Equal(t, []string{"add"}, tl.last().Tools)
}

// A decision made while the grants were withdrawn grants nothing: it may
// rest on what the withdrawal was about.
func TestGrantVoidedByWithdrawalDuringDecision(t *testing.T) {
	var g grants
	var sent []shimproto.Grant
	g.send = func(gr shimproto.Grant) error { sent = append(sent, gr); return nil }
	epoch := g.current()
	g.withdraw()
	g.give("add", epoch, nil)
	assert.Empty(t, sent)
	g.give("add", g.current(), nil)
	assert.Equal(t, []shimproto.Grant{{Tools: []string{"add"}}}, sent)
}

// A call the shim sent on gets no verdict of its own but is tracked as
// any other: its result is screened and it is recorded as forwarded.
func TestForwardedCallIsTrackedAndRecorded(t *testing.T) {
	d := testDaemon(t, nil)
	u := newUpstream(1, shimproto.Hello{Name: "filesystem"}, "s")
	connected(d, u)
	call := msg(c2s, toolCall(7, "read_file", `{"path":"notes.md"}`))
	call.Forwarded = true
	judge(d, u, call)
	assert.Empty(t, u.held)
	v := judge(d, u, msg(s2c, textResult(7, blockText)))
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
	d := testDaemon(t, map[string]string{"read_file": "deny"})
	u := newUpstream(1, shimproto.Hello{Name: "filesystem"}, "s")
	connected(d, u)
	call := msg(c2s, toolCall(7, "read_file", `{"path":"notes.md"}`))
	call.Forwarded = true
	judge(d, u, call)
	assert.Empty(t, u.blocked, "its cancellation still reaches the server")
	judge(d, u, msg(s2c, textResult(7, "contents")))
	rec, _ := lastCall(t, d)
	assert.Equal(t, "pass", rec.Verdict)
	assert.Equal(t, "deny", rec.Decision)
	assert.Equal(t, "high", rec.RiskLevel)
	assert.Contains(t, rec.Reason, "grant withdrawn while the call was on its way")
}
