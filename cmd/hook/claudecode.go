package main

import (
	"strings"

	"github.com/flowd-dev/flowd/internal/claudecode"
	"github.com/flowd-dev/flowd/internal/hookproto"
	"github.com/flowd-dev/flowd/internal/sessionid"
)

type claudeCode struct{}

func (claudeCode) events() []string { return claudecode.Events }

func (claudeCode) gates(event string) bool { return event == claudecode.PreToolUse }

func (claudeCode) parse(payload []byte, h *sessionid.Hints) error {
	p, err := claudecode.ParsePayload(payload)
	if err != nil {
		return err
	}
	// Claude Code exports the same ID to hooks and MCP servers; the payload
	// still has it when a wrapper cleared the environment.
	if h.Explicit == "" && h.ClaudeCode == "" {
		h.ClaudeCode = p.SessionID
	}
	return nil
}

func (claudeCode) output(event string, v hookproto.Verdict) []byte {
	return claudecode.Output(event, claudecode.Verdict{Decision: v.Decision, Reason: v.Reason,
		AdditionalContext: v.AdditionalContext, UpdatedOutput: v.UpdatedOutput})
}

func (claudeCode) failedOpen(string, error) []byte { return nil }

func (claudeCode) install(scope, dir string, o claudecode.HookOptions) (string, error) {
	path, err := claudeSettings(scope, dir)
	if err != nil {
		return "", err
	}
	ch, err := claudecode.Install(path, o)
	return describe(ch, "installed flowd's Claude Code hooks ("+joinEvents()+") in"), err
}

func (claudeCode) uninstall(scope, dir string) (string, error) {
	path, err := claudeSettings(scope, dir)
	if err != nil {
		return "", err
	}
	ch, err := claudecode.Uninstall(path)
	return describe(ch, "removed flowd's Claude Code hooks from"), err
}

func (claudeCode) status(dir string) ([]scopeStatus, error) {
	var scopes []string
	for _, sc := range claudecode.Scopes {
		scopes = append(scopes, string(sc))
	}
	return statuses(scopes, dir, claudeSettings, claudecode.Inspect, "")
}

func claudeSettings(scope, dir string) (string, error) {
	sc, err := claudecode.ParseScope(scope)
	if err != nil {
		return "", err
	}
	return claudecode.SettingsPath(sc, dir)
}

func joinEvents() string { return strings.Join(claudecode.Events, ", ") }

func describe(ch claudecode.Change, did string) string {
	if !ch.Changed {
		return "nothing to change in " + ch.Path
	}
	msg := did + " " + ch.Path
	if ch.Backup != "" {
		msg += " (previous version: " + ch.Backup + ")"
	}
	return msg
}
