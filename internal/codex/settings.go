package codex

import (
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

// hookFile is flowd's part of Codex's hooks.json. Codex 0.171 runs a
// user's or project's hook only once the user has trusted it (its "Hooks
// need review" prompt, or /hooks); a changed command needs trusting
// again (ReviewHooks).
var hookFile = claudecode.HookFile{Agent: Agent, Title: "Codex", What: "Codex hooks", Events: Events, Matcher: Matcher,
	Hook: func(command string) any { return hookEntry{Type: "command", Command: command, Timeout: Timeout} }}

// AddHooks returns a hooks file with flowd's PreToolUse and PostToolUse
// hooks, every other byte as it was. o.Binary is the hook program's
// absolute path.
func AddHooks(file []byte, o claudecode.HookOptions) ([]byte, error) {
	return hookFile.Add(file, o)
}

// Install puts flowd's hooks into the hooks file at path, creating it if
// needed.
func Install(path string, o claudecode.HookOptions) (jsonedit.Change, error) {
	return hookFile.Install(path, o)
}

// Uninstall removes flowd's hooks, and nothing else, from the hooks file
// at path.
func Uninstall(path string) (jsonedit.Change, error) { return hookFile.Uninstall(path) }

// Inspect reads the hooks file at path; a missing file is an empty
// Installation, not an error. Codex's switches (features.hooks, a hook's
// enabled = false, and whether the user trusted it) live in config.toml
// and are not read here.
func Inspect(path string) (claudecode.Installation, error) {
	return claudecode.ReadHooks(path, hookFile.What, func(b []byte) ([]claudecode.Entry, bool, error) {
		entries, _, err := claudecode.FindHooks(b) // Claude Code's disableAllHooks is no switch here
		return entries, false, err
	})
}
