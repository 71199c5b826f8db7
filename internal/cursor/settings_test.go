package cursor

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

const userHooks = "{\r\n\t\"version\": 1,\r\n\t\"hooks\": {\r\n\t\t\"beforeShellExecution\": [{\"command\": \"./audit.sh\", \"timeout\": 5}],\r\n\t\t\"stop\": [{\"command\": \"./notify.sh\"}]\r\n\t},\r\n\t\"$comment\": \"team hooks\"\r\n}\r\n"

func TestInstallUninstallFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hooks.json")
	require.NoError(t, os.WriteFile(path, []byte(userHooks), 0o600))
	bin := filepath.Join(dir, "hook")
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755))

	ch, err := Install(path, claudecode.HookOptions{Binary: bin, FailClosed: true})
	require.NoError(t, err)
	require.True(t, ch.Changed)
	assert.Equal(t, path+jsonedit.BackupSuffix, ch.Backup)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	s := string(b)
	assert.True(t, strings.HasPrefix(s, "{\r\n\t\"version\": 1,\r\n\t\"hooks\": {\r\n"), s)
	assert.True(t, strings.HasSuffix(s, "\r\n\t},\r\n\t\"$comment\": \"team hooks\"\r\n}\r\n"), s)
	assert.NotContains(t, strings.ReplaceAll(s, "\r\n", ""), "\n", "line ends stay CRLF")
	assert.Contains(t, s, `"command": "./audit.sh"`)
	assert.Contains(t, s, `"command": "`+bin+` evaluate --agent cursor --event beforeMCPExecution --fail-closed",`+"\r\n\t\t\t\t\"failClosed\": true")
	assert.Contains(t, s, `"command": "`+bin+` evaluate --agent cursor --event afterMCPExecution --fail-closed"`+"\r\n\t\t\t}", "an after hook cannot hold a call back")

	ch, err = Install(path, claudecode.HookOptions{Binary: bin, FailClosed: true})
	require.NoError(t, err)
	assert.False(t, ch.Changed, "twice is once")

	in, err := Inspect(path)
	require.NoError(t, err)
	assert.True(t, in.Exists)
	assert.False(t, in.HooksDisabled)
	require.Len(t, in.Entries, len(Events))
	var events []string
	for _, e := range in.Entries {
		assert.Equal(t, Agent, e.Agent)
		events = append(events, e.Event)
		assert.True(t, e.FailClosed)
		assert.True(t, e.BinaryExists)
	}
	assert.ElementsMatch(t, Events, events)

	ch, err = Uninstall(path)
	require.NoError(t, err)
	assert.Equal(t, len(Events), ch.Removed)
	restored, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.JSONEq(t, userHooks, string(restored))
	assert.True(t, strings.HasSuffix(string(restored), "\r\n\t},\r\n\t\"$comment\": \"team hooks\"\r\n}\r\n"))
	ch, err = Uninstall(path)
	require.NoError(t, err)
	assert.False(t, ch.Changed)
}

func TestInstallNewFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".cursor", "hooks.json")
	_, err := Install(path, claudecode.HookOptions{Binary: "/opt/flowd/hook"})
	require.NoError(t, err)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.JSONEq(t, `{"version":1,"hooks":{
		"beforeMCPExecution":[{"command":"/opt/flowd/hook evaluate --agent cursor --event beforeMCPExecution"}],
		"beforeShellExecution":[{"command":"/opt/flowd/hook evaluate --agent cursor --event beforeShellExecution"}],
		"beforeReadFile":[{"command":"/opt/flowd/hook evaluate --agent cursor --event beforeReadFile"}],
		"afterMCPExecution":[{"command":"/opt/flowd/hook evaluate --agent cursor --event afterMCPExecution"}],
		"afterShellExecution":[{"command":"/opt/flowd/hook evaluate --agent cursor --event afterShellExecution"}]}}`, string(b))

	// A file without a version gets one, the rest spliced.
	noVersion := filepath.Join(t.TempDir(), "hooks.json")
	require.NoError(t, os.WriteFile(noVersion, []byte(`{"hooks": {"stop": [{"command": "x"}]}}`), 0o644))
	_, err = Install(noVersion, claudecode.HookOptions{Binary: "/opt/flowd/hook"})
	require.NoError(t, err)
	b, err = os.ReadFile(noVersion)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"version": 1`)
	assert.Contains(t, string(b), `"stop": [`)

	_, err = Install(path, claudecode.HookOptions{Binary: "hook"})
	assert.ErrorContains(t, err, "not an absolute path")
	bad := filepath.Join(t.TempDir(), "hooks.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"hooks":{"beforeReadFile":{"command":"x"}}}`), 0o644))
	_, err = Install(bad, claudecode.HookOptions{Binary: "/opt/flowd/hook"})
	assert.ErrorContains(t, err, "the file was not changed")
}

func TestHooksPath(t *testing.T) {
	p, err := HooksPath("project", "/repo")
	require.NoError(t, err)
	assert.Equal(t, "/repo/.cursor/hooks.json", p) // the scopes: jsonedit.AgentFile
}
