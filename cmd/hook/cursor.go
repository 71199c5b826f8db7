package main

import (
	"strings"

	"github.com/flowd-dev/flowd/internal/claudecode"
	"github.com/flowd-dev/flowd/internal/cursor"
	"github.com/flowd-dev/flowd/internal/hookproto"
	"github.com/flowd-dev/flowd/internal/sessionid"
)

type cursorAgent struct{}

func (cursorAgent) events() []string { return cursor.Events }

func (cursorAgent) gates(event string) bool { return cursor.Gates(event) }

// parse only checks the payload: Cursor runs hooks and MCP servers as its
// own children, so the process hints already join them in a session.
func (cursorAgent) parse(payload []byte, _ *sessionid.Hints) error {
	_, err := cursor.Translate("", payload)
	return err
}

func (cursorAgent) output(event string, v hookproto.Verdict) []byte {
	return cursor.Output(event, verdict(v))
}

func (cursorAgent) failedOpen(event string, err error) []byte {
	return cursor.FailedOpen(event, err.Error())
}

func (cursorAgent) install(scope, dir string, o claudecode.HookOptions) (string, error) {
	if err := onlyClaude(o); err != nil {
		return "", err
	}
	path, err := cursor.HooksPath(scope, dir)
	if err != nil {
		return "", err
	}
	ch, err := cursor.Install(path, o)
	return describe(ch, "installed flowd's Cursor hooks ("+strings.Join(cursor.Events, ", ")+") in"), err
}

func (cursorAgent) uninstall(scope, dir string) (string, error) {
	path, err := cursor.HooksPath(scope, dir)
	if err != nil {
		return "", err
	}
	ch, err := cursor.Uninstall(path)
	return describe(ch, "removed flowd's Cursor hooks from"), err
}

func (cursorAgent) status(dir string) ([]scopeStatus, error) {
	return statuses(cursor.Scopes, dir, cursor.HooksPath, cursor.Inspect, "")
}
