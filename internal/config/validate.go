package config

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

var (
	logLevels = []string{"debug", "info", "warn", "error"}
	failModes = []string{FailOpen, FailClosed}
	actions   = []string{ActionAllow, ActionWarn, ActionAsk, ActionDeny}
)

// fieldError is one invalid value, named by its key as written in the file.
type fieldError struct {
	key string
	msg string
}

func (f fieldError) String() string { return f.key + ": " + f.msg }

// Validate reports every invalid value in c, each named by its key.
func (c *Config) Validate() error {
	fails := c.validate()
	errs := make([]error, len(fails))
	for i, f := range fails {
		errs[i] = errors.New(f.String())
	}
	return errors.Join(errs...)
}

func (c *Config) validate() []fieldError {
	var v validator
	v.oneOf("daemon.log_level", c.Daemon.LogLevel, logLevels)

	v.oneOf("shim.fail_mode", c.Shim.FailMode, failModes)
	v.positiveDuration("shim.verdict_timeout", c.Shim.VerdictTimeout)
	v.positiveInt("shim.max_inspect_bytes", c.Shim.MaxInspectBytes)

	v.positiveDuration("activity.max_age", c.Activity.MaxAge)
	v.positiveInt("activity.max_records", c.Activity.MaxRecords)
	v.positiveDuration("activity.flush_interval", c.Activity.FlushInterval)

	v.oneOf("policy.default_action", c.Policy.DefaultAction, actions)
	tools := make([]string, 0, len(c.Policy.ToolOverrides))
	for tool := range c.Policy.ToolOverrides {
		tools = append(tools, tool)
	}
	sort.Strings(tools)
	for _, tool := range tools {
		key := formatKey([]string{"policy", "tool_overrides", tool})
		if tool == "" || strings.HasPrefix(tool, "/") || strings.HasSuffix(tool, "/") {
			v.fail(key, `want a tool name or "server/tool"`)
		}
		v.oneOf(key, c.Policy.ToolOverrides[tool], actions)
	}
	return v.fails
}

type validator struct {
	fails []fieldError
}

func (v *validator) fail(key, format string, args ...any) {
	v.fails = append(v.fails, fieldError{key: key, msg: fmt.Sprintf(format, args...)})
}

func (v *validator) oneOf(key, got string, allowed []string) {
	if slices.Contains(allowed, got) {
		return
	}
	quoted := make([]string, len(allowed))
	for i, a := range allowed {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	v.fail(key, "%q is not allowed; want one of %s", got, strings.Join(quoted, ", "))
}

func (v *validator) positiveInt(key string, got int) {
	if got <= 0 {
		v.fail(key, "%d is not allowed; want a positive number", got)
	}
}

func (v *validator) positiveDuration(key string, got Duration) {
	if got.Duration <= 0 {
		v.fail(key, "%s is not allowed; want a positive duration", got)
	}
}
