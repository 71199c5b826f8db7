package upstream

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/injection"
	"github.com/flowd-dev/flowd/internal/jsonrpc"
	"github.com/flowd-dev/flowd/internal/judge"
	"github.com/flowd-dev/flowd/internal/pins"
	"github.com/flowd-dev/flowd/internal/policy"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

// oversize settles a server's message longer than shim.max_inspect_bytes, of which
// flowd has only the start and the end: it cannot be scanned or changed,
// and it passes. Its call is recorded as such (or the user would never
// learn that a result went to the model unscanned), and unless
// injection.on_incomplete is "pass" a source that may be external taints
// the session, as a flagged result would. A tool list that large cannot be
// pinned, and is refused while pinning is on.
func (u *Stream) oversize(j *judge.Judge, v shimproto.Verdict, m shimproto.Message) shimproto.Verdict {
	var c *call
	id, ok := jsonrpc.TruncatedID(m.Data, m.Tail)
	if ok {
		if c = u.calls[string(id)]; c != nil {
			delete(u.calls, string(id))
		}
	}
	if c == nil {
		// As in fromServer: what answers no request flowd saw counts as
		// a result of this server.
		c = &call{requestID: jsonrpc.IDText(id), start: time.Now()}
	}
	switch c.method {
	case "tools/list":
		if j.Settings().Scanner != nil { // a tools/list call was found by its id
			return u.refuse(j, v, jsonrpc.Envelope{ID: id}, fmt.Sprintf(
				"the tool list of %d bytes is over shim.max_inspect_bytes (%d), so flowd can neither pin nor screen it; raise the limit", m.Size, len(m.Data)))
		}
		return v
	}
	why := fmt.Sprintf("result of %d bytes is over shim.max_inspect_bytes (%d): it went to the client unscanned and is not tracked as an origin",
		m.Size, len(m.Data))
	if c.Decision.Reason != "" {
		why = c.Decision.Reason + "; " + why
	}
	c.Decision.Reason = why
	c.scan = j.Unscanned(u.session, u.Name(), c.tool, u.sourceClass(j, c.tool), m.Size)
	u.record(j, c, "pass", m.Size, false)
	return v
}

// screenResult screens a tools/call, resources/read or prompts/get result
// (judge.Result) and decides what the client gets: the message as it came,
// with a notice before the content, redacted, or a quarantine notice in
// its place. raw is the whole message.
func (u *Stream) screenResult(j *judge.Judge, c *call, v shimproto.Verdict, e jsonrpc.Envelope, raw []byte) shimproto.Verdict {
	server := u.Name()
	s := j.Result(judge.Result{Session: u.session, Server: server, Tool: c.tool, Method: c.method,
		Class: u.sourceClass(j, c.tool), Content: e.Result, Message: raw, Rewrite: true, Strict: true, Notice: withNotice})
	c.scan = s.Report
	switch {
	case s.Blocked:
		v.Action, v.Data = shimproto.Replace, replacement(e.ID, c.method, judge.QuarantineNotice(s.Report), u.isModern())
	case s.Content != nil:
		j.Log.Info("result rewritten for prompt injection", "server", server, "tool", c.tool, "action", s.Found.Action, "score", s.Found.Score)
		v.Action, v.Data = shimproto.Replace, s.Content
	}
	return v
}

// identity is the server's identity for pinning.
func (u *Stream) identity() string {
	return pins.Identity(u.Name(), u.hello.Command)
}

// screenTools scans a tools/list result for poisoned tool definitions
// and checks it against the server's pins. Poisoned tools, and tools that
// are new or changed since the user approved them, are taken out of the
// list the client sees; calls to them are refused (withheld).
func (u *Stream) screenTools(j *judge.Judge, v shimproto.Verdict, e jsonrpc.Envelope, raw []byte) shimproto.Verdict {
	set := j.Settings()
	if set.Scanner == nil {
		return v
	}
	var list struct {
		Tools      []json.RawMessage `json:"tools"`
		NextCursor string            `json:"nextCursor"`
	}
	// What flowd pins and screens must be what the client reads.
	if json.Unmarshal(e.Result, &list) != nil {
		return u.refuse(j, v, e, "flowd cannot read this tool list, so it can neither pin nor screen it")
	}
	if n := jsonrpc.Repeated(e.Result); n != "" {
		return u.refuse(j, v, e, fmt.Sprintf("the tool list gives its member %q twice or in two cases, so its client may read other tools than flowd pins", n))
	}
	for _, t := range list.Tools {
		if n := jsonrpc.Repeated(t); n != "" {
			return u.refuse(j, v, e, fmt.Sprintf("a tool in the list gives its member %q twice or in two cases, so its client may read another tool than flowd pins", n))
		}
	}
	server := u.Name()
	var scan flowdclient.ToolScan
	hide := map[string]bool{}
	// The session's other servers' tools: a definition that directs
	// their use, or takes one's name, shadows them.
	findings, err := set.Scanner.ScanTools(e.Result, injection.Context{
		ExternalSource: judge.Untrusted(u.serverClass(set.Classifier).Class), Server: server,
		SessionTools: j.OtherTools(u.session, server)})
	if err != nil {
		j.Log.Debug("tools/list not scanned", "server", server, "err", err)
	}
	parsed := make([]pins.Tool, 0, len(list.Tools))
	names := make([]string, 0, len(list.Tools))
	for _, t := range list.Tools {
		if p, err := pins.ParseTool(t); err == nil {
			parsed = append(parsed, p)
			names = append(names, p.Name)
			delete(u.poisoned, p.Name) // judged again below
		}
	}
	withheld := map[string]string{}
	for _, f := range findings {
		switch f.Result.Action {
		case injection.ActionBlock:
			scan.Withheld = append(scan.Withheld, f)
			hide[f.Tool] = true
			withheld[f.Tool] = poisonReason(f.Result)
			u.poisoned[f.Tool] = fmt.Sprintf("tool %q of server %q is withheld: its definition scored %.2f as prompt injection (%s), "+
				"so flowd hid it from the tool list", f.Tool, server, f.Result.Score, judge.RuleNames(f.Result.Detections))
		case injection.ActionFlag, injection.ActionRedact:
			scan.Flagged = append(scan.Flagged, f)
		}
	}
	// What the session's tools can do weighs requests in its results; a
	// withheld tool can do nothing.
	callable := make([]string, 0, len(names))
	for _, n := range names {
		if !hide[n] {
			callable = append(callable, n)
		}
	}
	j.NoteTools(u.session, server, callable)
	id := u.identity()
	if !u.listed {
		// A server seen for the first time is trusted on first use: its
		// first complete listing, over however many pages, is pinned.
		u.listed, u.trustPins = true, !j.Pins.Known(id)
	}
	changes, err := j.Pins.Observe(server, u.hello.Command, parsed, u.trustPins && set.Cfg.Injection.TrustOnFirstUse)
	if err != nil {
		j.Log.Error("check tool pins", "server", server, "err", err)
	}
	// flowd pins shows what is withheld and why, beside the pins.
	if err := j.Pins.Withhold(server, u.hello.Command, names, withheld); err != nil {
		j.Log.Error("record withheld tools", "server", server, "err", err)
	}
	if list.NextCursor == "" {
		u.trustPins = false
	}
	for _, ch := range changes {
		hide[ch.Tool] = true
		scan.Pending = append(scan.Pending, ch)
	}
	sort.Slice(scan.Pending, func(i, j int) bool { return scan.Pending[i].Tool < scan.Pending[j].Tool })
	if len(scan.Withheld)+len(scan.Flagged)+len(scan.Pending) == 0 {
		return v
	}
	if len(hide) > 0 {
		if result, err := withoutTools(e.Result, hide); err != nil {
			j.Log.Warn("cannot hide tools from the list; calls to them are still refused", "server", server, "err", err)
		} else {
			v.Action, v.Data = shimproto.Replace, jsonrpc.Splice(raw, e.Result, result)
		}
	}
	u.recordTools(j, v, scan, hide)
	return v
}

// poisonReason says why a tool's definition is withheld: the score, the
// rules and the strongest piece of evidence, where it is.
func poisonReason(r injection.Result) string {
	why := fmt.Sprintf("its definition scored %.2f as prompt injection (%s)", r.Score, judge.RuleNames(r.Detections))
	var top *injection.Detection
	for i := range r.Detections {
		if top == nil || r.Detections[i].Severity > top.Severity {
			top = &r.Detections[i]
		}
	}
	if top != nil {
		why += fmt.Sprintf("; strongest: %s in %s: %q", top.Rule, top.Field, top.Excerpt)
	}
	return why
}

func (u *Stream) recordTools(j *judge.Judge, v shimproto.Verdict, scan flowdclient.ToolScan, hide map[string]bool) {
	risk, verdict := flow.RiskMedium, "pass"
	if len(scan.Withheld) > 0 {
		risk = flow.RiskHigh
	}
	if v.Action == shimproto.Replace {
		verdict = "replace"
	}
	var parts []string
	if len(scan.Withheld) > 0 {
		parts = append(parts, fmt.Sprintf("%d tool(s) withheld as poisoned", len(scan.Withheld)))
	}
	if len(scan.Pending) > 0 {
		parts = append(parts, fmt.Sprintf("%d tool(s) new or changed since pinned, hidden until approved (flowd pins diff %s)",
			len(scan.Pending), u.Name()))
	}
	if len(scan.Flagged) > 0 {
		parts = append(parts, fmt.Sprintf("%d tool definition(s) flagged", len(scan.Flagged)))
	}
	j.Log.Warn("tools/list screened", "server", u.Name(), "hidden", len(hide), "summary", strings.Join(parts, "; "))
	j.Record(activity.Record{Type: "tools_list", Session: u.session, Server: u.Name(), Method: "tools/list",
		Verdict: verdict, Reason: strings.Join(parts, "; "), RiskLevel: risk, Details: judge.MustJSON(scan)})
}

// withheld decides a call to a tool flowd hid from the list: refused, or
// the zero Decision for any other tool.
func (u *Stream) withheld(j *judge.Judge, tool string) policy.Decision {
	if j.Settings().Scanner == nil {
		return policy.Decision{}
	}
	if why, ok := u.poisoned[tool]; ok {
		return policy.Decision{Action: policy.Deny, Rule: "injection.tool_poisoning", Reason: why}
	}
	ch, ok := j.Pins.Pending(u.identity(), tool)
	if !ok {
		return policy.Decision{}
	}
	server := u.Name()
	reason := fmt.Sprintf("tool %q of server %q is new since the server's tools were pinned", tool, server)
	if ch.Kind == "changed" {
		reason = fmt.Sprintf("tool %q of server %q changed since it was approved (%s)", tool, server, strings.Join(ch.Fields, ", "))
	}
	reason += fmt.Sprintf("; it is withheld until the user reviews it (flowd pins diff %s) and approves it at their terminal (flowd pins approve %s %s)",
		server, server, tool)
	return policy.Decision{Action: policy.Deny, Rule: "pins." + ch.Kind, Reason: reason}
}
