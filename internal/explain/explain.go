// Package explain says in words why flowd decided what it did about one
// activity record: the decision and its rule, the destination's class,
// the flow evidence, and for prompt injection each rule that fired, on
// what text, and the waiver that would silence it. flowd explain prints
// it; the API hands it to the dashboard.
package explain

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/injection"
	"github.com/flowd-dev/flowd/internal/judge"
)

// Write says in words why flowd decided what it did about r: what
// flowd explain prints, and the dashboard shows beside the evidence.
func Write(out io.Writer, r activity.Record) {
	fmt.Fprintf(out, "activity %d  %s  %s", r.ID, r.Time.Local().Format(time.RFC3339), r.Type)
	if r.Server != "" {
		fmt.Fprintf(out, "  %s", judge.SourceName(r.Server, r.Tool))
	}
	if r.Method != "" {
		fmt.Fprintf(out, " (%s)", r.Method)
	}
	fmt.Fprintln(out)
	if r.Session != "" {
		fmt.Fprintf(out, "session   %s\n", r.Session)
	}
	var det struct {
		Rule           string                 `json:"rule"`
		Classification *classify.Result       `json:"classification"`
		Flow           *flow.Analysis         `json:"flow"`
		Injection      *flowdclient.Injection `json:"injection"`
		flowdclient.ToolScan
	}
	json.Unmarshal(r.Details, &det)
	// A call is decided on the way out and its result screened on the way
	// back: the record's verdict is what happened to the message last
	// (a result quarantined after an allowed call reads "blocked"), so
	// the two are told apart.
	fmt.Fprintf(out, "verdict   %s", orDash(r.Verdict))
	if r.RiskLevel != "" {
		fmt.Fprintf(out, ", risk %s", r.RiskLevel)
	}
	fmt.Fprintln(out)
	if r.Decision != "" {
		fmt.Fprintf(out, "call      %s", r.Decision)
		if det.Rule != "" {
			fmt.Fprintf(out, " by rule %s", det.Rule)
		}
		if in := det.Injection; in != nil && in.Action != injection.ActionPass {
			fmt.Fprintf(out, "; its result then %s by the prompt-injection scan", scanVerb(in.Action))
		}
		fmt.Fprintln(out)
	}
	if r.Reason != "" {
		fmt.Fprintf(out, "reason    %s\n", r.Reason)
	}
	if c := det.Classification; c != nil && c.Class != "" {
		fmt.Fprintf(out, "destination %s (%s", c.Class, c.Method)
		if c.Reason != "" {
			fmt.Fprintf(out, ": %s", c.Reason)
		}
		fmt.Fprintln(out, ")")
	}
	if h := ruleHint(det.Rule); h != "" {
		fmt.Fprintf(out, "          %s\n", h)
	}
	if det.Flow != nil {
		explainFlow(out, *det.Flow)
	}
	found := false
	if in := det.Injection; in != nil {
		found = true
		res := injection.Result{Score: in.Score, Action: in.Action,
			Detections: in.Detections, Waived: in.Waived, Truncated: in.Truncated}
		if in.Scan != nil {
			res.Coverage = *in.Scan
		}
		explainScan(out, in.Server, in.Tool, res)
		if in.Released {
			fmt.Fprintln(out, "\nthis exact content was released by you earlier, so it passed without a scan")
		}
		if in.Quarantine != "" {
			fmt.Fprintf(out, "\nquarantined as %s: what it said is shown by flowd quarantine show %s, with your approval passphrase\n", in.Quarantine, in.Quarantine)
		}
		if in.Tainted {
			fmt.Fprintln(out, "this result tainted the session: internal data it sends out afterwards is judged more strictly (injection.taint_action)")
		}
	}
	for _, f := range det.Withheld {
		found = true
		fmt.Fprintf(out, "\ntool %s withheld for its definition:\n", f.Tool)
		explainScan(out, r.Server, f.Tool, f.Result)
	}
	for _, f := range det.Flagged {
		found = true
		fmt.Fprintf(out, "\ntool %s flagged for its definition (still listed):\n", f.Tool)
		explainScan(out, r.Server, f.Tool, f.Result)
	}
	for _, ch := range det.Pending {
		found = true
		what := "is new"
		if ch.Kind == "changed" {
			what = "changed (" + strings.Join(ch.Fields, ", ") + ")"
		}
		fmt.Fprintf(out, "\ntool %s %s since the server's tools were pinned: hidden until approved (flowd pins diff %s)\n", ch.Tool, what, r.Server)
	}
	if !found {
		fmt.Fprintln(out, "\nno prompt-injection findings in this record")
	}
}

// explainFlow prints the evidence a call's flow check found: each piece
// of data it carries, where that came from, and how it was recognised.
func explainFlow(out io.Writer, a flow.Analysis) {
	if len(a.Edges) == 0 && len(a.Secrets) == 0 && !a.Unfinished && !a.Forgotten {
		return
	}
	fmt.Fprintf(out, "\nflow %s, risk %s\n", orDash(a.FlowType), orDash(a.Risk))
	for _, e := range a.Edges {
		fmt.Fprintf(out, "  %s data from %s (%s, result of %s at %s)", e.Kind, judge.SourceName(e.From.Server, e.From.Tool),
			e.From.Class, orDash(e.From.Method), e.From.Time.Local().Format(time.TimeOnly))
		switch {
		case e.Secret != "":
			fmt.Fprintf(out, ": secret %s", e.Secret)
			if e.Encoding != "" {
				fmt.Fprintf(out, " written %s", e.Encoding)
			}
		case e.Hash != "":
			fmt.Fprintf(out, ": %d bytes matching fingerprint %s", e.Length, e.Hash)
		}
		fmt.Fprintf(out, " → %s, risk %s\n", e.FlowType, e.Risk)
	}
	if len(a.Edges) == 0 && len(a.Secrets) > 0 {
		fmt.Fprintf(out, "  secrets in the arguments (%s) from no result flowd saw: judged as coming from inside\n", strings.Join(a.Secrets, ", "))
	}
	switch {
	case a.Overdue:
		fmt.Fprintln(out, "  the check ran out of flow.wait_budget: the call waited too long for other messages or the CPU")
	case a.Unfinished:
		fmt.Fprintln(out, "  the check ran out of flow.check_budget before it read all of the arguments")
	}
	switch {
	case a.Lost:
		fmt.Fprintln(out, "  the session's results were held by a flowd that has since ended (restarted, or killed): the call is judged as carrying internal data")
	case a.Forgotten:
		fmt.Fprintln(out, "  the session's results were forgotten (flow.max_memory_bytes): the call is judged as carrying internal data")
	}
}

func scanVerb(a injection.Action) string {
	switch a {
	case injection.ActionBlock:
		return "blocked (quarantined)"
	case injection.ActionRedact:
		return "redacted"
	case injection.ActionFlag:
		return "flagged"
	}
	return string(a)
}

// explainScan prints each detection and the waiver that would silence it.
func explainScan(out io.Writer, server, tool string, res injection.Result) {
	fmt.Fprintf(out, "\nprompt injection: score %.2f → %s", res.Score, res.Action)
	switch {
	case res.Coverage.Truncated != "":
		fmt.Fprintf(out, " (only %d of %d bytes were scanned: the %s bound cut the scan short)",
			res.Coverage.Scanned, res.Coverage.Total, res.Coverage.Truncated)
	case res.Truncated:
		fmt.Fprint(out, " (only part of the content was scanned)")
	}
	fmt.Fprintln(out)
	shown := map[string]bool{}
	for _, d := range res.Detections {
		fmt.Fprintf(out, "  %s (%s, severity %.2f) in %s [%d:%d]\n", d.Rule, d.Tier, d.Severity, d.Field, d.Start, d.End)
		if d.Excerpt != "" { // none for a quarantined result: its words are the quarantine's to show
			fmt.Fprintf(out, "      %s\n", d.Excerpt)
		}
		if d.Note != "" {
			fmt.Fprintf(out, "      note: %s\n", d.Note)
		}
		if !shown[d.Rule] {
			shown[d.Rule] = true
			fmt.Fprintf(out, "      to trust %s for this rule, add to your config:\n%s", judge.SourceName(server, tool), waiver(server, tool, d.Rule))
		}
	}
	for _, d := range res.Waived {
		fmt.Fprintf(out, "  %s in %s: silenced by a waiver\n", d.Rule, d.Field)
		if d.Excerpt != "" {
			fmt.Fprintf(out, "      %s\n", d.Excerpt)
		}
	}
}

// waiver is the config snippet that silences rule for server and tool.
func waiver(server, tool, rule string) string {
	var b strings.Builder
	b.WriteString("        [[injection.waiver]]\n")
	fmt.Fprintf(&b, "        server = %s\n", strconv.Quote(server))
	if tool != "" && tool != server {
		fmt.Fprintf(&b, "        tool = %s\n", strconv.Quote(tool))
	}
	fmt.Fprintf(&b, "        rule = %s\n", strconv.Quote(rule))
	return b.String()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// ruleHint says what a rule that judged a call's arguments looked at, and
// which key decides it.
func ruleHint(rule string) string {
	switch {
	case rule == "read_then_send.key_material":
		return "the call reads a private key file: what it returns goes into the model's context and to the model's provider; policy.read_then_send decides it"
	case rule == "sensitive_data_shared":
		return "the call writes a secret where others read it (a world-readable temporary directory, a web root, a synced folder, a network share); asked, or what policy.sensitive_data_external says when that is milder"
	case rule == "read_then_send":
		return "a chain: this session read a credential earlier, and this call reaches the network; policy.read_then_send decides it"
	case strings.HasPrefix(rule, "command."):
		return "the command line the call runs has no honest use in an agent's command; always denied (policy.tool_overrides can exempt a tool)"
	case strings.HasPrefix(rule, "risky_commands."):
		return "the command line the call runs has honest uses to confirm; policy.risky_commands decides it"
	case rule == "private_addresses":
		return "the call fetches from inside the machine or its network; policy.private_addresses decides it"
	case rule == "injection_in_arguments":
		return "the arguments hold instructions aimed at an AI model, which the call would put where another model reads them"
	}
	return ""
}
