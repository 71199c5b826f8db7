package geminicli

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
	HookEventName     string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext,omitempty"`
}

// Output is what a hook prints on stdout (and then exits 0) to give Gemini
// CLI the verdict; nil means print nothing.
//
// Gemini CLI cannot ask its user on a hook's behalf, so a BeforeTool "ask"
// (flowd's policy.ask_fallback normally turns it into something else
// first) is a deny: the call waits for a person who cannot be reached.
// An allow is silent, so that Gemini CLI's own confirmation still
// applies; a warn is a message to the user. After a tool has run there is
// nothing left to refuse, so an AfterTool deny or ask becomes a message,
// as for Claude Code.
func Output(event string, v claudecode.Verdict) []byte {
	var o output
	switch event {
	case BeforeTool:
		switch v.Decision {
		case claudecode.Deny, claudecode.Ask:
			o.Decision = "deny"
			o.Reason = v.ReasonOr("flowd: " + v.Decision)
			if v.Decision == claudecode.Ask {
				o.Reason += " (flowd asks for your approval, and Gemini CLI cannot ask you: denied)"
			}
		case claudecode.Warn:
			o.SystemMessage = v.UserMessage()
		}
	case AfterTool:
		if v.Decision != claudecode.Allow {
			o.SystemMessage = v.UserMessage()
		}
		if v.AdditionalContext != "" {
			o.HookSpecificOutput = &specificOutput{HookEventName: AfterTool, AdditionalContext: v.AdditionalContext}
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
