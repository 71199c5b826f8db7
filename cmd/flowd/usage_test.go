package main

import (
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Every command follows the conventions of the CLIs users know: -h and
// --help end with status 0, a usage error with 2, and a typo in a filter
// is a usage error rather than an empty answer.
func TestUsageConventions(t *testing.T) {
	t.Setenv("FLOWD_SOCKET", "/nonexistent/flowd.sock")
	commands := map[string]func([]string) error{
		"status":     cmdStatus,
		"activity":   cmdActivity,
		"doctor":     cmdDoctor,
		"classify":   cmdClassify,
		"config":     cmdConfig,
		"run":        cmdRun,
		"install":    cmdInstall,
		"uninstall":  cmdUninstall,
		"explain":    func(a []string) error { return cmdExplain(a, nil) },
		"quarantine": func(a []string) error { return cmdQuarantine(a, io.Discard, nil) },
		"pins":       func(a []string) error { return cmdPins(a, io.Discard, nil) },
		"passphrase": func(a []string) error { return cmdPassphrase(a, io.Discard, nil) },
		"stop":       func(a []string) error { return cmdControl("stop", a) },
		"ui":         func(a []string) error { return cmdUI(a, io.Discard) },
		"audit":      func(a []string) error { return cmdAudit(a, io.Discard) },
	}
	for name, cmd := range commands {
		for _, h := range []string{"-h", "--help"} {
			err := cmd([]string{h})
			if name == "quarantine" || name == "pins" || name == "audit" {
				assert.NoError(t, err, "%s %s", name, h)
				continue
			}
			assert.Equal(t, exitError(0), err, "%s %s", name, h)
		}
		assert.Equal(t, exitError(2), cmd([]string{"--no-such-flag"}), "%s --no-such-flag", name)
	}
	for _, args := range [][]string{
		{"check", "-h"},
	} {
		assert.Equal(t, exitError(0), cmdConfig(args), "config %v", args)
	}
	for _, args := range [][]string{
		{"--type", "toolcall"},
		{"--flow-type", "internal_to_external"},
		{"--risk-level", "severe"},
		{"--limit", "-1"},
		{"extra"},
	} {
		assert.Equal(t, exitError(2), cmdActivity(args), "activity %v", args)
	}
	assert.Equal(t, exitError(2), cmdStatus([]string{"extra"}))
	assert.Equal(t, exitError(2), cmdConfig([]string{"frobnicate"}))
	assert.Equal(t, exitError(2), cmdExplain([]string{"1", "2"}, nil))
}
