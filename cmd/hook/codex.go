package main

import (
	"fmt"
	"strings"

	"github.com/flowd-dev/flowd/internal/claudecode"
	"github.com/flowd-dev/flowd/internal/codex"
	"github.com/flowd-dev/flowd/internal/hookproto"
	"github.com/flowd-dev/flowd/internal/sessionid"
)

type codexAgent struct{}

func (codexAgent) events() []string { return codex.Events }

func (codexAgent) gates(event string) bool { return event == codex.Events[0] }

// parse only checks the payload: Codex runs hooks and MCP servers as its
// own children, so the process hints already join them in a session.
func (codexAgent) parse(payload []byte, _ *sessionid.Hints) error {
	_, err := codex.Translate("", payload)
	return err
}

func (codexAgent) output(event string, v hookproto.Verdict) []byte {
	return codex.Output(event, verdict(v))
}

func (codexAgent) failedOpen(event string, err error) []byte {
	return claudecode.FailedOpenAnswer(event, err.Error())
}

func (codexAgent) install(scope, dir string, o claudecode.HookOptions) (string, error) {
	if err := onlyClaude(o); err != nil {
		return "", err
	}
	path, err := codex.HooksPath(scope, dir)
	if err != nil {
		return "", err
	}
	ch, err := codex.Install(path, o)
	msg := describe(ch, "installed flowd's Codex hooks ("+strings.Join(codex.Events, ", ")+") in")
	if ch.Changed {
		msg += "\nCodex runs them only once you trust them: answer its \"Hooks need review\" prompt at the next start" +
			" (codex exec, which cannot prompt, skips untrusted hooks)"
	}
	return msg, err
}

func (codexAgent) uninstall(scope, dir string) (string, error) {
	path, err := codex.HooksPath(scope, dir)
	if err != nil {
		return "", err
	}
	ch, err := codex.Uninstall(path)
	return describe(ch, "removed flowd's Codex hooks from"), err
}

// status adds what Codex's own config says of the hooks it found: Codex
// keeps its switches and its trust there, not in the hooks file, and an
// untrusted hook is one codex exec skips without a word.
func (codexAgent) status(dir string) ([]scopeStatus, error) {
	out, err := statuses(codex.Scopes, dir, codex.HooksPath, codex.Inspect, "")
	if err != nil {
		return out, err
	}
	for i, s := range out {
		if len(s.Entries) == 0 {
			continue
		}
		r, err := codex.ReviewFile(s.Path, s.Entries)
		if err != nil {
			return out, err
		}
		if r.HooksOff {
			out[i].problems = append(out[i].problems, "features.hooks = false in Codex's config.toml turns every hook off")
		}
		if len(r.Untrusted) > 0 {
			out[i].problems = append(out[i].problems, fmt.Sprintf("Codex has not trusted %d of them, so it does not run them:"+
				" answer its \"Hooks need review\" prompt at the next start of codex (or trust them in /hooks)", len(r.Untrusted)))
		}
		if len(r.Disabled) > 0 {
			out[i].problems = append(out[i].problems, fmt.Sprintf("%d of them are switched off in Codex (/hooks)", len(r.Disabled)))
		}
	}
	return out, nil
}
