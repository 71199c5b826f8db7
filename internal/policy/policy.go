package policy

import "fmt"

// Action is a policy outcome.
type Action string

const (
	Allow Action = "allow"
	Warn  Action = "warn" // allow, and record and alert
	Ask   Action = "ask"
	Deny  Action = "deny"
)

// Valid reports whether s names an action.
func Valid(s string) bool {
	switch Action(s) {
	case Allow, Warn, Ask, Deny:
		return true
	}
	return false
}

// Rules are the configured policy.
type Rules struct {
	DefaultAction Action
	// ToolOverrides maps a tool name, or "server/tool", to an action that
	// wins over every other rule. "server/tool" wins over a bare name.
	ToolOverrides map[string]Action
}

// Call is a tool call about to happen.
type Call struct {
	Server string
	Tool   string
}

// Decision is what to do with a call, and why.
type Decision struct {
	Action Action `json:"action"`
	Reason string `json:"reason,omitempty"`
	Rule   string `json:"rule,omitempty"` // which rule decided, for activity and explain
}

// Decide applies the rules to one call.
func (r Rules) Decide(c Call) Decision {
	if a, ok := r.ToolOverrides[c.Server+"/"+c.Tool]; ok {
		return overridden(a, c, c.Server+"/"+c.Tool)
	}
	if a, ok := r.ToolOverrides[c.Tool]; ok {
		return overridden(a, c, c.Tool)
	}
	a := r.DefaultAction
	if a == "" {
		a = Allow
	}
	d := Decision{Action: a, Rule: "default_action"}
	if a != Allow {
		d.Reason = fmt.Sprintf("default_action is %s", a)
	}
	return d
}

func overridden(a Action, c Call, key string) Decision {
	d := Decision{Action: a, Rule: "tool_overrides." + key}
	if a != Allow {
		d.Reason = fmt.Sprintf("tool %q on server %q is set to %s by policy.tool_overrides", c.Tool, c.Server, a)
	}
	return d
}
