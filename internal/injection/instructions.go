package injection

import (
	"encoding/json"
	"regexp"
	"strings"
)

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
		st.addClaims(append(toolClaims(raw, nil, nil, ctx.Server), harvestClaims(text)...))
	}
	return st.finish()
}

var (
	// otherOutput names what other servers' or tools' calls return.
	otherOutput = regexp.MustCompile(`(?i)\b(?:(?:results?|outputs?|responses?|returns?|data|content)\s+(?:of|from)\s+(?:the\s+|all\s+|any\s+|every\s+|each\s+)?(?:other|another|all|every|each)\s+(?:mcp\s+)?(?:servers?|tools?|connectors?)|(?:other|another)\s+(?:mcp\s+)?(?:servers?|tools?|connectors?)(?:'s?)?\s+(?:tools?(?:'s?)?\s+)?(?:results?|outputs?|responses?|data))\b`)
	// handOver moves it into a call.
	handOver = regexp.MustCompile(`(?i)\b(?:pass(?:ed)?|sen[dt]|forward(?:ed)?|cop(?:y|ied)|give|given|include[ds]?|append(?:ed)?|relay(?:ed)?|submit(?:ted)?|mirror(?:ed)?)\b`)
)

// harvestClaims finds a cross-server harvest in a server's instructions:
// a sentence that has the output of the other servers' tools handed to
// this server. Its tools cannot honestly need what the others return.
func harvestClaims(text string) []toolClaim {
	t := strings.Join(strings.Fields(text), " ")
	var out []toolClaim
	for _, m := range otherOutput.FindAllStringIndex(t, 4) {
		a, b := sentence(t, m[0], m[1])
		if handOver.MatchString(t[a:b]) {
			out = append(out, toolClaim{path: "instructions", rule: "tool-shadowing", sev: 0.9, excerpt: clip(t[a:b])})
			break
		}
	}
	return out
}
