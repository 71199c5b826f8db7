package clientconfig

import (
	"fmt"
	"os"
	"runtime"
	"strings"
)

// Client is an MCP client whose configuration flowd knows how to find.
type Client string

const (
	ClaudeDesktop Client = "claude-desktop"
	ClaudeCode    Client = "claude-code"
	Cursor        Client = "cursor"
)

// Clients lists every known client, in the order they are reported.
var Clients = []Client{ClaudeDesktop, ClaudeCode, Cursor}

// ParseClient checks a client name given on the command line.
func ParseClient(s string) (Client, error) {
	for _, c := range Clients {
		if string(c) == s {
			return c, nil
		}
	}
	return "", fmt.Errorf("unknown client %q: want claude-desktop, claude-code or cursor", s)
}

// Env is everything the location of a client's files depends on, so the
// rules for every platform can be tested on any platform.
type Env struct {
	GOOS   string
	Home   string
	Dir    string // the current directory, which holds project-level files
	Getenv func(string) string
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
	return Env{GOOS: runtime.GOOS, Home: home, Dir: dir, Getenv: os.Getenv}, nil
}

// Paths lists the files where client may keep MCP servers, user-wide
// files first. None of them need exist.
func (c Client) Paths(e Env) []string {
	switch c {
	case ClaudeDesktop:
		switch e.GOOS {
		case "darwin":
			return []string{e.join(e.Home, "Library", "Application Support", "Claude", "claude_desktop_config.json")}
		case "windows":
			appData := e.Getenv("APPDATA")
			if appData == "" {
				appData = e.join(e.Home, "AppData", "Roaming")
			}
			return []string{e.join(appData, "Claude", "claude_desktop_config.json")}
		default:
			// Electron's appData directory, which honours XDG_CONFIG_HOME.
			cfg := e.Getenv("XDG_CONFIG_HOME")
			if cfg == "" {
				cfg = e.join(e.Home, ".config")
			}
			return []string{e.join(cfg, "Claude", "claude_desktop_config.json")}
		}
	case ClaudeCode:
		dir := e.Getenv("CLAUDE_CONFIG_DIR") // Claude Code moves ~/.claude.json there too
		if dir == "" {
			dir = e.Home
		}
		return e.withProject(e.join(dir, ".claude.json"), e.join(e.Dir, ".mcp.json"))
	case Cursor:
		return e.withProject(e.join(e.Home, ".cursor", "mcp.json"), e.join(e.Dir, ".cursor", "mcp.json"))
	}
	return nil
}

// withProject drops the project file when the current directory is the
// home directory, where it is the user file itself.
func (e Env) withProject(user, project string) []string {
	if e.Dir == "" || project == user {
		return []string{user}
	}
	return []string{user, project}
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
