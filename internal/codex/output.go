package codex

import (
	"github.com/flowd-dev/flowd/internal/claudecode"
)

// Output is what a hook prints on stdout (and then exits 0) to give Codex
// the verdict; nil means print nothing.
//
// Codex 0.171 takes only a deny from a PreToolUse hook, with a non-empty
// reason; it refuses permissionDecision "allow" and "ask" as invalid hook
// output. So an allow is silent, and Codex's own approval policy still
// applies; a warn is a message to the user. An "ask" reaches here only if
// policy.codex_ask_fallback did not turn it into something else
// (Translate says Codex cannot ask): it is a deny, because the call would
// wait for a person who cannot be reached, and the reason says how to let
// it through. After a tool has run Codex refuses a replaced MCP output:
// claudecode.AfterTool.
func Output(event string, v claudecode.Verdict) []byte {
	var a claudecode.Answer
	switch event {
	case claudecode.PreToolUse:
		switch v.Decision {
		case claudecode.Deny, claudecode.Ask:
			reason := v.ReasonOr("flowd: " + v.Decision)
			if v.Decision == claudecode.Ask {
				reason += " (flowd asks for your approval, and Codex cannot ask you, so it is denied; to let such calls" +
					" through, run them yourself, or set policy.codex_ask_fallback = \"warn\" in flowd's config)"
			}
			a.HookSpecificOutput = &claudecode.SpecificAnswer{HookEventName: claudecode.PreToolUse,
				PermissionDecision: claudecode.Deny, PermissionDecisionReason: reason}
		case claudecode.Warn:
			a.SystemMessage = v.UserMessage()
		}
	case claudecode.PostToolUse:
		a = claudecode.AfterTool(event, v)
	default:
		return nil
	}
	return a.Line()
}
