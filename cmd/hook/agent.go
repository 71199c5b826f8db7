package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/flowd-dev/flowd/internal/claudecode"
	"github.com/flowd-dev/flowd/internal/codex"
	"github.com/flowd-dev/flowd/internal/cursor"
	"github.com/flowd-dev/flowd/internal/geminicli"
	"github.com/flowd-dev/flowd/internal/hookproto"
	"github.com/flowd-dev/flowd/internal/sessionid"
)

// An agent is one coding agent's hook protocol and settings. Adding an
// agent is one more file with one more implementation.
type agent interface {
	// events are the hook events `evaluate --event` accepts.
	events() []string
	// gates reports whether the agent waits on event before running a
	// tool, so that a failure to ask flowd can deny it (--fail-closed).
	gates(event string) bool
	// parse checks a payload and adds what it tells about the session.
	parse(payload []byte, h *sessionid.Hints) error
	// output is what to print on stdout for the verdict; nil prints nothing.
	output(event string, v hookproto.Verdict) []byte
	// failedOpen is what to print on stdout when flowd could not be asked
	// and the call goes on unchecked; nil prints nothing.
	failedOpen(event string, err error) []byte
	install(scope, dir string, o claudecode.HookOptions) (string, error)
	uninstall(scope, dir string) (string, error)
	status(dir string) ([]scopeStatus, error)
}

// scopeStatus is one settings file's part in `hook status`.
type scopeStatus struct {
	scope string
	claudecode.Installation
	disabledBy string // what in the file turns flowd's hooks off; "" for Claude Code's disableAllHooks
	// problems are what the agent's own config says against running them
	// (Codex's trust and switches).
	problems []string
}

// statuses reads the settings file of each scope for `hook status`.
func statuses(scopes []string, dir string, path func(scope, dir string) (string, error),
	inspect func(path string) (claudecode.Installation, error), disabledBy string) ([]scopeStatus, error) {
	var out []scopeStatus
	for _, sc := range scopes {
		p, err := path(sc, dir)
		if err != nil {
			return out, err
		}
		in, err := inspect(p)
		if err != nil {
			return out, err
		}
		out = append(out, scopeStatus{scope: sc, Installation: in, disabledBy: disabledBy})
	}
	return out, nil
}

const defaultAgent = "claude-code"

var agents = map[string]agent{
	"claude-code":   claudeCode{},
	geminicli.Agent: geminiCLI{},
	cursor.Agent:    cursorAgent{},
	codex.Agent:     codexAgent{},
}

func lookupAgent(name string) (agent, error) {
	if a, ok := agents[name]; ok {
		return a, nil
	}
	return nil, fmt.Errorf("unknown agent %q (supported: %s)", name, supportedAgents())
}

func supportedAgents() string {
	names := make([]string, 0, len(agents))
	for n := range agents {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}
