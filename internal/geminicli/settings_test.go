package geminicli

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

// A settings.json as people keep it: odd spacing, other settings around
// the hooks, someone else's BeforeTool hook, and Gemini CLI's own switches
// inside "hooks".
const userSettings = `{
    "theme": "GitHub",
    "mcpServers": {
        "slack": {"command": "npx", "args": ["-y", "slack-mcp"], "env": {"TOKEN": "x&y"}}
    },
    "tools": {"enableHooks": true},
    "hooks": {
        "enabled": true,
        "disabled": ["old-hook"],
        "BeforeTool": [
            {"matcher": "write_file|replace", "hooks": [{"type": "command", "command": "./lint.sh", "name": "lint"}]}
        ]
    },
    "ui":   {"hideBanner":true}
}
`

func TestInstallUninstallFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	require.NoError(t, os.WriteFile(path, []byte(userSettings), 0o600))
	bin := filepath.Join(dir, "bin dir", "hook")
	require.NoError(t, os.MkdirAll(filepath.Dir(bin), 0o755))
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755))

	ch, err := Install(path, claudecode.HookOptions{Binary: bin, FailClosed: true})
	require.NoError(t, err)
	require.True(t, ch.Changed)
	assert.Equal(t, path+jsonedit.BackupSuffix, ch.Backup)
	installed, err := os.ReadFile(path)
	require.NoError(t, err)
	s := string(installed)
	// Every byte outside "hooks" is as the user wrote it.
	assert.True(t, strings.HasPrefix(s, userSettings[:strings.Index(userSettings, `"hooks"`)]), s)
	assert.True(t, strings.HasSuffix(s, ",\n    \"ui\":   {\"hideBanner\":true}\n}\n"), s)
	assert.Contains(t, s, `"command": "./lint.sh"`)
	assert.Contains(t, s, `"enabled": true`)
	assert.Contains(t, s, `"command": "'`+bin+`' evaluate --agent gemini-cli --event BeforeTool --fail-closed"`)
	assert.Contains(t, s, `"timeout": 10000`)
	assert.Contains(t, s, `"name": "flowd"`)

	ch, err = Install(path, claudecode.HookOptions{Binary: bin, FailClosed: true})
	require.NoError(t, err)
	assert.False(t, ch.Changed, "twice is once")

	in, err := Inspect(path)
	require.NoError(t, err)
	require.Len(t, in.Entries, 2)
	assert.False(t, in.HooksDisabled)
	for i, e := range in.Entries {
		assert.Equal(t, Events[i], e.Event)
		assert.Equal(t, "gemini-cli", e.Agent)
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
	// The hooks object is laid out again, the rest is byte for byte.
	assert.JSONEq(t, userSettings, string(restored))
	assert.True(t, strings.HasPrefix(string(restored), userSettings[:strings.Index(userSettings, `"hooks"`)]))
	ch, err = Uninstall(path)
	require.NoError(t, err)
	assert.False(t, ch.Changed)
}

func TestInstallNewFileAndRefusals(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".gemini", "settings.json")
	_, err := Install(path, claudecode.HookOptions{Binary: "/usr/local/bin/hook"})
	require.NoError(t, err)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.JSONEq(t, `{"hooks":{
		"BeforeTool":[{"matcher":".*","hooks":[{"name":"flowd","type":"command","command":"/usr/local/bin/hook evaluate --agent gemini-cli --event BeforeTool","timeout":10000}]}],
		"AfterTool":[{"matcher":".*","hooks":[{"name":"flowd","type":"command","command":"/usr/local/bin/hook evaluate --agent gemini-cli --event AfterTool","timeout":10000}]}]}}`, string(b))

	_, err = Install(path, claudecode.HookOptions{Binary: "hook"})
	assert.ErrorContains(t, err, "not an absolute path")

	bad := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"hooks": [1]}`), 0o644))
	_, err = Install(bad, claudecode.HookOptions{Binary: "/usr/local/bin/hook"})
	assert.ErrorContains(t, err, "the file was not changed")
	got, _ := os.ReadFile(bad)
	assert.Equal(t, `{"hooks": [1]}`, string(got))

	off := filepath.Join(dir, "off.json")
	require.NoError(t, os.WriteFile(off, []byte(`{"hooks":{"enabled":false}}`), 0o644))
	_, err = Install(off, claudecode.HookOptions{Binary: "/usr/local/bin/hook"})
	require.NoError(t, err)
	in, err := Inspect(off)
	require.NoError(t, err)
	assert.True(t, in.HooksDisabled, "installed, but Gemini CLI runs no hooks")
}

func TestSettingsPath(t *testing.T) {
	p, err := SettingsPath("project", "/repo")
	require.NoError(t, err)
	assert.Equal(t, "/repo/.gemini/settings.json", p) // the scopes: jsonedit.AgentFile
}

func TestHooksOff(t *testing.T) {
	for settings, off := range map[string]bool{
		`{}`:                                     false,
		`{"hooksConfig":{"enabled":true}}`:       false,
		`{"hooksConfig":{"enabled":false}}`:      true,
		`{"hooksConfig":{"disabled":["lint"]}}`:  false,
		`{"hooksConfig":{"disabled":["flowd"]}}`: true,
		`{"hooks":{"enabled":false}}`:            true,
		`{"hooks":{"disabled":["flowd"]}}`:       true,
		`{"tools":{"enableHooks":false}}`:        true,
		`{"hooksConfig":{"enabled":"no"}}`:       false,
		`{"hooks":{"BeforeTool":[]},"tools":{}}`: false,
	} {
		assert.Equal(t, off, HooksOff([]byte(settings)), settings)
	}
}
