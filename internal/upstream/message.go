package upstream

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/injection"
	"github.com/flowd-dev/flowd/internal/jsonrpc"
	"github.com/flowd-dev/flowd/internal/judge"
	"github.com/flowd-dev/flowd/internal/policy"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

// Every message between the client and the server is mediated, not only
// tool calls and their results: a secret leaves as well through a
// prompts/get argument, a resources/read URI, a notification, _meta or the
// client's answer to the server's sampling request, and a model reads a
// server's error, log message or sampling request as it reads a result.
// A method flowd does not know is judged like any other: its params are
// data.

// message judges a client message other than a tools/call: a request, a
// notification, an answer to one of the server's requests, or what flowd
// cannot read. All of it is data for the server. A denied request is
// answered with an error; anything else denied is dropped: nobody waits
// for an answer to it.
func (u *Stream) message(j *judge.Judge, v shimproto.Verdict, e jsonrpc.Envelope, raw []byte, received time.Time) (shimproto.Verdict, func()) {
	c := &call{method: methodOf(e), requestID: jsonrpc.IDText(e.ID), start: received}
	if e.Kind == jsonrpc.Response || e.Kind == jsonrpc.ErrorReply {
		c.method = u.answering(e.ID)
	}
	later := u.checkMessage(j, c, raw)
	if c.Decision.Action == policy.Deny {
		u.record(j, c, "block", 0, false)
		v.Action = shimproto.Drop
		switch {
		case e.Kind == jsonrpc.Request:
			u.blocked[string(e.ID)] = true
			v.Action, v.Data = shimproto.Respond, jsonrpc.RequestError(e.ID, jsonrpc.BlockPrefix+c.Decision.Reason)
		case e.Kind == jsonrpc.Response || e.Kind == jsonrpc.ErrorReply:
			// The client's answer to the server's request does not go, an
			// error in its place does: the server is not left waiting.
			v.Action, v.Data = shimproto.Replace, jsonrpc.RequestError(e.ID, jsonrpc.BlockPrefix+c.Decision.Reason)
		}
		return v, nil
	}
	if e.Kind == jsonrpc.Request {
		u.track(c, e.ID)
	}
	if c.Decision.Action == policy.Allow {
		// later only completes the analysis for the log, and an allowed
		// message is not logged: pings and listings would crowd out the
		// calls.
		return v, nil
	}
	j.Log.Warn("message allowed with a warning", "server", u.Name(), "method", c.method, "reason", c.Decision.Reason)
	return v, func() {
		if later != nil {
			later()
		}
		u.record(j, c, "pass", 0, false)
	}
}

// checkMessage decides a client message that is not a tools/call, raw
// (judge.Call): the whole message is data for the server, checked for
// secrets, flows and suspicious hosts under the server's class, with its
// method named as the tool.
func (u *Stream) checkMessage(j *judge.Judge, c *call, raw []byte) (later func()) {
	c.argsBytes = len(raw)
	if c.method != "resources/read" && c.method != "prompts/get" {
		c.kind = activity.TypeMessage // resources and prompts are recorded as calls, as their results are
	}
	return j.Call(judge.Call{Session: u.session, Server: u.Name(), Tool: c.name(), Message: true, Lifecycle: lifecycle[c.method],
		Class: u.serverClass(j.Settings().Classifier), Args: raw, Received: c.start, Bounded: true}, &c.Outcome)
}

// lifecycle are the client messages of the protocol's own that carry no
// user data: the handshake, pings and listings (policy.Call.Lifecycle).
var lifecycle = map[string]bool{"initialize": true, "server/discover": true, "notifications/initialized": true, "ping": true,
	"tools/list": true, "prompts/list": true, "resources/list": true, "resources/templates/list": true}

// answering returns the method of the server's request that the client's
// answer with this id answers, and forgets the request; "" when flowd saw
// no such request.
func (u *Stream) answering(id []byte) string {
	m, ok := u.asked[string(id)]
	if !ok {
		return ""
	}
	delete(u.asked, string(id))
	return m
}

// serverMessage screens what the server says other than an answer to the
// client: a request (sampling/createMessage, elicitation/create,
// roots/list…), a notification (notifications/message, progress…), a
// batch or what flowd cannot parse. Its params (or all of it) are screened
// and become an origin. A blocked request is refused with an error to the
// server and anything else blocked is dropped; redacted params go on
// redacted. A flagged message has no place for a notice the model would
// read, so it goes on as it came, after tainting the session. A line that
// is not JSON is screened as the text of its strings, as a lenient reader
// would take them, and cannot be redacted in place: flagged or worse, it
// is dropped.
func (u *Stream) serverMessage(j *judge.Judge, v shimproto.Verdict, e jsonrpc.Envelope, raw []byte) (shimproto.Verdict, func()) {
	c := &call{method: methodOf(e), requestID: jsonrpc.IDText(e.ID), kind: activity.TypeMessage, start: time.Now()}
	content, whole := e.Params, raw
	switch {
	case e.Kind == jsonrpc.Request || e.Kind == jsonrpc.Notification:
	case e.Kind == jsonrpc.Invalid && !json.Valid(raw):
		content, whole = judge.MustJSON(flow.Strings(raw, len(raw))), nil
	default:
		content = raw
	}
	s := j.Result(judge.Result{Session: u.session, Server: u.Name(), Tool: c.name(), Method: c.method,
		Class: u.sourceClass(j, ""), Content: content, Message: whole, Rewrite: true, Strict: true})
	c.scan = s.Report
	switch {
	case s.Blocked && e.Kind == jsonrpc.Request:
		v.Action, v.Data = shimproto.Respond, jsonrpc.RequestError(e.ID, jsonrpc.BlockPrefix+judge.QuarantineNotice(s.Report))
	case e.Kind == jsonrpc.Request && asksTheModel[c.method] && s.Report != nil && s.Report.Action != injection.ActionPass:
		// A prompt the server has the client's model run (or a form the
		// user fills for it) is an order by design, has no place for a
		// notice, and its answer goes back to the server: flagged, it is
		// refused, not passed as it came (found by a red team, RT8-11).
		v.Action, v.Data = shimproto.Respond, jsonrpc.RequestError(e.ID, fmt.Sprintf("%sthis %s request scored %.2f as prompt injection (%s), so flowd did not pass it to the client",
			jsonrpc.BlockPrefix, c.method, s.Report.Score, judge.RuleNames(s.Report.Detections)))
	case s.Blocked, whole == nil && (s.Content != nil || c.scan != nil && c.scan.Action != injection.ActionPass):
		// A line that is not JSON has no place for a notice either, and
		// no well-formed server sends one: anything found in it drops it.
		v.Action = shimproto.Drop
	case s.Content != nil:
		v.Action, v.Data = shimproto.Replace, s.Content
	}
	if c.method == "sampling/createMessage" && (v.Action == shimproto.Pass || v.Action == shimproto.Replace) {
		v = u.noContext(j, v, raw)
	}
	if e.Kind == jsonrpc.Request && v.Action != shimproto.Respond && len(u.asked) < maxOutstanding {
		u.asked[string(e.ID)] = e.Method
	}
	var logged func()
	if c.scan != nil && c.scan.Action != injection.ActionPass {
		logged = u.recordLater(j, c, screenVerdict(c, v), len(raw), false)
	}
	return v, u.origin(j, c, content, false, logged)
}

// noContext makes a sampling request from a server that is not internal
// ask for none of the session's context (includeContext "none"): the
// model would answer from all it has read, in its own words that match
// no fingerprint, and the answer goes to the server (red team RT9-8). v
// is the verdict on raw, the request.
func (u *Stream) noContext(j *judge.Judge, v shimproto.Verdict, raw []byte) shimproto.Verdict {
	msg := raw
	if v.Action == shimproto.Replace {
		msg = v.Data
	}
	params, ok := jsonrpc.Member(msg, "params")
	if !ok {
		return v
	}
	m, ok := jsonrpc.Member(params, "includeContext")
	if !ok || string(m) == `"none"` || !judge.Untrusted(u.serverClass(j.Settings().Classifier).Class) {
		return v
	}
	j.Log.Warn("sampling request's includeContext set to none: the server is not internal", "server", u.Name(), "asked", string(m))
	v.Action, v.Data = shimproto.Replace, jsonrpc.Splice(msg, m, []byte(`"none"`))
	return v
}

// asksTheModel are the server's requests whose text the client's model
// (or its user) acts on.
var asksTheModel = map[string]bool{"sampling/createMessage": true, "elicitation/create": true}

// screenAnswer screens the server's answer to a request that is neither a
// tool call nor a read of a resource or a prompt (a listing, a completion,
// the handshake, a method flowd does not know). Redacted, it goes on
// redacted; blocked, an error takes its place, since the result's shape
// is the method's. A flagged answer has no place for a notice the model
// would read: it goes on as it came, after tainting the session. The
// handshake's instructions tell the model how to use the server, as tool
// definitions do, and are judged as those are: their own scan
// (screenInstructions) withholds them as a poisoned tool is withheld, and
// for the rest of the answer only a block acts (judge.Result.Definition).
func (u *Stream) screenAnswer(j *judge.Judge, c *call, v shimproto.Verdict, e jsonrpc.Envelope, raw []byte) shimproto.Verdict {
	c.kind = activity.TypeMessage
	definition := c.method == "initialize" || c.method == "server/discover"
	if definition {
		if withheld, ok := u.screenInstructions(j, c, e.Result); ok {
			raw = jsonrpc.Splice(raw, e.Result, withheld)
			e.Result = withheld
			v.Action, v.Data = shimproto.Replace, raw
		}
	}
	s := j.Result(judge.Result{Session: u.session, Server: u.Name(), Tool: c.name(), Method: c.method,
		Class: u.sourceClass(j, c.tool), Content: e.Result, Message: raw, Rewrite: true, Strict: true,
		Definition: definition})
	if s.Report != nil || c.scan == nil {
		c.scan = s.Report
	}
	switch {
	case s.Blocked:
		v.Action, v.Data = shimproto.Replace, jsonrpc.RequestError(e.ID, jsonrpc.BlockPrefix+judge.QuarantineNotice(s.Report))
	case s.Content != nil:
		v.Action, v.Data = shimproto.Replace, s.Content
	}
	return v
}

// screenInstructions scans the instructions of a handshake's answer
// (result) as a tool's definition is scanned (Scanner.ScanInstructions):
// clients put them in the model's system prompt. Poisoned, they are
// withheld: it returns result with a notice in their place, and c.scan
// says why. The server's tools stay usable, as a poisoned tool's
// neighbours do.
func (u *Stream) screenInstructions(j *judge.Judge, c *call, result []byte) ([]byte, bool) {
	set := j.Settings()
	m, ok := jsonrpc.Member(result, "instructions")
	var text string
	if set.Scanner == nil || !ok || json.Unmarshal(m, &text) != nil || text == "" {
		return nil, false
	}
	server := u.Name()
	untrusted := judge.Untrusted(u.serverClass(set.Classifier).Class)
	r := set.Scanner.ScanInstructions(text, injection.Context{ExternalSource: untrusted, Server: server})
	if r.Action != injection.ActionBlock {
		return nil, false
	}
	// Part of the answer is taken out and the rest goes on: a redaction.
	c.scan = &flowdclient.Injection{Server: server, Tool: c.name(), Score: r.Score, Action: injection.ActionRedact, Detections: r.Detections}
	if untrusted {
		// A server that attacks in its handshake will in its results: the
		// session is exposed to it as to a result that scored so.
		j.Flows.Session(u.session).Taint(fmt.Sprintf("instructions of %s withheld as poisoned: score %.2f (%s)", server, r.Score, judge.RuleNames(r.Detections)))
		c.scan.Tainted = true
	}
	// What the model reads in their place quotes none of them.
	why := fmt.Sprintf("flowd withheld the instructions of server %q: they scored %.2f as prompt injection (%s). Its tools are listed and judged as usual.",
		server, r.Score, judge.RuleNames(r.Detections))
	notice, err := json.Marshal(why)
	if err != nil {
		return nil, false
	}
	j.Log.Warn("handshake instructions withheld as poisoned", "server", server, "score", r.Score, "rules", judge.RuleNames(r.Detections))
	return jsonrpc.Splice(result, m, notice), true
}

// screenError screens a JSON-RPC error the server answers with: its
// message and data reach the model as a result does. Flagged, a notice goes
// before its message; redacted, it goes on redacted; blocked, an error
// saying so takes its place.
func (u *Stream) screenError(j *judge.Judge, c *call, v shimproto.Verdict, e jsonrpc.Envelope, raw []byte) shimproto.Verdict {
	s := j.Result(judge.Result{Session: u.session, Server: u.Name(), Tool: c.name(), Method: c.method,
		Class: u.sourceClass(j, c.tool), Content: e.Error, Message: raw, Rewrite: true, Strict: true, Notice: errorNotice})
	c.scan = s.Report
	switch {
	case s.Blocked:
		v.Action, v.Data = shimproto.Replace, jsonrpc.RequestError(e.ID, jsonrpc.BlockPrefix+judge.QuarantineNotice(s.Report))
	case s.Content != nil:
		v.Action, v.Data = shimproto.Replace, s.Content
	}
	return v
}

// errorNotice returns whole with text put before the message of its
// JSON-RPC error errObj (judge.Result.Notice).
func errorNotice(_ string, whole, errObj []byte, text string) ([]byte, error) {
	m, ok := jsonrpc.Member(errObj, "message")
	if !ok || len(m) < 2 || m[0] != '"' {
		return nil, fmt.Errorf("the error has no message to put a notice before")
	}
	t, _ := json.Marshal(text + "\n\n")
	// The notice's string without its closing quote, then the message's
	// without its opening one: one string, the message escaped as it was.
	joined := append(t[:len(t)-1:len(t)-1], m[1:]...)
	return jsonrpc.Splice(whole, m, joined), nil
}

// screenVerdict is the activity verdict on a message c screened: block,
// replace or pass.
func screenVerdict(c *call, v shimproto.Verdict) string {
	switch {
	case c.scan != nil && c.scan.Action == injection.ActionBlock, v.Action == shimproto.Drop, v.Action == shimproto.Respond:
		return "block"
	case v.Action == shimproto.Replace:
		return "replace"
	}
	return "pass"
}

// methodOf is e's method, or what stands for it in records where e is
// not one message: a batch, or what flowd cannot read as a message.
func methodOf(e jsonrpc.Envelope) string {
	switch e.Kind {
	case jsonrpc.Batch:
		return "(batch)"
	case jsonrpc.Invalid:
		return "(not a message)"
	}
	return e.Method
}

// name is what records and policy call c's destination or source: its
// tool, else its method.
func (c *call) name() string {
	switch {
	case c.tool != "":
		return c.tool
	case c.method != "":
		return c.method
	}
	return "(no method)"
}
