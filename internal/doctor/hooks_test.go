package doctor

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/claudecode"
	"github.com/flowd-dev/flowd/internal/codex"
	"github.com/flowd-dev/flowd/internal/cursor"
	"github.com/flowd-dev/flowd/internal/geminicli"
)

// doctor finds flowd's hooks in Gemini CLI's, Cursor's and Codex's files
// as in Claude Code's, and names the agent in what it says about them.
func TestHooksCoverGeminiCursorAndCodex(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CODEX_HOME", filepath.Join(home, "codex-home"))
	bin := filepath.Join(home, "hook")
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755))
	gemini, err := geminicli.SettingsPath("user", project)
	require.NoError(t, err)
	_, err = geminicli.Install(gemini, claudecode.HookOptions{Binary: bin})
	require.NoError(t, err)
	cur, err := cursor.HooksPath("project", project)
	require.NoError(t, err)
	_, err = cursor.Install(cur, claudecode.HookOptions{Binary: filepath.Join(home, "gone", "hook"), FailClosed: true})
	require.NoError(t, err)

	cdx, err := codex.HooksPath("user", project)
	require.NoError(t, err)
	require.Equal(t, filepath.Join(home, "codex-home", "hooks.json"), cdx)
	_, err = codex.Install(cdx, claudecode.HookOptions{Binary: bin})
	require.NoError(t, err)

	// Trusted as Codex's "Trust all and continue" writes it; flowd does
	// not check the hash.
	codexConfig := filepath.Join(home, "codex-home", "config.toml")
	trusted := "[hooks.state.\"" + cdx + ":pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:0f\"\n" +
		"[hooks.state.\"" + cdx + ":post_tool_use:0:0\"]\ntrusted_hash = \"sha256:1f\"\n"
	require.NoError(t, os.WriteFile(codexConfig, []byte(trusted), 0o600))

	hs := hooks(project)
	require.Len(t, hs, 3)
	assert.Equal(t, HookScope{Agent: "gemini-cli", Scope: "user", Path: gemini, Installed: true,
		Command: bin + " evaluate --agent gemini-cli --event AfterTool"}, hs[0])
	assert.Equal(t, "cursor", hs[1].Agent)
	assert.True(t, hs[1].BinaryMissing)
	assert.Equal(t, HookScope{Agent: "codex", Scope: "user", Path: cdx, Installed: true,
		Command: bin + " evaluate --agent codex --event PostToolUse"}, hs[2])

	cov := find(Judge(Facts{Hooks: hs}), "security coverage")
	require.Len(t, cov, 2)
	assert.Equal(t, Fail, cov[0].Status)
	assert.Contains(t, cov[0].Message, "Cursor hooks in "+cur)
	assert.Equal(t, "hook install --agent cursor --scope project", cov[0].Fix)
	assert.Equal(t, OK, cov[1].Status)
	assert.Contains(t, cov[1].Message, "full: hooks installed for Gemini CLI (user scope), Cursor (project scope), Codex (user scope)")

	// Codex's config says whether its hooks run: untrusted, one switched
	// off, all off, unreadable.
	for _, tt := range []struct {
		name, config string
		msgs, fixes  []string
	}{
		{"untrusted", "model = \"o3\"\n",
			[]string{"Codex has not trusted flowd's hooks in " + cdx + " (" + cdx + ":pre_tool_use:0:0, " + cdx + ":post_tool_use:0:0)"},
			[]string{`answer its "Hooks need review" prompt with "Trust all and continue"`}},
		{"switched off", trusted + "enabled = false\n",
			[]string{"switches flowd's hooks off (enabled = false): " + cdx + ":post_tool_use:0:0"}, []string{"/hooks"}},
		{"hooks off", "[features]\nhooks = false\n" + trusted,
			[]string{"turns Codex's hooks off (features.hooks = false)"}, []string{"codex features enable hooks"}},
		{"unreadable", "[features]\nhooks = 1\n",
			[]string{"cannot tell whether Codex runs flowd's hooks in " + cdx}, []string{"correct " + codexConfig}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			require.NoError(t, os.WriteFile(codexConfig, []byte(tt.config), 0o600))
			cov := find(Judge(Facts{Hooks: hooks(project)}), "security coverage")
			require.Len(t, cov, 2+len(tt.msgs), "%+v", cov)
			for i, msg := range tt.msgs {
				assert.Equal(t, Warn, cov[1+i].Status)
				assert.Contains(t, cov[1+i].Message, msg)
				assert.Contains(t, cov[1+i].Fix, tt.fixes[i])
			}
		})
	}

	off := Judge(Facts{Hooks: []HookScope{{Agent: "gemini-cli", Scope: "user", Path: gemini, Installed: true, Disabled: true}}})
	cov = find(off, "security coverage")
	assert.Equal(t, Warn, cov[0].Status)
	assert.Contains(t, cov[0].Message, "turns flowd's hooks off (hooksConfig.enabled is false")
	assert.Contains(t, cov[0].Fix, `"hooksConfig": {"enabled": true}`, "the switch Gemini CLI 0.61 reads")
}
