package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const desktopConfig = `{
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-filesystem"]
    }
  }
}
`

func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	w := wrapCmd{stdout: &out, stderr: &errOut, self: func() (string, error) { return "/opt/flowd/shim", nil }}
	code = w.run(args[0], args[1:])
	return code, out.String(), errOut.String()
}

func TestWrapCommand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "claude_desktop_config.json")
	require.NoError(t, os.WriteFile(path, []byte(desktopConfig), 0o600))

	code, out, errOut := runCmd(t, "wrap", "--config", path, "--dry-run")
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "config: "+path+"\n  fs: would be wrapped\n    - npx -y @modelcontextprotocol/server-filesystem\n"+
		"    + /opt/flowd/shim --name fs -- npx -y @modelcontextprotocol/server-filesystem\n  dry run: nothing written\n")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, desktopConfig, string(b))

	code, out, errOut = runCmd(t, "wrap", "--client", "claude-desktop", "--config", path)
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "claude-desktop: "+path+"\n")
	assert.Contains(t, out, "Restart the clients")
	b, err = os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"args": ["--name", "fs", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem"]`)

	code, _, errOut = runCmd(t, "unwrap", "--config", path)
	assert.Equal(t, 0, code, errOut)
	b, err = os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, desktopConfig, string(b))
}

func TestWrapCommandFindsClients(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Chdir(home)
	cursor := filepath.Join(home, ".cursor", "mcp.json")
	require.NoError(t, os.MkdirAll(filepath.Dir(cursor), 0o700))
	require.NoError(t, os.WriteFile(cursor, []byte(desktopConfig), 0o600))

	code, out, errOut := runCmd(t, "wrap", "--dry-run")
	assert.Equal(t, 0, code, errOut)
	assert.True(t, strings.HasPrefix(out, "claude-desktop: no config (looked for "), "clients are reported in order:\n%s", out)
	assert.Contains(t, out, "claude-code: no config (looked for "+filepath.Join(home, ".claude.json")+", "+filepath.Join(home, ".mcp.json")+")\n")
	assert.Contains(t, out, "cursor: "+cursor+"\n  fs: would be wrapped\n")

	code, _, errOut = runCmd(t, "unwrap", "--client", "claude-code")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "no MCP client config found; name one with --config PATH")
}

func TestWrapCommandErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte("{\n  // no\n}"), 0o600))
	tests := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"wrap", "--client", "notepad"}, 1, `unknown client "notepad"`},
		{[]string{"wrap", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"unwrap", "--bogus"}, 2, "flag provided but not defined: -bogus"},
		{[]string{"wrap", "-h"}, 0, ""},
		{[]string{"wrap", "--config", bad}, 1, bad + ": line 2, column 3: comments are not allowed in JSON"},
		{[]string{"unwrap", "--config", bad + ".missing"}, 1, "no such file"},
	}
	for _, tt := range tests {
		code, _, errOut := runCmd(t, tt.args...)
		assert.Equal(t, tt.code, code, tt.args)
		assert.Contains(t, errOut, tt.stderr, tt.args)
	}
}

func TestShimPath(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "Cellar", "flowd", "1.2.3", "bin", "shim")
	require.NoError(t, os.MkdirAll(filepath.Dir(exe), 0o755))
	require.NoError(t, os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o755))
	bin := filepath.Join(dir, "bin")
	require.NoError(t, os.MkdirAll(bin, 0o755))
	link := filepath.Join(bin, "shim")
	if err := os.Symlink(exe, link); err != nil {
		t.Skipf("cannot make a symlink here: %v", err)
	}
	other := filepath.Join(dir, "other")
	require.NoError(t, os.WriteFile(other, nil, 0o755))
	t.Setenv("PATH", bin)
	t.Chdir(bin)
	executable := func() (string, error) { return exe, nil }

	tests := []struct{ arg0, want string }{
		{link, link},          // the stable symlink the user ran, not the versioned file
		{"shim", link},        // found on PATH
		{"./shim", link},      // relative to the current directory
		{other, exe},          // not this binary: trust os.Executable
		{"no-such-shim", exe}, // not on PATH
		{filepath.Join(dir, "gone"), exe},
	}
	for _, tt := range tests {
		got, err := shimPath(tt.arg0, executable)
		require.NoError(t, err)
		assert.Equal(t, tt.want, got, tt.arg0)
	}

	_, err := shimPath("shim", func() (string, error) { return "/tmp/go-build123/b001/exe/shim", nil })
	assert.ErrorContains(t, err, "Go's build cache")
}

// Wrapping a project's .mcp.json writes this user's shim path into a file
// that is usually committed: the user is told.
func TestWrapWarnsAboutProjectFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".mcp.json")
	require.NoError(t, os.WriteFile(path, []byte(desktopConfig), 0o600))
	code, out, errOut := runCmd(t, "wrap", "--config", path, "--dry-run")
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "note: "+path+" is a project file, usually committed; everyone who uses it needs the shim at /opt/flowd/shim")

	code, out, _ = runCmd(t, "wrap", "-h")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "usage: shim wrap", "help goes to stdout")
}

// Every client's files are found, each read in its own format, and a
// project's file gets the note that the path written is this user's.
func TestWrapCommandOtherClients(t *testing.T) {
	home := t.TempDir()
	project := filepath.Join(home, "src", "shop")
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("APPDATA", "")
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("CODEX_HOME", "")
	t.Chdir(mkdir(t, project))
	files := map[string]string{
		filepath.Join(home, ".codex", "config.toml"):                 "[mcp_servers.docs]\ncommand = \"npx\"\nargs = [\"-y\", \"docs\"]\n",
		filepath.Join(project, ".vscode", "mcp.json"):                "{\n  // team servers\n  \"servers\": {\"db\": {\"type\": \"stdio\", \"command\": \"pg-mcp\", \"args\": []}}\n}\n",
		filepath.Join(project, ".gemini", "settings.json"):           "{\"mcpServers\": {\"x\": {\"command\": \"x\", \"args\": []}}}\n",
		filepath.Join(home, ".continue", "config.yaml"):              "mcpServers:\n  - name: mem\n    command: npx\n    args:\n      - mem\n",
		filepath.Join(project, ".continue", "mcpServers", "pw.yaml"): "mcpServers:\n  - name: pw\n    command: npx\n",
	}
	for p, doc := range files {
		mkdir(t, filepath.Dir(p))
		require.NoError(t, os.WriteFile(p, []byte(doc), 0o600))
	}

	code, out, errOut := runCmd(t, "wrap")
	require.Equal(t, 0, code, errOut)
	for p := range files {
		assert.Contains(t, out, ": "+p+"\n", "every file is found")
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		assert.Contains(t, string(b), "/opt/flowd/shim", p)
	}
	for _, p := range []string{".vscode/mcp.json", ".gemini/settings.json", ".continue/mcpServers/pw.yaml"} {
		assert.Contains(t, out, "note: "+filepath.Join(project, filepath.FromSlash(p))+" is a project file, usually committed", p)
	}
	assert.Equal(t, 3, strings.Count(out, "is a project file"), "user files get no note:\n%s", out)
	assert.Contains(t, out, "to keep it to yourself, move the servers to "+filepath.Join(home, ".gemini", "settings.json"))

	code, _, errOut = runCmd(t, "unwrap")
	require.Equal(t, 0, code, errOut)
	for p, doc := range files {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		if strings.HasSuffix(p, "pw.yaml") {
			doc = strings.Replace(doc, "npx\n", "npx\n    args: []\n", 1) // Wrap added args, Unwrap keeps an empty list
		}
		assert.Equal(t, doc, string(b), p)
	}

	// A file named with --config is read in its client's format.
	toml := filepath.Join(t.TempDir(), "codex.toml")
	require.NoError(t, os.WriteFile(toml, []byte(files[filepath.Join(home, ".codex", "config.toml")]), 0o600))
	code, out, errOut = runCmd(t, "wrap", "--client", "codex", "--config", toml, "--dry-run")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "docs: would be wrapped")
}

func mkdir(t *testing.T, dir string) string {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o700))
	return dir
}
