package clientconfig

import (
	"path/filepath"
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

func TestLocations(t *testing.T) {
	glob := func(files ...string) func(string) ([]string, error) {
		return func(pattern string) ([]string, error) {
			var out []string
			for _, f := range files {
				if ok, _ := filepath.Match(pattern, f); ok {
					out = append(out, f)
				}
			}
			return out, nil
		}
	}
	linux := Env{GOOS: "linux", Home: "/home/ana", Dir: "/home/ana/src/x", Getenv: func(string) string { return "" },
		Glob: glob("/home/ana/.continue/mcpServers/pw.yaml", "/home/ana/src/x/.continue/mcpServers/db.json", "/home/ana/src/x/.continue/mcpServers/notes.txt")}
	mac := Env{GOOS: "darwin", Home: "/Users/ana", Dir: "/Users/ana/x", Getenv: func(string) string { return "" }}
	win := Env{GOOS: "windows", Home: `C:\Users\Ana`, Dir: `D:\x`, Getenv: func(k string) string {
		return map[string]string{"APPDATA": `C:\Users\Ana\AppData\Roaming`, "CODEX_HOME": `D:\codex`}[k]
	}}
	tests := []struct {
		client Client
		env    Env
		want   []Location
	}{
		{VSCode, linux, []Location{{"/home/ana/.config/Code/User/mcp.json", vscodeJSON, false}, {"/home/ana/src/x/.vscode/mcp.json", vscodeJSON, true}}},
		{VSCode, mac, []Location{{"/Users/ana/Library/Application Support/Code/User/mcp.json", vscodeJSON, false}, {"/Users/ana/x/.vscode/mcp.json", vscodeJSON, true}}},
		{VSCode, win, []Location{{`C:\Users\Ana\AppData\Roaming\Code\User\mcp.json`, vscodeJSON, false}, {`D:\x\.vscode\mcp.json`, vscodeJSON, true}}},
		{Windsurf, win, []Location{{`C:\Users\Ana\.codeium\windsurf\mcp_config.json`, mcpServers, false}}},
		{Cline, mac, []Location{{"/Users/ana/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json", mcpServers, false}}},
		{Zed, mac, []Location{{"/Users/ana/.config/zed/settings.json", zedJSON, false}}},
		{Zed, win, []Location{{`C:\Users\Ana\AppData\Roaming\Zed\settings.json`, zedJSON, false}}},
		{GeminiCLI, linux, []Location{{"/home/ana/.gemini/settings.json", geminiJSON, false}, {"/home/ana/src/x/.gemini/settings.json", geminiJSON, true}}},
		{Codex, linux, []Location{{"/home/ana/.codex/config.toml", codexTOML, false}, {"/home/ana/src/x/.codex/config.toml", codexTOML, true}}},
		{Codex, win, []Location{{`D:\codex\config.toml`, codexTOML, false}, {`D:\x\.codex\config.toml`, codexTOML, true}}},
		{Continue, linux, []Location{{"/home/ana/.continue/config.yaml", continueYML, false}, {"/home/ana/.continue/mcpServers/pw.yaml", continueYML, false},
			{"/home/ana/src/x/.continue/mcpServers/db.json", anyJSON, true}}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.client.Locations(tt.env), "%s on %s", tt.client, tt.env.GOOS)
	}
}

func TestProjectFile(t *testing.T) {
	home := filepath.FromSlash("/home/ana")
	for path, want := range map[string]bool{
		"/home/ana/src/x/.vscode/mcp.json":             true,
		"/home/ana/src/x/.mcp.json":                    true,
		"/home/ana/src/x/.continue/mcpServers/pw.yaml": true,
		"/home/ana/.continue/mcpServers/pw.yaml":       false,
		"/home/ana/.gemini/settings.json":              false,
		"/home/ana/.cursor/mcp.json":                   false,
		"/home/ana/.config/Code/User/mcp.json":         false,
		"/home/ana/src/x/.codex/config.toml":           true,
		"/home/ana/src/x/mcpServers/pw.yaml":           false,
	} {
		assert.Equal(t, want, ProjectFile(home, filepath.FromSlash(path)), path)
	}
}

func TestFormatOf(t *testing.T) {
	for path, want := range map[string]Format{
		"/p/.vscode/mcp.json":                  vscodeJSON,
		"/h/.config/Code/User/mcp.json":        vscodeJSON,
		"/h/.config/zed/settings.json":         zedJSON,
		"/p/.gemini/settings.json":             geminiJSON,
		"/h/.codex/config.toml":                codexTOML,
		"/p/.continue/mcpServers/a.yml":        continueYML,
		"/h/.cursor/mcp.json":                  anyJSON,
		"/h/.vscode/settings.json":             anyJSON,
		"/h/.codeium/windsurf/mcp_config.json": anyJSON,
	} {
		assert.Equal(t, want, FormatOf(filepath.FromSlash(path)), path)
	}
}
