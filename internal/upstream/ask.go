package upstream

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/flowd-dev/flowd/internal/jsonrpc"
	"github.com/flowd-dev/flowd/internal/judge"
	"github.com/flowd-dev/flowd/internal/policy"
	"github.com/flowd-dev/flowd/internal/shimproto"
	"github.com/flowd-dev/flowd/internal/untrusted"
)

// held is a request the shim holds while it asks the user.
type held struct {
	id string // the request's raw JSON-RPC id
	c  *call
}

// formElicitation reports whether initialize params declare form
// elicitation: "elicitation": {} (form only, as first specified) or with a
// "form" member.
func formElicitation(params []byte) bool {
	caps, ok := jsonrpc.Member(params, "capabilities")
	if !ok {
		return false
	}
	el, ok := jsonrpc.Member(caps, "elicitation")
	if !ok {
		return false
	}
	var modes map[string]json.RawMessage
	if json.Unmarshal(el, &modes) != nil {
		return false
	}
	_, form := modes["form"]
	return len(modes) == 0 || form
}

// question is what the shim asks the user about call c; forward, when not
// nil, is what it sends upstream if the user allows the call. Everything in the message comes from flowd's
// own findings, except the names (a server names itself) and the agent's
// stated reason, which are quoted and cut short, the reason marked as the
// agent's: text the model or a server wrote must not be able to pass itself
// off as flowd's advice.
func (u *Stream) question(j *judge.Judge, c *call, forward []byte) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "flowd: allow this tool call?\n\nServer: %s\nTool: %s\nWhy flowd asks: %s\n",
		shown(u.Name(), 80), shown(c.tool, 80), c.Decision.Reason)
	if c.Justification != "" {
		fmt.Fprintf(&b, "The agent says (unverified): %s\n", shown(c.Justification, policy.MaxJustification))
	}
	b.WriteString("\nAllow it only if you asked for this. Refusing tells the agent the call was blocked.")
	schema := map[string]any{
		"type": "object",
		"properties": map[string]any{
			shimproto.AllowField: map[string]any{
				"type":        "boolean",
				"title":       "Allow this call",
				"description": "Leave unchecked to refuse the call.",
				"default":     false,
			},
		},
		"required": []string{shimproto.AllowField},
	}
	el, _ := json.Marshal(map[string]any{"message": b.String(), "requestedSchema": schema})
	q := shimproto.Question{
		Elicitation: el,
		DenyReason:  c.Decision.Reason,
		TimeoutMS:   j.Settings().Cfg.Policy.ElicitationTimeout.Milliseconds(),
	}
	q.Forward = string(forward)
	out, _ := json.Marshal(q)
	return out
}

// shown quotes text a model or a server wrote for the user's question:
// cut to max runes, neutralised as every outlet neutralises it
// (untrusted.Text: control, bidi, invisible, tag and variation-selector
// characters become visible escapes), in double quotes it cannot close.
func shown(s string, max int) string {
	if r := []rune(s); len(r) > max {
		s = string(r[:max]) + "…"
	}
	return `"` + strings.ReplaceAll(untrusted.Text(s), `"`, `\"`) + `"`
}

// answered records what the user decided about a held call. An allowed call
// is recorded when its result comes back, like any other; a refused one now,
// and its id is remembered so a late cancellation does not reach the server.
func (u *Stream) Answered(j *judge.Judge, a shimproto.Answer) {
	h, ok := u.held[a.Seq]
	if !ok {
		return
	}
	delete(u.held, a.Seq)
	h.c.answer = &a
	if a.Allowed {
		return
	}
	delete(u.calls, h.id)
	u.blocked[h.id] = true
	if a.Outcome == "withdrawn" {
		h.c.Decision.Reason += "; the client cancelled the call while the user was asked"
	} else {
		h.c.Decision.Reason += fmt.Sprintf("; not allowed by the user (%s)", a.Outcome)
	}
	u.record(j, h.c, "block", 0, false)
}
