package codex

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/claudecode"
)

// The keys are those codex app-server 0.171's hooks/list gave flowd's
// hooks, and the config shapes those it then reported as trusted,
// modified (a wrong hash: still a trust flowd cannot check) or absent.
func TestReviewHooks(t *testing.T) {
	const path = "/h/.codex/hooks.json"
	// A user's hook first, so flowd's are the second group of PreToolUse.
	file := []byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"/u/lint.sh"}]}]}}`)
	file, err := AddHooks(file, claudecode.HookOptions{Binary: "/usr/local/bin/hook"})
	require.NoError(t, err)
	entries, _, err := claudecode.FindHooks(file)
	require.NoError(t, err)
	require.Len(t, entries, 2)
	pre, post := path+":pre_tool_use:1:0", path+":post_tool_use:0:0"
	assert.Equal(t, pre, TrustKey(path, entries[0]))
	assert.Equal(t, post, TrustKey(path, entries[1]))

	tests := []struct {
		name, config string
		want         Review
	}{
		{"no config", ``, Review{Untrusted: []string{pre, post}}},
		{"trusted", `model = "o3"
[hooks.state."` + pre + `"]
trusted_hash = "sha256:0fc0"
[hooks.state."` + post + `"]
trusted_hash = "sha256:0f05"
`, Review{}},
		{"one trusted, one switched off", `[hooks.state."` + pre + `"]
trusted_hash = "sha256:0fc0"
enabled = false
`, Review{Untrusted: []string{post}, Disabled: []string{pre}}},
		{"another file's trust is not flowd's", `[hooks.state."/p/.codex/hooks.json:pre_tool_use:1:0"]
trusted_hash = "sha256:0fc0"
`, Review{Untrusted: []string{pre, post}}},
		{"hooks off", "[features]\nhooks = false\n[hooks.state.\"" + pre + "\"]\ntrusted_hash = \"x\"\n[hooks.state.\"" + post + "\"]\ntrusted_hash = \"y\"\n",
			Review{HooksOff: true}},
		{"hooks on", "[features]\nhooks = true\n", Review{Untrusted: []string{pre, post}}},
		// Hooks written in config.toml itself sit in [hooks] beside state.
		{"hooks in config.toml", "[[hooks.PreToolUse]]\nmatcher = \"x\"\n[hooks.state.\"" + pre + "\"]\ntrusted_hash = \"x\"\n",
			Review{Untrusted: []string{post}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ReviewHooks([]byte(tt.config), path, entries)
			require.NoError(t, err)
			assert.Equal(t, tt.want, r)
		})
	}
	_, err = ReviewHooks([]byte("[features]\nhooks = \"no\"\n"), path, entries)
	assert.ErrorContains(t, err, "read Codex's config")
	_, err = ReviewHooks([]byte("not toml ["), path, entries)
	assert.Error(t, err)

	home := t.TempDir()
	t.Setenv("CODEX_HOME", home)
	require.NoError(t, os.WriteFile(filepath.Join(home, "config.toml"), []byte("[features]\nhooks = false\n"), 0o600))
	r, err := ReviewFile(path, entries)
	require.NoError(t, err)
	assert.True(t, r.HooksOff)
}
