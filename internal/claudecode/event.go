package claudecode

import "encoding/json"

// Event is one agent hook event in Claude Code's terms, which flowd
// judges every agent's hooks in: Gemini CLI's and Cursor's packages
// translate their events into it, so there is one decision path.
type Event struct {
	// Name is PreToolUse, PostToolUse or PostToolUseFailure; another
	// name is an event flowd notes and allows.
	Name    string
	Payload Payload
	// Response is the tool's output as the agent sent it, so a redaction
	// keeps its shape.
	Response json.RawMessage
	// CanAsk: the agent can put an "ask" to its user; where it cannot,
	// flowd's policy.ask_fallback decides.
	CanAsk bool
	// Delivers: a PreToolUse that already carries what the tool will give
	// the model (Payload.ToolResponse; Cursor's beforeReadFile holds the
	// file's content), which flowd records as a PostToolUse would once it
	// lets the call go on.
	Delivers bool
}

// Translate reads a Claude Code hook event.
func Translate(event string, payload []byte) (Event, error) {
	p, m, err := parsePayload(payload)
	if err != nil {
		return Event{}, err
	}
	return Event{Name: event, Payload: p, Response: m["tool_response"], CanAsk: true}, nil
}
