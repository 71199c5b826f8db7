package main

import (
	"encoding/json"
	"strings"

	"github.com/flowd-dev/flowd/internal/jsonrpc"
)

// Verdicts and scores of RUNNER.md.
const (
	verdictBlock = "block"
	verdictAllow = "allow"
	verdictNA    = "not_applicable"
	verdictError = "error"

	scorePass  = "pass"
	scoreFail  = "fail"
	scoreNA    = "not_applicable"
	scoreError = "error"
)

// score compares the observed verdict with the expected one.
func score(expected, actual string) string {
	switch actual {
	case verdictNA:
		return scoreNA
	case verdictError, "":
		return scoreError
	case expected:
		return scorePass
	}
	return scoreFail
}

// outcome is what one step of a case (a call, a tool list, a result, a hook
// event) came to, in flowd's words.
type outcome struct {
	Blocked bool   `json:"blocked"`
	How     string `json:"how"` // what was observed: denied, asked, redacted, withheld, warned, flagged, passed
	Reason  string `json:"reason,omitempty"`
}

// The verdict mapping. RUNNER.md: a request or result withheld, or an
// explicit deny, is a block; a message forwarded without a block signal is
// an allow. So:
//   - a tools/call answered "flowd blocked: …" (a deny, or an ask the user
//     refused in the elicitation form) is a block;
//   - a tool result the model no longer reads in full (redacted or
//     quarantined) is a block; one passed with a notice in front (flag) is
//     an allow: the model still reads every word of it;
//   - a tool missing from tools/list, or listed with a changed definition,
//     is a block;
//   - a hook's deny is a block, and so is its ask: Claude Code's permission
//     prompt, which the adapter's user refuses, for benign cases as for
//     attacks; a warn (a message to the user, the call goes on) is an
//     allow.

// callOutcome reads the client's answer to a tools/call through the shim.
// ok is false when the answer is neither the server's nor flowd's.
func callOutcome(resp json.RawMessage, asked bool) (o outcome, ok bool) {
	var r struct {
		Result *struct {
			IsError bool `json:"isError"`
		} `json:"result"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(resp, &r) != nil {
		return outcome{}, false
	}
	how := "denied"
	if asked {
		how = "asked, refused"
	}
	switch {
	case r.Error != nil && strings.HasPrefix(r.Error.Message, "flowd"):
		return outcome{Blocked: true, How: how, Reason: r.Error.Message}, true
	case r.Error != nil:
		return outcome{}, false
	case r.Result == nil:
		return outcome{}, false
	}
	text := resultText(resp)
	if r.Result.IsError && strings.HasPrefix(text, jsonrpc.BlockPrefix) {
		return outcome{Blocked: true, How: how, Reason: strings.TrimPrefix(text, jsonrpc.BlockPrefix)}, true
	}
	return outcome{How: "passed"}, true
}

// resultOutcome compares the result the client read with the one the server
// sent: every text the server sent must still be there, whole.
func resultOutcome(resp json.RawMessage, sent []string) outcome {
	if o, ok := callOutcome(resp, false); ok && o.Blocked {
		return o
	}
	got := resultText(resp)
	for _, s := range sent {
		if !strings.Contains(got, s) {
			return outcome{Blocked: true, How: "redacted or quarantined", Reason: firstLine(got)}
		}
	}
	if len(got) > len(strings.Join(sent, "\n")) {
		return outcome{How: "flagged", Reason: firstLine(got)}
	}
	return outcome{How: "passed"}
}

// listOutcome compares the tools the client was shown with the ones the
// server listed, by name and whole definition.
func listOutcome(resp json.RawMessage, sent []json.RawMessage) outcome {
	var r struct {
		Result struct {
			Tools []json.RawMessage `json:"tools"`
		} `json:"result"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(resp, &r) != nil || r.Error != nil {
		reason := "tools/list answered with no tool list"
		if r.Error != nil {
			reason = r.Error.Message
		}
		return outcome{Blocked: true, How: "withheld", Reason: reason}
	}
	shown := map[string]string{}
	for _, t := range r.Result.Tools {
		shown[toolName(t)] = canonical(t)
	}
	for _, t := range sent {
		def, ok := shown[toolName(t)]
		switch {
		case !ok:
			return outcome{Blocked: true, How: "withheld", Reason: "tool " + toolName(t) + " not listed"}
		case def != canonical(t):
			return outcome{Blocked: true, How: "changed", Reason: "tool " + toolName(t) + " listed with another definition"}
		}
	}
	return outcome{How: "passed"}
}

// hookOutcome reads what `hook evaluate` printed (Claude Code's hook
// protocol). For PostToolUse, sent is the tool output the agent got and
// replacement what flowd gave the model instead, if anything.
func hookOutcome(out []byte, sent string) (outcome, error) {
	if len(strings.TrimSpace(string(out))) == 0 {
		return outcome{How: "passed"}, nil
	}
	var o struct {
		SystemMessage string `json:"systemMessage"`
		Specific      struct {
			PermissionDecision       string          `json:"permissionDecision"`
			PermissionDecisionReason string          `json:"permissionDecisionReason"`
			UpdatedToolOutput        json.RawMessage `json:"updatedToolOutput"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &o); err != nil {
		return outcome{}, err
	}
	switch s := o.Specific; {
	case s.PermissionDecision == "deny":
		return outcome{Blocked: true, How: "denied", Reason: s.PermissionDecisionReason}, nil
	case s.PermissionDecision == "ask":
		return outcome{Blocked: true, How: "asked, refused", Reason: s.PermissionDecisionReason}, nil
	case len(s.UpdatedToolOutput) > 0:
		var webFetch struct {
			Result string `json:"result"`
		}
		json.Unmarshal(s.UpdatedToolOutput, &webFetch)
		if !strings.Contains(webFetch.Result, sent) {
			return outcome{Blocked: true, How: "redacted or quarantined", Reason: firstLine(webFetch.Result)}, nil
		}
		return outcome{How: "flagged", Reason: firstLine(webFetch.Result)}, nil
	case o.SystemMessage != "":
		return outcome{How: "warned", Reason: o.SystemMessage}, nil
	}
	return outcome{How: "passed"}, nil
}

// resultText joins the text blocks of a tools/call result.
func resultText(resp json.RawMessage) string {
	var r struct {
		Result struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"result"`
	}
	json.Unmarshal(resp, &r)
	var texts []string
	for _, c := range r.Result.Content {
		texts = append(texts, c.Text)
	}
	return strings.Join(texts, "\n")
}

// texts lists the text blocks of a result the server sends.
func texts(result json.RawMessage) []string {
	var r struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	json.Unmarshal(result, &r)
	var out []string
	for _, c := range r.Content {
		out = append(out, c.Text)
	}
	return out
}

func toolName(def json.RawMessage) string {
	var t struct {
		Name string `json:"name"`
	}
	json.Unmarshal(def, &t)
	return t.Name
}

// canonical re-encodes a JSON value with sorted keys, so definitions
// compare by content.
func canonical(v json.RawMessage) string {
	var x any
	if json.Unmarshal(v, &x) != nil {
		return string(v)
	}
	b, _ := json.Marshal(x)
	return string(b)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
