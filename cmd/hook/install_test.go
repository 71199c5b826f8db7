package main

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInstallStatusUninstall(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin", "hook")
	require.NoError(t, os.MkdirAll(filepath.Dir(bin), 0o755))
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755))
	binary := func() (string, error) { return bin, nil }
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(dir, "userclaude"))
	stub := startStub(t, answer(`{"running":true}`))

	var out, errb bytes.Buffer
	code := install([]string{"--scope", "local", "--dir", dir, "--fail-closed"}, &out, &errb, binary)
	require.Equal(t, 0, code, errb.String())
	local := filepath.Join(dir, ".claude", "settings.local.json")
	assert.Contains(t, out.String(), "installed flowd's Claude Code hooks (PreToolUse, PostToolUse, PostToolUseFailure) in "+local)
	settings, err := os.ReadFile(local)
	require.NoError(t, err)
	assert.Contains(t, string(settings), bin+" evaluate --event PreToolUse --fail-closed")
	assert.NotContains(t, string(settings), stub.socket, "no socket in the settings")

	out.Reset()
	require.Equal(t, 0, install([]string{"--agent", "claude-code", "--scope", "local", "--dir", dir, "--fail-closed"}, &out, &errb, binary))
	assert.Contains(t, out.String(), "nothing to change")

	out.Reset()
	require.Equal(t, 0, run([]string{"status", "--dir", dir, "--socket", stub.socket}, nil, &out, &errb), errb.String())
	s := out.String()
	assert.Contains(t, s, "claude-code\n")
	assert.Contains(t, s, "user     "+filepath.Join(dir, "userclaude", "settings.json")+": no such file")
	assert.Contains(t, s, "project  "+filepath.Join(dir, ".claude", "settings.json")+": no such file")
	assert.Contains(t, s, "local    "+local+": installed (PreToolUse, PostToolUse, PostToolUseFailure)")
	assert.Contains(t, s, bin+" evaluate --event PostToolUse --fail-closed  [fail-closed]")
	assert.Contains(t, s, "flowd: answering on "+stub.socket)
	assert.NotContains(t, s, "MISSING")
	r := <-stub.reqs
	assert.Equal(t, "GET /api/v1/status", r.method+" "+r.path)

	require.NoError(t, os.Remove(bin))
	out.Reset()
	missing := filepath.Join(dir, "none.sock")
	require.Equal(t, 0, run([]string{"status", "--dir", dir, "--socket", missing}, nil, &out, &errb))
	assert.Contains(t, out.String(), "BINARY MISSING: "+bin)
	assert.Contains(t, out.String(), "flowd: not answering on "+missing)

	out.Reset()
	require.Equal(t, 0, uninstall([]string{"--scope", "local", "--dir", dir}, &out, &errb))
	assert.Contains(t, out.String(), "removed flowd's Claude Code hooks from "+local)
	settings, err = os.ReadFile(local)
	require.NoError(t, err)
	assert.Equal(t, "{}\n", string(settings))
}

func TestInstallUsage(t *testing.T) {
	t.Setenv("HOME", t.TempDir()) // a usage error that was not one must not touch the user's settings
	binary := func() (string, error) { return "/usr/bin/hook", nil }
	tests := []struct {
		args []string
		err  string
	}{
		{[]string{"--agent", "claude-code"}, "--scope is required"},
		{[]string{"--scope", "user", "--agent", "windsurf"}, `unknown agent "windsurf" (supported: claude-code, codex, cursor, gemini-cli)`},
		{[]string{"--scope", "user", "x"}, "unexpected arguments"},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		assert.Equal(t, exitUsage, install(tt.args, &out, &errb, binary), tt.args)
		assert.Contains(t, errb.String(), tt.err, tt.args)
		errb.Reset()
		assert.Equal(t, exitUsage, uninstall(tt.args, &out, &errb), tt.args)
		assert.Contains(t, errb.String(), tt.err, tt.args)
		assert.Empty(t, out.String())
	}
	// -h is no usage error: the usage goes to stdout and the command
	// succeeds, as with the CLIs users know.
	for name, cmd := range map[string]func([]string, io.Writer, io.Writer) int{
		"install":   func(a []string, o, e io.Writer) int { return install(a, o, e, binary) },
		"uninstall": uninstall,
		"status":    status,
	} {
		var out, errb bytes.Buffer
		assert.Equal(t, 0, cmd([]string{"-h"}, &out, &errb), name)
		assert.Contains(t, out.String(), "-dir", name)
		assert.Empty(t, errb.String(), name)
	}
	var errb bytes.Buffer
	assert.Equal(t, 1, install([]string{"--scope", "galaxy"}, io.Discard, &errb, binary))
	assert.Contains(t, errb.String(), `unknown scope "galaxy"`)
}

func TestHookBinaryName(t *testing.T) {
	dir := t.TempDir()
	saved := os.Args[0]
	t.Cleanup(func() { os.Args[0] = saved })

	os.Args[0] = filepath.Join(dir, "flowd-hook")
	_, err := hookBinary()
	assert.ErrorContains(t, err, "must be named hook")

	// Found through PATH: the PATH entry is kept, not the symlink's target.
	real := filepath.Join(dir, "cellar", "hook")
	require.NoError(t, os.MkdirAll(filepath.Dir(real), 0o755))
	require.NoError(t, os.WriteFile(real, []byte("#!/bin/sh\n"), 0o755))
	binDir := filepath.Join(dir, "bin")
	require.NoError(t, os.MkdirAll(binDir, 0o755))
	require.NoError(t, os.Symlink(real, filepath.Join(binDir, "hook")))
	t.Setenv("PATH", binDir)
	os.Args[0] = "hook"
	p, err := hookBinary()
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(binDir, "hook"), p)
}

func TestRunCommands(t *testing.T) {
	var out, errb bytes.Buffer
	assert.Equal(t, exitUsage, run(nil, nil, &out, &errb))
	assert.Equal(t, exitUsage, run([]string{"evaluat"}, nil, &out, &errb))
	assert.Contains(t, errb.String(), `unknown command "evaluat"`)
	assert.Equal(t, 0, run([]string{"version"}, nil, &out, &errb))
	assert.True(t, strings.HasPrefix(out.String(), "hook "))
}

func TestStatusFlowdRefuses(t *testing.T) {
	stub := startStub(t, func(w http.ResponseWriter, r *http.Request) { http.Error(w, "starting", 503) })
	var out, errb bytes.Buffer
	require.Equal(t, 0, run([]string{"status", "--dir", t.TempDir(), "--socket", stub.socket}, nil, &out, &errb))
	assert.Contains(t, out.String(), "flowd: not answering on "+stub.socket+": status 503: starting")
}

// Codex keeps its trust in a hook in its own config: hook status must say
// when flowd's hooks are installed but untrusted or switched off, since
// codex exec then skips them without a word.
func TestStatusShowsCodexTrust(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "codex")
	t.Setenv("CODEX_HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", filepath.Join(dir, "userclaude"))
	bin := filepath.Join(dir, "hook")
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755))
	var out, errb bytes.Buffer
	require.Equal(t, 0, install([]string{"--agent", "codex", "--scope", "user"}, &out, &errb,
		func() (string, error) { return bin, nil }), errb.String())
	status := func() string {
		out.Reset()
		require.Equal(t, 0, run([]string{"status", "--dir", dir, "--socket", filepath.Join(dir, "none.sock")}, nil, &out, &errb), errb.String())
		return out.String()
	}
	s := status()
	assert.Contains(t, s, "Codex has not trusted 2 of them")
	assert.NotContains(t, s, "features.hooks")

	hooks := filepath.Join(home, "hooks.json")
	cfg := "[features]\nhooks = false\n\n"
	for _, ev := range []string{"pre_tool_use", "post_tool_use"} {
		cfg += "[hooks.state.\"" + hooks + ":" + ev + ":0:0\"]\ntrusted_hash = \"sha256:x\"\nenabled = false\n\n"
	}
	require.NoError(t, os.WriteFile(filepath.Join(home, "config.toml"), []byte(cfg), 0o600))
	s = status()
	assert.NotContains(t, s, "has not trusted")
	assert.Contains(t, s, "features.hooks = false in Codex's config.toml turns every hook off")
	assert.Contains(t, s, "2 of them are switched off in Codex")
}

// hook install --no-autostart writes a hook that never starts flowd, and
// status says what that costs.
func TestInstallNoAutostart(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "hook")
	require.NoError(t, os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755))
	t.Setenv("HOME", dir)
	var out, errb bytes.Buffer
	code := install([]string{"--agent", "gemini-cli", "--scope", "project", "--dir", dir, "--no-autostart"}, &out, &errb,
		func() (string, error) { return bin, nil })
	require.Equal(t, 0, code, errb.String())
	settings, err := os.ReadFile(filepath.Join(dir, ".gemini", "settings.json"))
	require.NoError(t, err)
	assert.Contains(t, string(settings), bin+" evaluate --agent gemini-cli --event BeforeTool --no-autostart")

	out.Reset()
	require.Equal(t, 0, run([]string{"status", "--dir", dir, "--socket", filepath.Join(dir, "none.sock")}, nil, &out, &errb), errb.String())
	assert.Contains(t, out.String(), "--no-autostart  [no-autostart: unchecked while flowd is not running]")
}
