package geminicli

import (
	"github.com/flowd-dev/flowd/internal/claudecode"
)

// Output is what a hook prints on stdout (and then exits 0) to give Gemini
// CLI the verdict; nil means print nothing.
//
// Gemini CLI cannot ask its user on a hook's behalf, so a BeforeTool "ask"
// (flowd's policy.ask_fallback normally turns it into something else
// first) is a deny: the call waits for a person who cannot be reached.
// An allow is silent, so that Gemini CLI's own confirmation still
// applies; a warn is a message to the user. After a tool has run:
// claudecode.AfterTool.
func Output(event string, v claudecode.Verdict) []byte {
	var a claudecode.Answer
	switch event {
	case BeforeTool:
		switch v.Decision {
		case claudecode.Deny, claudecode.Ask:
			a.Decision = "deny"
			a.Reason = v.ReasonOr("flowd: " + v.Decision)
			if v.Decision == claudecode.Ask {
				a.Reason += " (flowd asks for your approval, and Gemini CLI cannot ask you: denied)"
			}
		case claudecode.Warn:
			a.SystemMessage = v.UserMessage()
		}
	case AfterTool:
		a = claudecode.AfterTool(event, v)
	default:
		return nil
	}
	return a.Line()
}
