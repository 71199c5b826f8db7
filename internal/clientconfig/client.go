package clientconfig

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// Client is an MCP client whose configuration flowd knows how to find.
type Client string

const (
	ClaudeDesktop Client = "claude-desktop"
	ClaudeCode    Client = "claude-code"
	Cursor        Client = "cursor"
	VSCode        Client = "vscode"
	Windsurf      Client = "windsurf"
	Cline         Client = "cline"
	Zed           Client = "zed"
	GeminiCLI     Client = "gemini-cli"
	Codex         Client = "codex"
	Continue      Client = "continue"
)

// Clients lists every known client, in the order they are reported.
var Clients = []Client{ClaudeDesktop, ClaudeCode, Cursor, VSCode, Windsurf, Cline, Zed, GeminiCLI, Codex, Continue}

// Names lists the clients' names for a usage message.
func Names() string {
	names := make([]string, len(Clients))
	for i, c := range Clients {
		names[i] = string(c)
	}
	return strings.Join(names, ", ")
}

// ParseClient checks a client name given on the command line.
func ParseClient(s string) (Client, error) {
	for _, c := range Clients {
		if string(c) == s {
			return c, nil
		}
	}
	return "", fmt.Errorf("unknown client %q: want one of %s", s, Names())
}

// Env is everything the location of a client's files depends on, so the
// rules for every platform can be tested on any platform.
type Env struct {
	GOOS   string
	Home   string
	Dir    string // the current directory, which holds project-level files
	Getenv func(string) string
	// Glob lists the files matching a pattern (filepath.Glob), for
	// clients that keep one file per server; nil finds none.
	Glob func(pattern string) ([]string, error)
}

// CurrentEnv is this process's Env.
func CurrentEnv() (Env, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return Env{}, fmt.Errorf("find the home directory: %w", err)
	}
	dir, err := os.Getwd()
	if err != nil {
		return Env{}, fmt.Errorf("find the current directory: %w", err)
	}
	return Env{GOOS: runtime.GOOS, Home: home, Dir: dir, Getenv: os.Getenv, Glob: filepath.Glob}, nil
}

// Location is one file where a client may keep MCP servers.
type Location struct {
	Path   string
	Format Format
	// Project: the file belongs to the project in the current directory,
	// and is usually committed and shared with a team, so a path of this
	// user's written into it is wrong for everyone else.
	Project bool
}

// Locations lists the files where c may keep MCP servers, user-wide files
// first. None of them need exist.
func (c Client) Locations(e Env) []Location {
	user := func(f Format, paths ...string) []Location {
		out := make([]Location, len(paths))
		for i, p := range paths {
			out[i] = Location{Path: p, Format: f}
		}
		return out
	}
	// withProject adds the project's file, unless the current directory is
	// the home directory, where it is the user file itself.
	withProject := func(f Format, userPath, project string) []Location {
		out := user(f, userPath)
		if e.Dir != "" && project != userPath {
			out = append(out, Location{Path: project, Format: f, Project: true})
		}
		return out
	}
	switch c {
	case ClaudeDesktop:
		switch e.GOOS {
		case "darwin":
			return user(claudeJSON, e.join(e.Home, "Library", "Application Support", "Claude", "claude_desktop_config.json"))
		case "windows":
			return user(claudeJSON, e.join(e.appData(), "Claude", "claude_desktop_config.json"))
		}
		// Electron's appData directory, which honours XDG_CONFIG_HOME.
		return user(claudeJSON, e.join(e.xdgConfig(), "Claude", "claude_desktop_config.json"))
	case ClaudeCode:
		dir := e.Getenv("CLAUDE_CONFIG_DIR") // Claude Code moves ~/.claude.json there too
		if dir == "" {
			dir = e.Home
		}
		return withProject(claudeJSON, e.join(dir, ".claude.json"), e.join(e.Dir, ".mcp.json"))
	case Cursor:
		return withProject(claudeJSON, e.join(e.Home, ".cursor", "mcp.json"), e.join(e.Dir, ".cursor", "mcp.json"))
	case VSCode:
		// code.visualstudio.com/docs/copilot/reference/mcp-configuration:
		// "servers" in mcp.json, in the user profile (beside settings.json)
		// or the workspace's .vscode/; JSON with comments.
		return withProject(vscodeJSON, e.join(e.vscodeUser(), "mcp.json"), e.join(e.Dir, ".vscode", "mcp.json"))
	case Windsurf:
		// "mcpServers" in one file of the user's, under the home directory
		// on every system; remote servers have a serverUrl (checked against
		// alivemcp.com/seo/mcp-server-windsurf and syllago.dev's Windsurf
		// page, 2026-11).
		return user(mcpServers, e.join(e.Home, ".codeium", "windsurf", "mcp_config.json"))
	case Cline:
		// Cline, the VS Code extension saoudrizwan.claude-dev, keeps
		// "mcpServers" in its global storage, never in the workspace; remote
		// servers have a url and type "streamableHttp" or "sse" (checked
		// against alperhankendi.github.io/Ctxo/docs/integrations/cline and
		// syllago.dev's Cline page, 2026-11).
		return user(mcpServers, e.join(e.vscodeUser(), "globalStorage", "saoudrizwan.claude-dev", "settings", "cline_mcp_settings.json"))
	case Zed:
		// zed.dev/docs/ai/mcp: "context_servers" in settings.json (JSON with
		// comments), command + args + env, or a url; the older
		// "command": {path, args, env} shape per syllago.dev's Zed page.
		// ~/.config/zed on Linux and macOS (XDG_CONFIG_HOME honoured),
		// %APPDATA%\Zed on Windows.
		if e.GOOS == "windows" {
			return user(zedJSON, e.join(e.appData(), "Zed", "settings.json"))
		}
		return user(zedJSON, e.join(e.xdgConfig(), "zed", "settings.json"))
	case GeminiCLI:
		// geminicli.com/docs/cli/configuration and docs/tools/mcp-server.md
		// in google-gemini/gemini-cli: "mcpServers" in ~/.gemini/settings.json
		// and the project's .gemini/settings.json; remote servers have a url
		// or an httpUrl.
		return withProject(geminiJSON, e.join(e.Home, ".gemini", "settings.json"), e.join(e.Dir, ".gemini", "settings.json"))
	case Codex:
		// docs/config.md in openai/codex: [mcp_servers.NAME] tables with
		// command, args, env (or a url) in $CODEX_HOME/config.toml
		// (~/.codex); a trusted project's .codex/config.toml is read too
		// (per docs.rs/tuff-adapter-codex, checked on Codex CLI 0.154).
		home := e.Getenv("CODEX_HOME")
		if home == "" {
			home = e.join(e.Home, ".codex")
		}
		return withProject(codexTOML, e.join(home, "config.toml"), e.join(e.Dir, ".codex", "config.toml"))
	case Continue:
		// docs.continue.dev/customize/deep-dives/mcp: an "mcpServers" list
		// in ~/.continue/config.yaml, and block files in .continue/mcpServers/,
		// the user's and the workspace's: YAML, or JSON copied from another
		// client.
		out := user(continueYML, e.join(e.Home, ".continue", "config.yaml"))
		for _, p := range e.glob(e.join(e.Home, ".continue", "mcpServers")) {
			out = append(out, Location{Path: p, Format: FormatOf(p)})
		}
		if e.Dir != "" && e.Dir != e.Home {
			for _, p := range e.glob(e.join(e.Dir, ".continue", "mcpServers")) {
				out = append(out, Location{Path: p, Format: FormatOf(p), Project: true})
			}
		}
		return out
	}
	return nil
}

// Paths lists the files of c's Locations.
func (c Client) Paths(e Env) []string {
	var out []string
	for _, l := range c.Locations(e) {
		out = append(out, l.Path)
	}
	return out
}

// vscodeUser is VS Code's user directory, which holds its settings.
func (e Env) vscodeUser() string {
	switch e.GOOS {
	case "darwin":
		return e.join(e.Home, "Library", "Application Support", "Code", "User")
	case "windows":
		return e.join(e.appData(), "Code", "User")
	}
	return e.join(e.xdgConfig(), "Code", "User")
}

func (e Env) appData() string {
	if d := e.Getenv("APPDATA"); d != "" {
		return d
	}
	return e.join(e.Home, "AppData", "Roaming")
}

func (e Env) xdgConfig() string {
	if d := e.Getenv("XDG_CONFIG_HOME"); d != "" {
		return d
	}
	return e.join(e.Home, ".config")
}

// glob lists the block files in dir: YAML and JSON, sorted.
func (e Env) glob(dir string) []string {
	if e.Glob == nil {
		return nil
	}
	var out []string
	for _, ext := range []string{"*.yaml", "*.yml", "*.json"} {
		m, _ := e.Glob(e.join(dir, ext)) // the only error is a malformed pattern
		out = append(out, m...)
	}
	return out
}

func (e Env) join(parts ...string) string {
	sep := "/"
	if e.GOOS == "windows" {
		sep = `\`
	}
	for i, p := range parts {
		if i > 0 {
			p = strings.TrimLeft(p, `/\`)
		}
		if i < len(parts)-1 {
			p = strings.TrimRight(p, `/\`)
		}
		parts[i] = p
	}
	return strings.Join(parts, sep)
}

// projectDirs hold the project-level config files of the clients: a
// file under one of them, outside the home directory, belongs to a
// project.
var projectDirs = []string{".vscode", ".cursor", ".gemini", ".codex"}

// ProjectFile reports whether path looks like a project's config file,
// usually committed and shared, for a file named on the command line.
func ProjectFile(home, path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	dir := filepath.Dir(abs)
	if filepath.Base(abs) == ".mcp.json" {
		return true
	}
	if filepath.Base(dir) == "mcpServers" {
		dir = filepath.Dir(dir) // .continue/mcpServers/NAME.yaml
		if filepath.Base(dir) != ".continue" {
			return false
		}
	} else if !slices.Contains(projectDirs, filepath.Base(dir)) {
		return false
	}
	return filepath.Dir(dir) != filepath.Clean(home)
}
