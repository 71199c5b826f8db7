package claudecode

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/flowd-dev/flowd/internal/jsonedit"
)

// Scope is which of Claude Code's settings files holds the hooks.
type Scope string

const (
	User    Scope = "user"    // ~/.claude/settings.json: every project of this user
	Project Scope = "project" // <dir>/.claude/settings.json: committed, shared with the team
	Local   Scope = "local"   // <dir>/.claude/settings.local.json: this checkout only
)

// Scopes lists every scope, in the order Status reports them.
var Scopes = []Scope{User, Project, Local}

// ParseScope checks a scope given on the command line.
func ParseScope(s string) (Scope, error) {
	for _, sc := range Scopes {
		if string(sc) == s {
			return sc, nil
		}
	}
	return "", fmt.Errorf("unknown scope %q: want user, project or local", s)
}

// SettingsPath is the settings file of scope. dir is the project directory
// for the project and local scopes; the user scope honours
// CLAUDE_CONFIG_DIR as Claude Code does.
func SettingsPath(scope Scope, dir string) (string, error) {
	switch scope {
	case User:
		if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
			return filepath.Join(d, "settings.json"), nil
		}
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("find the user's Claude Code settings: %w", err)
		}
		return filepath.Join(home, ".claude", "settings.json"), nil
	case Project, Local:
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", fmt.Errorf("project directory %q: %w", dir, err)
		}
		name := "settings.json"
		if scope == Local {
			name = "settings.local.json"
		}
		return filepath.Join(abs, ".claude", name), nil
	}
	return "", fmt.Errorf("unknown scope %q", scope)
}

// BackupSuffix names the copy of a settings file taken before flowd
// rewrites it.
const BackupSuffix = jsonedit.BackupSuffix

// Change is what Install or Uninstall did to a settings file.
type Change = jsonedit.Change

// Install puts flowd's hooks into the settings file at path, creating it
// if needed.
func Install(path string, o HookOptions) (Change, error) {
	return WriteHooks(path, "Claude Code", what, o.Binary, func(b []byte) ([]byte, error) { return AddHooks(b, o) })
}

// WriteHooks puts flowd's hooks into an agent's settings file at path
// with add, creating the file if needed: Install for every agent. The
// hook binary must be an absolute path, as agents run hooks from changing
// directories. agent names the agent, and what its file, in errors.
func WriteHooks(path, agent, what, binary string, add func([]byte) ([]byte, error)) (Change, error) {
	if !filepath.IsAbs(binary) {
		return Change{}, fmt.Errorf("hook binary %q is not an absolute path: %s runs hooks from changing directories", binary, agent)
	}
	return jsonedit.Rewrite(path, what, func(b []byte) ([]byte, int, error) {
		out, err := add(b)
		return out, 0, err
	})
}

// Uninstall removes flowd's hooks, and nothing else, from the settings file
// at path. A missing file is nothing to do.
func Uninstall(path string) (Change, error) {
	return jsonedit.Rewrite(path, what, RemoveHooks)
}

// Installation is what an agent's settings file says about flowd.
type Installation struct {
	Path    string
	Exists  bool
	Entries []Entry
	// HooksDisabled: the file turns flowd's hooks off, with every other
	// hook or by name (Claude Code's "disableAllHooks": true).
	HooksDisabled bool
}

const what = "Claude Code settings"

// Inspect reads the settings file at path; a missing file is an empty
// Installation, not an error.
func Inspect(path string) (Installation, error) {
	return ReadHooks(path, what, FindHooks)
}

// ReadHooks reads an agent's settings file at path with find, which lists
// flowd's hooks in it and says whether the file turns them off: Inspect
// for every agent. A missing file is an empty Installation, not an error;
// what names the file in errors.
func ReadHooks(path, what string, find func([]byte) ([]Entry, bool, error)) (Installation, error) {
	in := Installation{Path: path}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return in, nil
	}
	if err != nil {
		return in, fmt.Errorf("read %s %s: %w", what, path, err)
	}
	in.Exists = true
	if in.Entries, in.HooksDisabled, err = find(b); err != nil {
		return in, fmt.Errorf("read %s %s: %w", what, path, err)
	}
	for i, e := range in.Entries {
		st, err := os.Stat(e.Binary)
		in.Entries[i].BinaryExists = err == nil && !st.IsDir()
	}
	return in, nil
}

// HookFile is an agent's hooks file in Claude Code's shape (Gemini CLI's
// settings.json, Codex's hooks.json): flowd's hooks there are, for each
// of Events, a matcher group of one hook, Hook(command).
type HookFile struct {
	Agent  string // the agent as `hook evaluate --agent` names it
	Title  string // the agent in errors: "Codex"
	What   string // the file in errors: "Codex hooks"
	Events []string
	// Matcher selects the tools each group's hook runs for.
	Matcher string
	Hook    func(command string) any
}

// Add returns a hooks file with flowd's hooks, every other byte as it
// was. o.Binary is the hook program's absolute path; o.Agent is h's.
func (h HookFile) Add(file []byte, o HookOptions) ([]byte, error) {
	o.Agent = h.Agent
	return AddGroups(file, h.Events, func(event string) json.RawMessage {
		return jsonedit.Marshal(matcherGroup{Matcher: h.Matcher, Hooks: []any{h.Hook(Command(o, event))}})
	})
}

// Install puts flowd's hooks into the hooks file at path, creating it if
// needed.
func (h HookFile) Install(path string, o HookOptions) (Change, error) {
	return WriteHooks(path, h.Title, h.What, o.Binary, func(b []byte) ([]byte, error) { return h.Add(b, o) })
}

// Uninstall removes flowd's hooks, and nothing else, from the hooks file
// at path.
func (h HookFile) Uninstall(path string) (Change, error) {
	return jsonedit.Rewrite(path, h.What, RemoveHooks)
}
