package cursor

import (
	"encoding/json"

	"github.com/flowd-dev/flowd/internal/claudecode"
)

// answer is a before* hook's output. Write-ups of Cursor 1.7 spell the
// messages in camelCase; both spellings are sent.
type answer struct {
	Permission        string `json:"permission"`
	UserMessage       string `json:"user_message,omitempty"`
	AgentMessage      string `json:"agent_message,omitempty"`
	UserMessageCamel  string `json:"userMessage,omitempty"`
	AgentMessageCamel string `json:"agentMessage,omitempty"`
}

// Output is what a hook prints on stdout (and then exits 0) to give Cursor
// the verdict.
//
// A before* hook always answers with a permission: Cursor refuses a call
// whose hook printed nothing when the hook is set to fail closed, and an
// explicit allow is what flowd decided. A warn is an allow with a message
// to the user; beforeReadFile takes a permission only, allow or deny, so
// an ask there is a deny. after* hooks cannot change anything and answer
// {}.
func Output(event string, v claudecode.Verdict) []byte {
	if !Gates(event) {
		return []byte("{}\n")
	}
	a := answer{Permission: "allow"}
	switch v.Decision {
	case claudecode.Deny, claudecode.Ask:
		a.Permission = v.Decision
		v.Reason = v.ReasonOr("flowd: " + v.Decision)
		a.UserMessage, a.AgentMessage = v.UserMessage(), v.Reason
	case claudecode.Warn:
		a.UserMessage = v.UserMessage()
	}
	if event == BeforeReadFile {
		if a.Permission == claudecode.Ask {
			a.Permission = claudecode.Deny
		}
		a = answer{Permission: a.Permission}
	}
	a.UserMessageCamel, a.AgentMessageCamel = a.UserMessage, a.AgentMessage
	b, err := json.Marshal(a)
	if err != nil {
		return nil // strings only: cannot fail
	}
	return append(b, '\n')
}

// FailedOpen is what a hook prints when it could not ask flowd and lets
// the call go on: an allow that tells the user the call was not checked,
// so that it is never a silent allow (beforeReadFile has no message).
func FailedOpen(event, why string) []byte {
	return Output(event, claudecode.Verdict{Decision: claudecode.Warn,
		Reason: "flowd could not check this call (" + why + "); it goes on unchecked (fail-open)"})
}
