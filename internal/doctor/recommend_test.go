package doctor

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/unprotected"
)

func TestRecommend(t *testing.T) {
	ids := func(rs []flowdclient.Recommendation) []string {
		out := []string{}
		for _, r := range rs {
			out = append(out, r.ID)
		}
		return out
	}
	healthy := flowdclient.Status{SecurityCoverage: "full", Shims: []flowdclient.Shim{{}}}
	assert.Equal(t, []string{"fail_mode_open"}, ids(Recommend(Running{Status: healthy, Config: config.Default(), PassphraseSet: true})),
		"a healthy flowd with the default config has only a note: shims fail open by default")

	weak := config.Default()
	weak.Shim.FailMode, weak.Classify.DefaultUnknown, weak.Injection.Enabled = "open", "internal", false
	sick := flowdclient.Status{SecurityCoverage: "proxy_only", Activity: activity.Stats{WriteError: "disk full", Failed: 3}}
	got := Recommend(Running{Status: sick, Config: weak, ConfigPath: "/etc/flowd.toml",
		Unprotected: []unprotected.Shim{{Server: "github", PID: 7, Reason: "flowd unreachable\x1b[2J"}},
		Clients: []ClientFile{{Client: "claude-desktop", Path: "/h/claude_desktop_config.json", Unwrapped: []string{"github", "fs"}},
			{Client: "cursor", Path: "/h/.cursor/mcp.json", Wrapped: []string{"x"}}}})
	assert.Equal(t, []string{"shim_unprotected", "servers_unwrapped", "activity_write_failing", "hooks_missing", "no_shims", "passphrase_unset",
		"fail_mode_open", "unknown_is_internal", "injection_scan_off"}, ids(got))
	for _, r := range got {
		assert.NotEmpty(t, r.Fix, r.ID)
	}
	assert.Equal(t, `[classify] default_unknown = "unknown" in /etc/flowd.toml`, got[7].Fix)
	assert.Equal(t, "claude-desktop (/h/claude_desktop_config.json): servers not wrapped, flowd cannot see them: github, fs", got[1].Message)
	assert.Contains(t, got[1].Fix, "shim wrap")
	assert.Contains(t, got[0].Message, `flowd unreachable\x1b[2J`, "what a shim reported, neutralised")
}

// A passphrase set by a process the user does not recognise (an agent's
// leftover, red team RT5-5) shows, with what set it and how to undo it.
func TestRecommendNamesWhoSetThePassphrase(t *testing.T) {
	st := flowdclient.Status{SecurityCoverage: "full", Shims: []flowdclient.Shim{{}}, ApprovalPassphrase: true,
		PassphraseSince: time.Date(2026, 11, 28, 3, 4, 5, 0, time.UTC), PassphraseBy: "script 900 ← sh 880 ← systemd 1"}
	got := Recommend(Running{Status: st, Config: config.Default(), PassphraseSet: true})
	var by *flowdclient.Recommendation
	for i := range got {
		if got[i].ID == "passphrase_set_by" {
			by = &got[i]
		}
	}
	if assert.NotNil(t, by) {
		assert.Contains(t, by.Message, "by script 900 ← sh 880 ← systemd 1")
		assert.Contains(t, by.Fix, "remove approval.json and agent-seen")
	}
	st.PassphraseBy = ""
	for _, r := range Recommend(Running{Status: st, Config: config.Default(), PassphraseSet: true}) {
		assert.NotEqual(t, "passphrase_set_by", r.ID, "a verifier from before flowd recorded who set it says nothing")
	}
}
