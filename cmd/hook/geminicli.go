package main

import (
	"errors"
	"strings"

	"github.com/flowd-dev/flowd/internal/claudecode"
	"github.com/flowd-dev/flowd/internal/geminicli"
	"github.com/flowd-dev/flowd/internal/hookproto"
	"github.com/flowd-dev/flowd/internal/sessionid"
)

type geminiCLI struct{}

func (geminiCLI) events() []string { return geminicli.Events }

func (geminiCLI) gates(event string) bool { return event == geminicli.BeforeTool }

// parse only checks the payload: Gemini CLI runs hooks and MCP servers as
// its own children, so the process hints already join them in a session.
func (geminiCLI) parse(payload []byte, _ *sessionid.Hints) error {
	_, err := geminicli.Translate("", payload)
	return err
}

func (geminiCLI) output(event string, v hookproto.Verdict) []byte {
	return geminicli.Output(event, verdict(v))
}

func (geminiCLI) failedOpen(event string, err error) []byte {
	return claudecode.FailedOpenAnswer(event, err.Error())
}

func (geminiCLI) install(scope, dir string, o claudecode.HookOptions) (string, error) {
	if err := onlyClaude(o); err != nil {
		return "", err
	}
	path, err := geminicli.SettingsPath(scope, dir)
	if err != nil {
		return "", err
	}
	ch, err := geminicli.Install(path, o)
	return describe(ch, "installed flowd's Gemini CLI hooks ("+strings.Join(geminicli.Events, ", ")+") in"), err
}

func (geminiCLI) uninstall(scope, dir string) (string, error) {
	path, err := geminicli.SettingsPath(scope, dir)
	if err != nil {
		return "", err
	}
	ch, err := geminicli.Uninstall(path)
	return describe(ch, "removed flowd's Gemini CLI hooks from"), err
}

func (geminiCLI) status(dir string) ([]scopeStatus, error) {
	return statuses(geminicli.Scopes, dir, geminicli.SettingsPath, geminicli.Inspect,
		`"hooksConfig": {"enabled": false}, or "flowd" in "hooksConfig": {"disabled": […]},`)
}

// onlyClaude refuses the install options that only Claude Code's hooks
// have: flowd cannot replace another agent's tool output yet, and their
// after-tool hooks already run in step with the calls.
func onlyClaude(o claudecode.HookOptions) error {
	if o.AsyncPost || o.ScanOutput {
		return errors.New("--async-post and --scan-output are for --agent claude-code only")
	}
	return nil
}

func verdict(v hookproto.Verdict) claudecode.Verdict {
	return claudecode.Verdict{Decision: v.Decision, Reason: v.Reason, AdditionalContext: v.AdditionalContext,
		UpdatedOutput: v.UpdatedOutput}
}
