package claudecode

import "encoding/json"

// Answer is what a hook prints for an agent whose hook output copies
// Claude Code's (Codex CLI, Gemini CLI): the top-level decision and
// reason Gemini CLI reads, the systemMessage both show the user, and
// hookSpecificOutput. Its zero value says nothing.
type Answer struct {
	Decision           string          `json:"decision,omitempty"`
	Reason             string          `json:"reason,omitempty"`
	SystemMessage      string          `json:"systemMessage,omitempty"`
	HookSpecificOutput *SpecificAnswer `json:"hookSpecificOutput,omitempty"`
}

// SpecificAnswer is an Answer's hookSpecificOutput.
type SpecificAnswer struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
	AdditionalContext        string `json:"additionalContext,omitempty"`
}

// AfterTool answers event, an after-tool event: the tool has run, so
// there is nothing left to refuse and a verdict other than allow is a
// message to the user; flowd's notes reach the model as
// additionalContext. Neither agent takes a replaced output from such a
// hook, so v.UpdatedOutput is not offered.
func AfterTool(event string, v Verdict) Answer {
	var a Answer
	if v.Decision != Allow {
		a.SystemMessage = v.UserMessage()
	}
	if v.AdditionalContext != "" {
		a.HookSpecificOutput = &SpecificAnswer{HookEventName: event, AdditionalContext: v.AdditionalContext}
	}
	return a
}

// Line is a as the line the hook prints on stdout; nil when a says
// nothing, and the hook prints nothing.
func (a Answer) Line() []byte {
	if a == (Answer{}) {
		return nil
	}
	b, err := json.Marshal(a)
	if err != nil {
		return nil // strings only: cannot fail
	}
	return append(b, '\n')
}

// FailedOpenAnswer is what such a hook prints when it could not ask
// flowd and lets the call go on: a message to the user, so that a tool
// call flowd did not check is never a silent allow.
func FailedOpenAnswer(event, why string) []byte {
	return Answer{SystemMessage: "flowd could not check this " + event + " call (" + why + "); it goes on unchecked (fail-open)"}.Line()
}
