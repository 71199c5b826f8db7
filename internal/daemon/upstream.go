package daemon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/budget"
	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/injection"
	"github.com/flowd-dev/flowd/internal/jsonrpc"
	"github.com/flowd-dev/flowd/internal/localapi"
	"github.com/flowd-dev/flowd/internal/policy"
	"github.com/flowd-dev/flowd/internal/session"
	"github.com/flowd-dev/flowd/internal/shimproto"
	"github.com/flowd-dev/flowd/internal/unwrap"
)

// upstream is flowd's view of one shim and the MCP server behind it. Its
// message methods run on the connection's goroutine only; the mutex guards
// what status readers see.
type upstream struct {
	id        uint64
	hello     shimproto.Hello
	session   string
	connected time.Time

	mu       sync.Mutex
	name     string // what activity and policy call this server
	named    bool   // name came from --name or serverInfo, not the command
	reported string // serverInfo.name: the server's claim, which classification weighs apart
	messages uint64
	modern   bool // the stream speaks the 2026-07-28 revision
	// elicits is whether the client declared form elicitation, so the
	// shim can ask its user about a call.
	elicits bool

	calls   map[string]*call // client requests awaiting a response, by raw id
	blocked map[string]bool  // ids answered by flowd, whose cancellation must not reach the upstream
	held    map[uint64]held  // requests the shim holds while it asks the user, by message seq
	tools   map[string]classify.ToolInfo
	classes map[string]classify.Result // by tool name; reset when tools/list changes

	grants grants // what the shim may forward without waiting

	// The connection's goroutine alone touches these.
	poisoned  map[string]string // tools withheld for their definition, and why
	listed    bool              // a tools/list answer has been screened
	trustPins bool              // the server was unknown: its first listing is pinned as it is
}

// call is a client request the upstream has not answered yet.
type call struct {
	method    string
	tool      string
	argsBytes int
	start     time.Time
	decision  policy.Decision
	class     classify.Result
	analysis  flow.Analysis
	scan      *localapi.Injection // what the injection scan found in the result
	answer    *shimproto.Answer   // the user's answer, when the call was held to ask
	// standing: the decision holds for any call to the tool without a
	// suspicious host in its arguments (policy.Standing).
	standing bool
	// forwarded: the shim sent the call on under a grant, before this
	// decision.
	forwarded bool
	// idValue is the request id's value, as clients may match a response
	// to it (jsonrpc.IDValue).
	idValue    float64
	hasIDValue bool
	// justification is the agent's stated reason, taken out of the
	// arguments before they go to the server.
	justification string
}

// maxOutstanding bounds the request table: a client that never gets
// answers (or sends ids forever) must not grow flowd without limit.
const maxOutstanding = 10000

func newUpstream(id uint64, h shimproto.Hello, session string) *upstream {
	u := &upstream{id: id, hello: h, session: session, connected: time.Now(),
		calls: make(map[string]*call), blocked: make(map[string]bool), held: make(map[uint64]held),
		tools: make(map[string]classify.ToolInfo), classes: make(map[string]classify.Result),
		poisoned: make(map[string]string)}
	if h.Name != "" {
		u.name, u.named = h.Name, true
	} else {
		u.name = NameFromCommand(h.Command)
	}
	return u
}

// owner is the uid whose session this shim is in; 0 outside a system flowd.
func (u *upstream) owner() int {
	uid, _ := session.Owner(u.session)
	return uid
}

func (u *upstream) serverName() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.name
}

// judge decides one message. It never fails: what flowd cannot read passes,
// because the stream belongs to the client and the server. after, when not
// nil, is work to do once the verdict is on its way (recording an origin).
func (u *upstream) judge(d *Daemon, m shimproto.Message) (v shimproto.Verdict, after func()) {
	received := time.Now() // a call's check budget runs from here: parsing 16 MB counts
	u.mu.Lock()
	u.messages++
	u.mu.Unlock()
	v = shimproto.Verdict{Seq: m.Seq}
	if m.Truncated {
		if m.Dir == shimproto.ClientToServer {
			return u.unread(d, v, m), nil
		}
		d.log.Warn("message larger than max_inspect_bytes passed with only its start inspected",
			"server", u.serverName(), "direction", m.Dir.String(), "inspected", len(m.Data), "size", m.Size)
		return u.oversize(d, v, m), nil
	}
	e, err := jsonrpc.Parse(m.Data)
	if err != nil {
		d.log.Debug("unparseable message passed", "server", u.serverName(), "direction", m.Dir.String(), "err", err)
		return v, nil
	}
	if e.Ambiguous != "" {
		return u.ambiguous(d, v, m.Dir, e), nil
	}
	if m.Dir == shimproto.ClientToServer {
		return u.fromClient(d, v, e, m.Data, m.Forwarded, received)
	}
	return u.fromServer(d, v, e, m.Data)
}

// fromClient judges a client's message, received at received; forwarded is
// whether the shim has sent it on already, under a grant, so that only the
// record is left to make.
func (u *upstream) fromClient(d *Daemon, v shimproto.Verdict, e jsonrpc.Envelope, raw []byte, forwarded bool, received time.Time) (shimproto.Verdict, func()) {
	switch e.Kind {
	case jsonrpc.Batch:
		return u.batch(d, v, raw, received), nil
	case jsonrpc.Notification:
		if e.Method == "notifications/cancelled" {
			var p struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			if json.Unmarshal(e.Params, &p) == nil && u.blocked[string(p.RequestID)] {
				delete(u.blocked, string(p.RequestID))
				v.Action = shimproto.Drop
			}
		}
		return v, nil
	case jsonrpc.Request:
	default:
		return v, nil
	}
	if e.Method == "server/discover" || bytes.Contains(e.Params, []byte(jsonrpc.ModernVersionKey)) {
		u.mu.Lock()
		u.modern = true
		u.mu.Unlock()
	}
	if e.Method == "initialize" {
		u.elicits = formElicitation(e.Params)
	}
	c := &call{method: e.Method, start: received}
	var later func()
	if e.Method == "tools/call" {
		name, args, ok := jsonrpc.ToolCall(e.Params)
		c.tool, c.argsBytes, c.forwarded = name, len(args), forwarded
		epoch := u.grants.current()
		hooked := u.join(d, e.Params, name, args)
		if ok {
			c.decision = u.withheld(d, name)
		} else {
			c.decision = ambiguousCall
		}
		if c.decision.Action == policy.Deny {
			c.analysis.Risk = flow.RiskHigh
		} else {
			later = u.decide(d, c, args, !hooked) // a hook that announced the call asked already
		}
		if forwarded {
			u.wentAhead(d, c)
		} else {
			var blocked bool
			if v, blocked = u.apply(d, c, v, e.ID, raw, epoch); blocked {
				return v, nil
			}
		}
	}
	if len(u.calls) < maxOutstanding {
		c.idValue, c.hasIDValue = jsonrpc.IDValue(e.ID)
		u.calls[string(e.ID)] = c
	}
	return v, later
}

// batch judges each call inside a JSON-RPC batch (gone from MCP since
// 2025-06-18, but a batch must not be a way around policy). When any call
// is denied, nothing reaches the upstream and every request in the batch
// gets a blocked result.
func (u *upstream) batch(d *Daemon, v shimproto.Verdict, raw []byte, received time.Time) shimproto.Verdict {
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		// Its calls cannot be judged, nor its ids answered.
		d.log.Warn("batch refused: flowd cannot read it", "server", u.serverName())
		v.Action = shimproto.Drop
		return v
	}
	var ids [][]byte
	var reason string
	for _, it := range items {
		e, err := jsonrpc.Parse(it)
		if err != nil {
			continue
		}
		if e.Kind == jsonrpc.Request && e.Ambiguous != "id" {
			ids = append(ids, e.ID)
		}
		if e.Ambiguous != "" && reason == "" {
			reason = fmt.Sprintf("member %q of a message is given twice or in another case, so the server may read it differently from flowd", e.Ambiguous)
		}
		if e.Kind != jsonrpc.Request || e.Method != "tools/call" || reason != "" {
			continue
		}
		name, args, ok := jsonrpc.ToolCall(e.Params)
		c := &call{method: e.Method, tool: name, argsBytes: len(args), start: received}
		if !ok {
			c.decision = ambiguousCall
		} else if c.decision = u.withheld(d, name); c.decision.Action != policy.Deny {
			if later := u.decide(d, c, args, false); later != nil { // one call of a batch cannot be held alone
				later()
			}
		}
		if c.decision.Action == policy.Deny {
			reason = c.decision.Reason
			u.record(d, c, "block", 0, false)
		}
	}
	switch {
	case reason == "":
		return v
	case len(ids) == 0:
		v.Action = shimproto.Drop
		return v
	}
	out := []byte{'['}
	for i, id := range ids {
		if i > 0 {
			out = append(out, ',')
		}
		r := jsonrpc.BlockedToolResult(id, "a call in this batch was denied: "+reason, u.isModern())
		out = append(out, r[:len(r)-1]...) // without its newline
	}
	v.Action, v.Data = shimproto.Respond, append(out, ']', '\n')
	return v
}

func (u *upstream) fromServer(d *Daemon, v shimproto.Verdict, e jsonrpc.Envelope, raw []byte) (shimproto.Verdict, func()) {
	if e.Kind != jsonrpc.Response && e.Kind != jsonrpc.ErrorReply {
		return v, nil
	}
	c := u.calls[string(e.ID)]
	switch {
	case c != nil:
		delete(u.calls, string(e.ID))
	case u.unclaimed(d, e):
		return u.refuse(d, v, e, "its id matches no request exactly, but a client may take it for the answer to one "+
			"(clients match ids by value, each its own way), and flowd would not judge it as that"), nil
	case e.Kind == jsonrpc.Response:
		// An answer to no request flowd saw, such as one sent while
		// flowd was away, must not get past the injection scan: it is
		// screened as a result of this server, of no known method.
		c = &call{start: time.Now()}
	default:
		return v, nil
	}
	switch c.method {
	case "initialize", "server/discover":
		// Policy keys overrides by the server's name, which may change
		// now. This connection's own decisions wait for it, so once is
		// enough.
		if tell := u.grants.withdraw(); tell != nil {
			tell()
		}
		u.learn(e.Result)
	case "tools/list":
		// Classes, poisoned tools and pins may change now; pins are
		// shared by every shim of the same server, whose calls go on
		// meanwhile (see grants).
		d.withdrawServerGrants(u)
		u.learnTools(e.Result)
		if e.Kind == jsonrpc.Response {
			v = u.screenTools(d, v, e, raw)
		}
		d.withdrawServerGrants(u)
	case "tools/call", "resources/read", "prompts/get", "":
		if e.Kind == jsonrpc.Response {
			v = u.screenResult(d, c, v, e, raw)
		}
	}
	// The activity record and the origin are written after the verdict is
	// sent: the result is not held up for the log.
	var logged func()
	if c.method == "tools/call" || c.scan != nil && c.scan.Action != injection.ActionPass {
		verdict := "pass"
		switch {
		case c.scan != nil && c.scan.Action == injection.ActionBlock:
			verdict = "block"
		case v.Action == shimproto.Replace:
			verdict = "replace"
		}
		logged = u.recordLater(d, c, verdict, len(raw), e.Kind == jsonrpc.ErrorReply || jsonrpc.IsError(e.Result))
	}
	switch c.method {
	case "tools/call", "resources/read", "prompts/get":
		if e.Kind != jsonrpc.Response {
			return v, logged
		}
		// The result becomes an origin. Checks in this session wait for
		// it from now on.
		sess := d.flows.Session(u.session)
		sess.Begin()
		o := flow.Origin{Server: u.serverName(), Tool: c.tool, Method: c.method, Class: u.sourceClass(d, c.tool)}
		result := e.Result
		return v, func() {
			if logged != nil {
				logged()
			}
			sess.Record(o, result)
		}
	}
	return v, logged
}

// apply turns c's decision into the verdict on the request raw with id; it
// reports whether the call is blocked. A standing decision also grants the
// tool, unless grants were withdrawn since epoch: before the verdict goes,
// so the shim applies the grant from the next call on.
func (u *upstream) apply(d *Daemon, c *call, v shimproto.Verdict, id json.RawMessage, raw []byte, epoch uint64) (_ shimproto.Verdict, blocked bool) {
	if c.standing {
		u.grants.give(c.tool, epoch, d.current().rules.SuspiciousEndpoints)
	}
	if c.decision.Action == policy.Deny {
		u.blocked[string(id)] = true
		v.Action, v.Data = shimproto.Respond, jsonrpc.BlockedToolResult(id, c.decision.Reason, u.isModern())
		u.record(d, c, "block", 0, false)
		return v, true
	}
	var forward []byte
	if c.justification != "" {
		// The server did not ask for it and its schema may refuse it.
		if stripped, ok := jsonrpc.WithoutArgument(raw, policy.JustificationArg); ok {
			forward = stripped
			v.Action, v.Data = shimproto.Replace, stripped
		}
	}
	switch c.decision.Action {
	case policy.Ask:
		v.Action, v.Data = shimproto.Ask, u.question(d, c, forward)
		u.held[v.Seq] = held{id: string(id), c: c}
	case policy.Warn:
		d.log.Warn("tool call allowed with a warning", "server", u.serverName(), "tool", c.tool, "reason", c.decision.Reason)
	}
	return v, false
}

// ambiguousCall is the decision on a tools/call whose params could be read
// two ways (jsonrpc.ToolCall): flowd cannot know which tool the server
// would run, or with which arguments.
var ambiguousCall = policy.Decision{Action: policy.Deny, Rule: "ambiguous_message",
	Reason: "the call gives its tool name or arguments twice, in another case, or not as a string, so the server may read another call than flowd would judge"}

// ambiguous refuses a message whose envelope could be read two ways
// (jsonrpc.Envelope.Ambiguous): flowd cannot know what its peer will read.
// A request is answered with an error and a response replaced by one, when
// the id is not itself in doubt; anything else is dropped.
func (u *upstream) ambiguous(d *Daemon, v shimproto.Verdict, dir shimproto.Direction, e jsonrpc.Envelope) shimproto.Verdict {
	reason := fmt.Sprintf("ambiguous message: member %q is given twice or in another case, so its peer may read it differently from flowd", e.Ambiguous)
	u.refused(d, dir, e.Method, reason)
	v.Action = shimproto.Drop
	if e.Ambiguous == "id" || e.ID == nil {
		return v
	}
	switch {
	case dir == shimproto.ClientToServer && e.Kind == jsonrpc.Request:
		v.Action, v.Data = shimproto.Respond, jsonrpc.RequestError(e.ID, jsonrpc.BlockPrefix+reason)
	case dir == shimproto.ServerToClient && (e.Kind == jsonrpc.Response || e.Kind == jsonrpc.ErrorReply):
		delete(u.calls, string(e.ID))
		v.Action, v.Data = shimproto.Replace, jsonrpc.RequestError(e.ID, jsonrpc.BlockPrefix+reason)
	}
	return v
}

// unread refuses a client message too large for flowd to read
// (shimproto.FrameLimit), of which it has only the start and the end: what
// it carries and to which tool may lie in between.
func (u *upstream) unread(d *Daemon, v shimproto.Verdict, m shimproto.Message) shimproto.Verdict {
	reason := fmt.Sprintf("message of %d bytes is too large for flowd to check (over %d × shim.max_inspect_bytes); raise the limit to allow it",
		m.Size, shimproto.RequestFactor)
	u.refused(d, m.Dir, "", reason)
	v.Action = shimproto.Drop
	if id, ok := jsonrpc.TruncatedID(m.Data, m.Tail); ok {
		v.Action, v.Data = shimproto.Respond, jsonrpc.RequestError(id, jsonrpc.BlockPrefix+reason)
	}
	return v
}

// wentAhead handles a call the shim forwarded under a grant. Policy allows
// it unless the grant was withdrawn while the call was on its way: that is
// logged and recorded, as it could not be stopped. So is a call to a tool
// flowd never granted, which only a shim that breaks the protocol sends.
func (u *upstream) wentAhead(d *Daemon, c *call) {
	if c.decision.Action == policy.Allow && u.grants.has(c.tool) {
		return
	}
	d.log.Warn("tool call went out under a grant withdrawn meanwhile", "server", u.serverName(), "tool", c.tool,
		"decision", c.decision.Action, "reason", c.decision.Reason)
	c.decision.Reason = fmt.Sprintf("sent on by the shim under a grant withdrawn while the call was on its way (or never given); policy now says %s: %s",
		c.decision.Action, c.decision.Reason)
	c.analysis.Risk = flow.MaxRisk(c.analysis.Risk, flow.RiskHigh)
}

// unclaimed reports whether e answers no request exactly yet a client may
// take it for an answer flowd must judge as such: its id has the value of
// an outstanding request's (1.0 or "0x1" for 1: the TypeScript SDK matches
// by Number(id)), or it is shaped like a tools/list answer, which must not
// skip pinning whatever id a client matches it to (Python's SDK reads
// "١٠" as 10) while pinning is on.
func (u *upstream) unclaimed(d *Daemon, e jsonrpc.Envelope) bool {
	if e.Kind == jsonrpc.Response && d.current().scanner != nil && jsonrpc.MemberFold(e.Result, "tools") {
		return true
	}
	v, ok := jsonrpc.IDValue(e.ID)
	if !ok {
		return false
	}
	for _, c := range u.calls {
		if c.idValue == v && c.hasIDValue {
			return true
		}
	}
	return false
}

// refuse answers a server's response that flowd cannot judge as its
// client will read it with an error in its place, under the same id.
func (u *upstream) refuse(d *Daemon, v shimproto.Verdict, e jsonrpc.Envelope, why string) shimproto.Verdict {
	reason := "response refused: " + why
	u.refused(d, shimproto.ServerToClient, "", reason)
	v.Action, v.Data = shimproto.Replace, jsonrpc.RequestError(e.ID, jsonrpc.BlockPrefix+reason)
	return v
}

// refused logs and records a message flowd refused for reason.
func (u *upstream) refused(d *Daemon, dir shimproto.Direction, method, reason string) {
	d.log.Warn("message refused", "server", u.serverName(), "direction", dir.String(), "reason", reason)
	d.store.Append(activity.Record{Type: "message", Session: u.session, Server: u.serverName(), Method: method,
		Verdict: "block", Decision: string(policy.Deny), Reason: reason, RiskLevel: flow.RiskHigh})
}

// join moves this shim into the agent session whose hook announced the
// call, when the shim could not tell its session itself. It reports whether
// a hook announced the call: the hook has then applied policy already, and
// asked the user where policy says ask.
func (u *upstream) join(d *Daemon, params []byte, tool string, args []byte) bool {
	sess, how := d.corr.match(time.Now(), params, tool, args)
	if owner, _ := session.Owner(sess); owner != u.owner() {
		// In a system flowd a hook of another user announced the same call:
		// sessions never cross users.
		return false
	}
	if sess == "" || sess == u.session {
		return sess != ""
	}
	d.log.Info("shim joined the hooks' session", "server", u.serverName(), "from", u.session, "to", sess, "by", how)
	d.flows.Session(sess).Link(u.session)
	u.mu.Lock()
	u.session = sess
	u.mu.Unlock()
	return true
}

// decide classifies a tool call's destination, follows its arguments back
// to their origins and applies policy, filling c. holdable is whether the
// shim could hold this call to ask the user, where the client can be asked.
func (u *upstream) decide(d *Daemon, c *call, args []byte, holdable bool) (later func()) {
	server := u.serverName()
	set := d.current() // one config for the whole decision, whatever a reload does meanwhile
	argsBytes := len(args)
	if limit := set.cfg.Shim.MaxInspectBytes; len(args) > limit {
		args = args[:limit]
	}
	c.class = u.toolClass(d, c.tool)
	// The whole check, from the call's arrival, fits in flow.check_budget:
	// a check that runs out denies a call that could leave, rather than
	// hold it and the messages behind it for as long as it takes.
	deadline := c.start.Add(set.cfg.Flow.CheckBudget.Duration)
	b := budget.Until(deadline)
	sess := d.flows.Session(u.session)
	taint, tainted := sess.Tainted()
	pc := policy.Call{
		Tainted:      tainted,
		TaintReason:  taint,
		Server:       server,
		Tool:         c.tool,
		External:     c.class.CanExfiltrate,
		Unclassified: c.class.Class == classify.Unknown,

		ArgsBytes:      argsBytes,
		InspectedBytes: len(args),

		CanAsk:      holdable && u.canAsk(set),
		Justifiable: true,
	}
	// Policy reads the flow analysis only for a destination that can send
	// data out; for any other it is for the log and the session's summary.
	var views [][]byte
	if pc.External {
		r := checkWithin(deadline, func() checked {
			v := unwrap.Views(args)
			return checked{endpoint: policy.SuspiciousHost(args, v, set.rules.SuspiciousEndpoints),
				analysis: sess.Check(server, c.tool, c.class, args, v, b)}
		})
		c.analysis, pc.Endpoint = r.analysis, r.endpoint
		pc.Secrets, pc.FlowType, pc.Sources = c.analysis.Secrets, c.analysis.FlowType, c.analysis.Sources
		if pc.Unfinished = c.analysis.Unfinished; pc.Unfinished {
			d.log.Warn("call denied: its check ran out of flow.check_budget", "server", server, "tool", c.tool,
				"args_bytes", argsBytes, "budget", set.cfg.Flow.CheckBudget.Duration, "spent", time.Since(c.start))
		}
	} else {
		views = unwrap.Views(args)
		pc.Endpoint = policy.SuspiciousHost(args, views, set.rules.SuspiciousEndpoints)
	}
	if set.rules.RequireJustification {
		pc.Justification = justification(args)
		c.justification = pc.Justification
	}
	c.decision = set.rules.Decide(pc)
	// The justification argument is removed call by call.
	c.standing = policy.Standing(pc, c.decision) && !set.rules.RequireJustification
	finish := func() {
		if !pc.External {
			// For the log only: a call to an internal destination is not
			// held up, and its check has a budget of its own.
			c.analysis = sess.Check(server, c.tool, c.class, args, views, budget.Until(time.Now().Add(set.cfg.Flow.CheckBudget.Duration)))
		}
		switch {
		case pc.Endpoint != "":
			c.analysis.Risk = flow.RiskCritical
		case c.decision.Rule == policy.UninspectedRule:
			c.analysis.Risk = flow.MaxRisk(c.analysis.Risk, flow.RiskHigh)
		}
	}
	if !pc.External && (c.decision.Action == policy.Allow || c.decision.Action == policy.Warn) {
		return finish // after the verdict is sent: the request is not held up for the log
	}
	finish()
	return nil
}

// checked is what the check of a call to an external destination found.
type checked struct {
	endpoint string
	analysis flow.Analysis
}

// checkWithin runs check and returns what it found, or, once deadline has
// passed, an unfinished analysis: the matchers stop at their next look at
// the budget (which has the same deadline), but a stage that does not look
// at it (a long fingerprint match) must not hold the verdict past the
// shim's verdict_timeout either. A check left behind finishes on its own
// and is dropped.
func checkWithin(deadline time.Time, check func() checked) checked {
	done := make(chan checked, 1)
	go func() { done <- check() }()
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case r := <-done:
		return r
	case <-t.C:
		return checked{analysis: flow.Analysis{Risk: flow.RiskHigh, Unfinished: true}}
	}
}

// toolClass classifies one of this server's tools as a destination, using
// what tools/list said about it.
func (u *upstream) toolClass(d *Daemon, tool string) classify.Result {
	u.mu.Lock()
	defer u.mu.Unlock()
	if r, ok := u.classes[tool]; ok {
		return r
	}
	info, ok := u.tools[tool]
	if !ok {
		info = classify.ToolInfo{Name: tool}
	}
	r := d.current().classifier.ToolOf(u.classifyNames(), info)
	u.classes[tool] = r
	return r
}

// classifyNames are the server's names for classification; the caller
// holds u.mu. Its own serverInfo.name is kept apart from the client's name
// and its command's, as it may only make flowd more cautious.
func (u *upstream) classifyNames() classify.Names {
	return classify.Names{Given: u.hello.Name, Command: NameFromCommand(u.hello.Command), Reported: u.reported}
}

// serverClass classifies the server as a whole.
func (u *upstream) serverClass(c *classify.Classifier) classify.Result {
	u.mu.Lock()
	names := u.classifyNames()
	u.mu.Unlock()
	return c.ServerOf(names)
}

// forgetClasses drops cached classifications after a config reload.
func (u *upstream) forgetClasses() {
	u.mu.Lock()
	clear(u.classes)
	u.mu.Unlock()
}

// sourceClass is the class of data a tool returns: the tool's class, where
// a hybrid tool counts as holding private data (flow.FlowType does that).
func (u *upstream) sourceClass(d *Daemon, tool string) classify.Class {
	if tool == "" {
		return u.serverClass(d.current().classifier).Class
	}
	return u.toolClass(d, tool).Class
}

// learnTools keeps each tool's description, parameters and annotations:
// evidence for classifying it.
func (u *upstream) learnTools(result []byte) {
	tools, err := classify.ParseTools(result)
	if err != nil {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, info := range tools {
		u.tools[info.Name] = info
		delete(u.classes, info.Name)
	}
}

// learn takes the server's own name and protocol era from its handshake.
func (u *upstream) learn(result []byte) {
	var r struct {
		ProtocolVersion string `json:"protocolVersion"`
		ServerInfo      struct {
			Name string `json:"name"`
		} `json:"serverInfo"`
	}
	if json.Unmarshal(result, &r) != nil {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if r.ServerInfo.Name != "" && !u.named {
		u.name, u.named = r.ServerInfo.Name, true
	}
	if r.ServerInfo.Name != u.reported {
		u.reported = r.ServerInfo.Name
		clear(u.classes)
	}
	if r.ProtocolVersion >= "2026-07-28" {
		u.modern = true
	}
}

func (u *upstream) isModern() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.modern
}

// record writes c's activity record.
func (u *upstream) record(d *Daemon, c *call, verdict string, resultBytes int, isErr bool) {
	u.recordLater(d, c, verdict, resultBytes, isErr)()
}

// recordLater fills in c's activity record as of now, on the connection's
// goroutine, and returns what writes it. Encoding the details and the
// write may wait past the verdict, on another goroutine: the record keeps
// its time, latency and session.
func (u *upstream) recordLater(d *Daemon, c *call, verdict string, resultBytes int, isErr bool) func() {
	now := time.Now()
	rec := activity.Record{
		Time:        now,
		Type:        "tool_call",
		Session:     u.session,
		Server:      u.serverName(),
		Tool:        c.tool,
		Method:      c.method,
		ArgsBytes:   c.argsBytes,
		ResultBytes: resultBytes,
		Verdict:     verdict,
		Decision:    string(c.decision.Action),
		Reason:      c.decision.Reason,
		RiskLevel:   c.analysis.Risk,
		FlowType:    c.analysis.FlowType,
	}
	if verdict != "block" || c.scan != nil {
		rec.LatencyMicros = now.Sub(c.start).Microseconds()
	}
	if s := c.scan; s != nil && s.Action != injection.ActionPass {
		rec.RiskLevel = flow.MaxRisk(rec.RiskLevel, scanRisk(s.Action))
		if rec.Reason == "" {
			rec.Reason = scanReason(s)
			if s.Quarantine != "" {
				rec.Reason += "; quarantined as " + s.Quarantine
			}
		}
	}
	return func() {
		rec.Details = callDetails(c, isErr)
		d.store.Append(rec)
	}
}

// maxEdgesRecorded bounds the edges an activity record lists.
const maxEdgesRecorded = 10

// trimEdges keeps an activity record's size bounded.
func trimEdges(a flow.Analysis) flow.Analysis {
	if len(a.Edges) > maxEdgesRecorded {
		a.Edges = a.Edges[:maxEdgesRecorded]
	}
	return a
}

func callDetails(c *call, isErr bool) json.RawMessage {
	a := trimEdges(c.analysis)
	return mustJSON(struct {
		IsError        bool                `json:"is_error,omitempty"`
		Rule           string              `json:"rule,omitempty"`
		Classification classify.Result     `json:"classification"`
		Flow           flow.Analysis       `json:"flow"`
		Injection      *localapi.Injection `json:"injection,omitempty"`
		Asked          *shimproto.Answer   `json:"asked,omitempty"`     // the user's answer, when flowd asked
		Forwarded      bool                `json:"forwarded,omitempty"` // the shim sent the call on under a grant
	}{isErr, c.decision.Rule, c.class, a, c.scan, c.answer, c.forwarded})
}

// close records the calls that never got an answer.
func (u *upstream) close(d *Daemon) {
	for _, c := range u.calls {
		if c.method == "tools/call" {
			u.record(d, c, "pass", 0, false)
		}
	}
}

// NameFromCommand names a server by its command when it has not named
// itself: `npx -y @scope/server-x` → server-x, `node …/server-everything/dist/index.js` → server-everything.
func NameFromCommand(cmd []string) string {
	if len(cmd) == 0 {
		return "unknown"
	}
	runners := map[string]bool{"npx": true, "uvx": true, "node": true, "python": true, "python3": true,
		"deno": true, "bun": true, "bunx": true, "pipx": true, "uv": true, "go": true, "run": true, "exec": true, "dlx": true, "pnpm": true, "yarn": true}
	for _, a := range cmd {
		base := strings.TrimSuffix(filepath.Base(a), ".exe")
		if strings.HasPrefix(a, "-") || runners[base] {
			continue
		}
		return packageName(a)
	}
	return filepath.Base(cmd[0])
}

func packageName(arg string) string {
	// A package spec: @scope/name@version or name@version.
	if !strings.ContainsAny(arg, `/\`) || strings.HasPrefix(arg, "@") {
		if i := strings.LastIndex(arg, "@"); i > 0 {
			arg = arg[:i]
		}
		return scriptName(filepath.Base(arg))
	}
	// A script path: skip generic file and build-directory names.
	generic := map[string]bool{"index": true, "main": true, "server": true, "cli": true, "dist": true,
		"build": true, "lib": true, "src": true, "bin": true, "out": true, "__main__": true}
	p := filepath.Clean(arg)
	for p != "." && p != "/" {
		name := scriptName(filepath.Base(p))
		if !generic[name] && name != "" {
			return name
		}
		p = filepath.Dir(p)
	}
	return filepath.Base(arg)
}

// scriptName drops a script's extension: weather.py → weather. Package
// names keep their dots (mcp.server stays as it is) unless the extension is
// a known script one.
func scriptName(base string) string {
	switch ext := filepath.Ext(base); ext {
	case ".js", ".mjs", ".cjs", ".ts", ".py", ".rb", ".sh", ".exe", ".jar":
		return strings.TrimSuffix(base, ext)
	}
	return base
}
