package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/claudecode"
	"github.com/flowd-dev/flowd/internal/jsonedit"
)

// A hooks.json as people keep it: tabs, a key Codex ignores, someone
// else's PreToolUse hook for Bash and a SessionStart hook.
const userHooks = `{
	"$comment": "team hooks",
	"hooks": {
		"SessionStart": [{"hooks": [{"type": "command", "command": "./banner.sh", "statusMessage": "hi"}]}],
		"PreToolUse": [
			{"matcher": "^Bash$", "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 30}]}
		]
	},
	"x-note":   "kept"
}
`

func TestInstallUninstallFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.json")
	require.NoError(t, os.WriteFile(path, []byte(userHooks), 0o600))
	bin := filepath.Join(dir, "bin dir", "hook")
	require.NoError(t, os.MkdirAll(filepath.Dir(bin), 0o755))
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755))

	ch, err := Install(path, claudecode.HookOptions{Binary: bin, FailClosed: true})
	require.NoError(t, err)
	require.True(t, ch.Changed)
	assert.Equal(t, path+jsonedit.BackupSuffix, ch.Backup)
	backup, err := os.ReadFile(ch.Backup)
	require.NoError(t, err)
	assert.Equal(t, userHooks, string(backup))
	installed, err := os.ReadFile(path)
	require.NoError(t, err)
	s := string(installed)
	// Every byte outside "hooks" is as the user wrote it.
	assert.True(t, strings.HasPrefix(s, userHooks[:strings.Index(userHooks, `"hooks"`)]), s)
	assert.True(t, strings.HasSuffix(s, ",\n\t\"x-note\":   \"kept\"\n}\n"), s)
	assert.Contains(t, s, `"command": "./guard.sh"`)
	assert.Contains(t, s, `"command": "./banner.sh"`)
	assert.Contains(t, s, `"command": "'`+bin+`' evaluate --agent codex --event PreToolUse --fail-closed"`)
	assert.Contains(t, s, `"command": "'`+bin+`' evaluate --agent codex --event PostToolUse --fail-closed"`)
	assert.NotContains(t, s, "PostToolUseFailure", "Codex has no such event")

	ch, err = Install(path, claudecode.HookOptions{Binary: bin, FailClosed: true})
	require.NoError(t, err)
	assert.False(t, ch.Changed, "twice is once")

	in, err := Inspect(path)
	require.NoError(t, err)
	require.Len(t, in.Entries, 2)
	for i, e := range in.Entries {
		assert.Equal(t, Events[i], e.Event)
		assert.Equal(t, Agent, e.Agent)
		assert.Equal(t, Matcher, e.Matcher)
		assert.Equal(t, Timeout, e.Timeout)
		assert.True(t, e.FailClosed)
		assert.True(t, e.BinaryExists)
	}

	// Without --fail-closed the entries are replaced where they stand.
	_, err = Install(path, claudecode.HookOptions{Binary: bin})
	require.NoError(t, err)
	in, err = Inspect(path)
	require.NoError(t, err)
	require.Len(t, in.Entries, 2)
	assert.False(t, in.Entries[0].FailClosed)

	ch, err = Uninstall(path)
	require.NoError(t, err)
	assert.Equal(t, 2, ch.Removed)
	restored, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.JSONEq(t, userHooks, string(restored))
	assert.True(t, strings.HasPrefix(string(restored), userHooks[:strings.Index(userHooks, `"hooks"`)]))
	ch, err = Uninstall(path)
	require.NoError(t, err)
	assert.False(t, ch.Changed)
}

func TestInstallNewFileAndRefusals(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".codex", "hooks.json")
	_, err := Install(path, claudecode.HookOptions{Binary: "/usr/local/bin/hook"})
	require.NoError(t, err)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.JSONEq(t, `{"hooks":{
		"PreToolUse":[{"matcher":".*","hooks":[{"type":"command","command":"/usr/local/bin/hook evaluate --agent codex --event PreToolUse","timeout":10}]}],
		"PostToolUse":[{"matcher":".*","hooks":[{"type":"command","command":"/usr/local/bin/hook evaluate --agent codex --event PostToolUse","timeout":10}]}]}}`, string(b))
	assert.NotContains(t, string(b), "FLOWD", "no socket, token or environment in the file")

	_, err = Install(path, claudecode.HookOptions{Binary: "hook"})
	assert.ErrorContains(t, err, "not an absolute path")

	bad := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"hooks": {"PreToolUse": {}}}`), 0o644))
	_, err = Install(bad, claudecode.HookOptions{Binary: "/usr/local/bin/hook"})
	assert.ErrorContains(t, err, "the file was not changed")
	got, _ := os.ReadFile(bad)
	assert.Equal(t, `{"hooks": {"PreToolUse": {}}}`, string(got))

	missing, err := Inspect(filepath.Join(dir, "none.json"))
	require.NoError(t, err)
	assert.False(t, missing.Exists)
}

func TestHooksPath(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CODEX_HOME", "")
	tests := []struct{ scope, codexHome, want string }{
		{"user", "", filepath.Join(home, ".codex", "hooks.json")},
		{"user", "/opt/codex", "/opt/codex/hooks.json"},
		{"project", "/opt/codex", "/repo/.codex/hooks.json"},
	}
	for _, tt := range tests {
		t.Setenv("CODEX_HOME", tt.codexHome)
		p, err := HooksPath(tt.scope, "/repo")
		require.NoError(t, err)
		assert.Equal(t, tt.want, p, tt)
	}
	_, err := HooksPath("local", "/repo")
	assert.ErrorContains(t, err, "Codex has user and project settings")
}
