package clientconfig

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPaths(t *testing.T) {
	env := func(goos, home, dir string, vars map[string]string) Env {
		return Env{GOOS: goos, Home: home, Dir: dir, Getenv: func(k string) string { return vars[k] }}
	}
	mac := env("darwin", "/Users/ana", "/Users/ana/src/x", nil)
	linux := env("linux", "/home/ana", "/home/ana/src/x", nil)
	xdg := env("linux", "/home/ana", "/home/ana", map[string]string{"XDG_CONFIG_HOME": "/home/ana/.cfg/", "CLAUDE_CONFIG_DIR": "/home/ana/.claude-work"})
	win := env("windows", `C:\Users\Ana`, `D:\src\x`, map[string]string{"APPDATA": `C:\Users\Ana\AppData\Roaming`})
	winNoAppData := env("windows", `C:\Users\Ana`, `C:\Users\Ana`, nil)

	tests := []struct {
		client Client
		env    Env
		want   []string
	}{
		{ClaudeDesktop, mac, []string{"/Users/ana/Library/Application Support/Claude/claude_desktop_config.json"}},
		{ClaudeDesktop, linux, []string{"/home/ana/.config/Claude/claude_desktop_config.json"}},
		{ClaudeDesktop, xdg, []string{"/home/ana/.cfg/Claude/claude_desktop_config.json"}},
		{ClaudeDesktop, win, []string{`C:\Users\Ana\AppData\Roaming\Claude\claude_desktop_config.json`}},
		{ClaudeDesktop, winNoAppData, []string{`C:\Users\Ana\AppData\Roaming\Claude\claude_desktop_config.json`}},
		{ClaudeCode, mac, []string{"/Users/ana/.claude.json", "/Users/ana/src/x/.mcp.json"}},
		{ClaudeCode, xdg, []string{"/home/ana/.claude-work/.claude.json", "/home/ana/.mcp.json"}},
		{ClaudeCode, win, []string{`C:\Users\Ana\.claude.json`, `D:\src\x\.mcp.json`}},
		{Cursor, linux, []string{"/home/ana/.cursor/mcp.json", "/home/ana/src/x/.cursor/mcp.json"}},
		{Cursor, xdg, []string{"/home/ana/.cursor/mcp.json"}}, // in the home directory the project file is the user file
		{Cursor, win, []string{`C:\Users\Ana\.cursor\mcp.json`, `D:\src\x\.cursor\mcp.json`}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.client.Paths(tt.env), "%s on %s", tt.client, tt.env.GOOS)
	}
}

func TestParseClient(t *testing.T) {
	for _, c := range Clients {
		got, err := ParseClient(string(c))
		require.NoError(t, err)
		assert.Equal(t, c, got)
	}
	_, err := ParseClient("notepad")
	assert.ErrorContains(t, err, `unknown client "notepad"`)
}
