package codex

import (
	"encoding/json"

	"github.com/flowd-dev/flowd/internal/claudecode"
)

type output struct {
	Decision           string          `json:"decision,omitempty"`
	Reason             string          `json:"reason,omitempty"`
	SystemMessage      string          `json:"systemMessage,omitempty"`
	HookSpecificOutput *specificOutput `json:"hookSpecificOutput,omitempty"`
}

type specificOutput struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	AdditionalContext        string `json:"additionalContext,omitempty"`
}

// Output is what a hook prints on stdout (and then exits 0) to give Codex
// the verdict; nil means print nothing.
//
// Codex 0.171 takes only a deny from a PreToolUse hook, with a non-empty
// reason; it refuses permissionDecision "allow" and "ask" as invalid hook
// output. So an allow is silent, and Codex's own approval policy still
// applies; a warn is a message to the user. An "ask" reaches here only if
// policy.ask_fallback did not turn it into something else (Translate says
// Codex cannot ask): it is a deny, because the call would wait for a
// person who cannot be reached, and the reason says how to let it through.
// After a tool has run there is nothing left to refuse, and Codex refuses
// a replaced MCP output, so a PostToolUse deny or ask becomes a message
// and flowd's notes reach the model as additionalContext.
func Output(event string, v claudecode.Verdict) []byte {
	var o output
	switch event {
	case claudecode.PreToolUse:
		switch v.Decision {
		case claudecode.Deny, claudecode.Ask:
			reason := v.ReasonOr("flowd: " + v.Decision)
			if v.Decision == claudecode.Ask {
				reason += " (flowd asks for your approval, and Codex cannot ask you, so it is denied; to let such calls" +
					" through, run them yourself, or set policy.codex_ask_fallback = \"warn\" in flowd's config)"
			}
			o.HookSpecificOutput = &specificOutput{HookEventName: claudecode.PreToolUse,
				PermissionDecision: claudecode.Deny, PermissionDecisionReason: reason}
		case claudecode.Warn:
			o.SystemMessage = v.UserMessage()
		}
	case claudecode.PostToolUse:
		if v.Decision != claudecode.Allow {
			o.SystemMessage = v.UserMessage()
		}
		if v.AdditionalContext != "" {
			o.HookSpecificOutput = &specificOutput{HookEventName: claudecode.PostToolUse, AdditionalContext: v.AdditionalContext}
		}
	default:
		return nil
	}
	if o == (output{}) {
		return nil
	}
	b, err := json.Marshal(o)
	if err != nil {
		return nil // strings only: cannot fail
	}
	return append(b, '\n')
}

// FailedOpen is what a hook prints when it could not ask flowd and lets
// the call go on: a message to the user, so that a tool call flowd did
// not check is never a silent allow.
func FailedOpen(event string, why string) []byte {
	b, _ := json.Marshal(output{SystemMessage: "flowd could not check this " + event + " call (" + why + "); it goes on unchecked (fail-open)"})
	return append(b, '\n')
}
