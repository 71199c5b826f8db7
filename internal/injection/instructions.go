package injection

import "encoding/json"

// ScanInstructions scans the instructions a server gives its client in
// the handshake, which clients put in the model's system prompt, as
// ScanTools scans a tool's description: both address the model by design,
// and an order with no honest reading in one (set aside the user's
// request, keep something from the user, put secrets or the conversation
// in an argument, install and run something, speak for another server's
// tools) has none in the other. The rules that describe ordinary usage
// are not counted; the claims a tool's description is held to are.
func (s *Scanner) ScanInstructions(text string, ctx Context) Result {
	st := s.newState(ctx)
	st.toolSchema = true
	st.scanString(text, func() string { return "instructions" }, "description", 0, false)
	if raw, err := json.Marshal(map[string]string{"description": text}); err == nil {
		st.addClaims(toolClaims(raw, nil))
	}
	return st.finish()
}
