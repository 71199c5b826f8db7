package codex

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/flowd-dev/flowd/internal/claudecode"
	"github.com/flowd-dev/flowd/internal/jsonedit"
)

// Scopes are the hooks files flowd installs into: $CODEX_HOME/hooks.json
// (~/.codex/hooks.json) and <dir>/.codex/hooks.json, which Codex reads
// only in a project the user trusts. Hooks in config.toml's [hooks] table
// are left alone: Codex runs both, and warns when one layer has both.
var Scopes = []string{"user", "project"}

// HooksPath is the hooks file of scope; dir is the project directory.
func HooksPath(scope, dir string) (string, error) {
	if home := os.Getenv("CODEX_HOME"); scope == "user" && home != "" {
		return filepath.Join(home, "hooks.json"), nil
	}
	return jsonedit.AgentFile("Codex", ".codex", "hooks.json", scope, dir)
}

// Matcher selects every tool: Codex's hook-facing names (Bash,
// apply_patch, mcp__…, and tools added in later versions) have no common
// pattern, and a tool flowd does not see is a hole.
const Matcher = ".*"

// Timeout is how long, in seconds, Codex waits for the hook (600 when not
// set); the hook gives up on flowd well before that (evaluate --timeout).
const Timeout = 10

type hookEntry struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout"`
}

type matcherGroup struct {
	Matcher string      `json:"matcher"`
	Hooks   []hookEntry `json:"hooks"`
}

// AddHooks returns a hooks file with flowd's PreToolUse and PostToolUse
// hooks, every other byte as it was. binary is the hook program's
// absolute path.
func AddHooks(file []byte, binary string, failClosed bool) ([]byte, error) {
	o := claudecode.HookOptions{Binary: binary, FailClosed: failClosed, Agent: Agent}
	return claudecode.AddGroups(file, Events, func(event string) json.RawMessage {
		return jsonedit.Marshal(matcherGroup{Matcher: Matcher, Hooks: []hookEntry{{Type: "command",
			Command: claudecode.Command(o, event), Timeout: Timeout}}})
	})
}

const what = "Codex hooks"

// Install puts flowd's hooks into the hooks file at path, creating it if
// needed. Codex 0.171 runs a user's or project's hook only once the user
// has trusted it (its "Hooks need review" prompt, or /hooks); a changed
// command needs trusting again.
func Install(path, binary string, failClosed bool) (jsonedit.Change, error) {
	return claudecode.WriteHooks(path, "Codex", what, binary, func(b []byte) ([]byte, error) {
		return AddHooks(b, binary, failClosed)
	})
}

// Uninstall removes flowd's hooks, and nothing else, from the hooks file
// at path.
func Uninstall(path string) (jsonedit.Change, error) {
	return jsonedit.Rewrite(path, what, claudecode.RemoveHooks)
}

// Inspect reads the hooks file at path; a missing file is an empty
// Installation, not an error. Codex's switches (features.hooks, a hook's
// enabled = false, and whether the user trusted it) live in config.toml
// and are not read here.
func Inspect(path string) (claudecode.Installation, error) {
	return claudecode.ReadHooks(path, what, func(b []byte) ([]claudecode.Entry, bool, error) {
		entries, _, err := claudecode.FindHooks(b) // Claude Code's disableAllHooks is no switch here
		return entries, false, err
	})
}
