package geminicli

import (
	"encoding/json"
	"slices"

	"github.com/flowd-dev/flowd/internal/claudecode"
	"github.com/flowd-dev/flowd/internal/jsonedit"
)

// Scopes are the settings files flowd installs into: ~/.gemini/settings.json
// and <dir>/.gemini/settings.json. The system file needs root and is left
// to whoever manages the machine.
var Scopes = []string{"user", "project"}

// SettingsPath is the settings file of scope; dir is the project directory.
func SettingsPath(scope, dir string) (string, error) {
	return jsonedit.AgentFile("Gemini CLI", ".gemini", "settings.json", scope, dir)
}

// Matcher selects every tool: Gemini CLI's built-ins have no common
// pattern, and a tool flowd does not see is a hole.
const Matcher = ".*"

// Timeout is how long, in milliseconds, Gemini CLI waits for the hook;
// the hook gives up on flowd well before that (evaluate --timeout).
const Timeout = 10000

// HookName is the name flowd's hooks carry in Gemini CLI's /hooks panel.
const HookName = "flowd"

type hookEntry struct {
	Name    string `json:"name"`
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout"`
}

// hookFile is flowd's part of Gemini CLI's settings.json.
var hookFile = claudecode.HookFile{Agent: Agent, Title: "Gemini CLI", What: "Gemini CLI settings", Events: Events, Matcher: Matcher,
	Hook: func(command string) any {
		return hookEntry{Name: HookName, Type: "command", Command: command, Timeout: Timeout}
	}}

// AddHooks returns settings with flowd's BeforeTool and AfterTool hooks,
// every other byte as it was. o.Binary is the hook program's absolute path.
func AddHooks(settings []byte, o claudecode.HookOptions) ([]byte, error) {
	return hookFile.Add(settings, o)
}

// Install puts flowd's hooks into the settings file at path, creating it
// if needed.
func Install(path string, o claudecode.HookOptions) (jsonedit.Change, error) {
	return hookFile.Install(path, o)
}

// Uninstall removes flowd's hooks, and nothing else, from the settings
// file at path.
func Uninstall(path string) (jsonedit.Change, error) { return hookFile.Uninstall(path) }

// Inspect reads the settings file at path; a missing file is an empty
// Installation, not an error. HooksDisabled is HooksOff.
func Inspect(path string) (claudecode.Installation, error) {
	return claudecode.ReadHooks(path, hookFile.What, func(b []byte) ([]claudecode.Entry, bool, error) {
		entries, _, err := claudecode.FindHooks(b) // Claude Code's disableAllHooks is no switch here
		return entries, HooksOff(b), err
	})
}

// HooksOff reports whether settings turn hooks off, or disable flowd's by
// name: "hooksConfig": {"enabled": false} or {"disabled": ["flowd"]} in
// Gemini CLI 0.61, "hooks": {"enabled": false} or "tools": {"enableHooks":
// false} in earlier versions.
func HooksOff(settings []byte) bool {
	// Gemini CLI reads the switches in JavaScript: only false turns
	// hooks off, any other value of another type is truthy.
	type switches struct {
		Enabled  json.RawMessage `json:"enabled"`
		Disabled []string        `json:"disabled"`
	}
	var s struct {
		HooksConfig switches `json:"hooksConfig"`
		Hooks       switches `json:"hooks"`
		Tools       struct {
			EnableHooks json.RawMessage `json:"enableHooks"`
		} `json:"tools"`
	}
	json.Unmarshal(settings, &s) // a member of another type is no switch
	off := func(v json.RawMessage) bool { return string(v) == "false" }
	return off(s.HooksConfig.Enabled) || off(s.Hooks.Enabled) || off(s.Tools.EnableHooks) ||
		slices.Contains(s.HooksConfig.Disabled, HookName) || slices.Contains(s.Hooks.Disabled, HookName)
}
