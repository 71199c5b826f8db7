package upstream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/injection"
	"github.com/flowd-dev/flowd/internal/jsonrpc"
	"github.com/flowd-dev/flowd/internal/judge"
	"github.com/flowd-dev/flowd/internal/policy"
	"github.com/flowd-dev/flowd/internal/sessionid"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

// Stream is flowd's view of one shim and the MCP server behind it: the
// stream of messages between the client and that server. Its message
// methods run on the connection's goroutine only; the mutex guards what
// status readers see.
type Stream struct {
	id        uint64
	hello     shimproto.Hello
	session   string
	connected time.Time

	mu       sync.Mutex
	name     string // what activity and policy call this server
	named    bool   // name came from --name or serverInfo, not the command
	reported string // serverInfo.name: the server's claim, which classification weighs apart
	messages uint64
	// forwarded counts the calls the shim sent on under a grant, without
	// waiting for a verdict.
	forwarded uint64
	modern    bool // the stream speaks the 2026-07-28 revision
	// elicits is whether the client declared form elicitation, so the
	// shim can ask its user about a call.
	elicits bool

	calls   map[string]*call  // client requests awaiting a response, by raw id
	asked   map[string]string // the server's requests awaiting the client's answer: their methods, by raw id
	blocked map[string]bool   // ids answered by flowd, whose cancellation must not reach the upstream
	held    map[uint64]held   // requests the shim holds while it asks the user, by message seq
	tools   map[string]classify.ToolInfo
	classes map[string]classify.Result // by tool name; reset when tools/list changes
	// sendsOut: a tool of the server was classed as able to send data out
	// (or not internal), which the class by name alone may not say.
	sendsOut atomic.Bool

	grants grants // what the shim may forward without waiting
	hub    *Hub   // the hub it is in, once added to one

	// The connection's goroutine alone touches these.
	poisoned  map[string]string // tools withheld for their definition, and why
	listed    bool              // a tools/list answer has been screened
	trustPins bool              // the server was unknown: its first listing is pinned as it is
}

// call is a client request the upstream has not answered yet.
type call struct {
	method string
	// requestID is the JSON-RPC id as records keep it (jsonrpc.IDText):
	// a copy, as a slice of the message would keep all of it alive while
	// the call waits for its answer.
	requestID string
	tool      string
	kind      string // its activity record type, when not activity.TypeToolCall
	argsBytes int
	paths     []string // the files its arguments name (flow.Origin.Paths)
	// unjoined: its tool_use_id was announced by more than one session
	// (judge.Contested); it is judged as carrying internal data.
	unjoined bool
	start    time.Time
	judge.Outcome
	scan   *flowdclient.Injection // what the injection scan found in the result
	answer *shimproto.Answer      // the user's answer, when the call was held to ask
	// forwarded: the shim sent the call on under a grant, before this
	// decision.
	forwarded bool
	// idValue is the request id's value, as clients may match a response
	// to it (jsonrpc.IDValue).
	idValue    float64
	hasIDValue bool
}

// maxOutstanding bounds the request table: a client that never gets
// answers (or sends ids forever) must not grow flowd without limit.
const maxOutstanding = 10000

func NewStream(id uint64, h shimproto.Hello, session string) *Stream {
	u := &Stream{id: id, hello: h, session: session, connected: time.Now(),
		calls: make(map[string]*call), asked: make(map[string]string), blocked: make(map[string]bool), held: make(map[uint64]held),
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
func (u *Stream) owner() int {
	uid, _ := sessionid.Owner(u.session)
	return uid
}

// Session is the flow session the stream's calls and results are in.
func (u *Stream) Session() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.session
}

// Name is what activity and policy call the server.
func (u *Stream) Name() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.name
}

// judge decides one message. It never fails: what flowd cannot read passes,
// because the stream belongs to the client and the server. after, when not
// nil, is work to do once the verdict is on its way (recording an origin).
func (u *Stream) Judge(j *judge.Judge, m shimproto.Message) (v shimproto.Verdict, after func()) {
	received := time.Now() // a call's check budget runs from here: parsing 16 MB counts
	u.mu.Lock()
	u.messages++
	if m.Forwarded {
		u.forwarded++
	}
	u.mu.Unlock()
	v = shimproto.Verdict{Seq: m.Seq}
	if m.Truncated {
		if m.Dir == shimproto.ClientToServer {
			return u.unread(j, v, m), nil
		}
		j.Log.Warn("message larger than max_inspect_bytes passed with only its start inspected",
			"server", u.Name(), "direction", m.Dir.String(), "inspected", len(m.Data), "size", m.Size)
		return u.oversize(j, v, m), nil
	}
	e, err := jsonrpc.Parse(m.Data)
	if err != nil {
		j.Log.Debug("unparseable message judged as data", "server", u.Name(), "direction", m.Dir.String(), "err", err)
		// What flowd cannot parse, a lenient peer may read all the same:
		// it is data for the server, or text for the model.
		e = jsonrpc.Envelope{Kind: jsonrpc.Invalid}
	}
	if e.Ambiguous != "" {
		return u.ambiguous(j, v, m.Dir, e), nil
	}
	if m.Dir == shimproto.ClientToServer {
		return u.fromClient(j, v, e, m.Data, m.Forwarded, received)
	}
	return u.fromServer(j, v, e, m.Data)
}

// fromClient judges a client's message, received at received; forwarded is
// whether the shim has sent it on already, under a grant, so that only the
// record is left to make. Every message is judged: a tools/call as a call
// of its tool, anything else as a message carrying its params (or its
// result or error) to the server (message).
func (u *Stream) fromClient(j *judge.Judge, v shimproto.Verdict, e jsonrpc.Envelope, raw []byte, forwarded bool, received time.Time) (shimproto.Verdict, func()) {
	switch e.Kind {
	case jsonrpc.Batch:
		return u.batch(j, v, raw, received), nil
	case jsonrpc.Notification:
		if e.Method == "notifications/cancelled" && u.cancelsBlocked(e.Params) {
			v.Action = shimproto.Drop
			return v, nil
		}
	case jsonrpc.Request:
		if _, waiting := u.calls[string(e.ID)]; waiting && !forwarded {
			// Its answer could not be told from the earlier request's,
			// nor judged as the answer to the right one: the client is
			// told, rather than left waiting.
			reason := fmt.Sprintf("request id %s is already in use by a request still waiting for its answer; ids must be unique", e.ID)
			u.refused(j, shimproto.ClientToServer, e.Method, e.ID, reason)
			v.Action, v.Data = shimproto.Respond, jsonrpc.RequestError(e.ID, jsonrpc.BlockPrefix+reason)
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
	}
	if e.Method != "tools/call" {
		return u.message(j, v, e, raw, received)
	}
	c := &call{method: e.Method, requestID: jsonrpc.IDText(e.ID), start: received}
	epoch := u.grants.current()
	later := u.checkCall(j, c, e, raw, forwarded)
	switch {
	case forwarded:
		later = u.wentAhead(j, c, later)
	case e.Kind == jsonrpc.Notification:
		// A call without an id: the server may run it, and nobody gets
		// its answer, so it is recorded now.
		if c.Decision.Action == policy.Deny {
			v.Action = shimproto.Drop
			u.record(j, c, "block", 0, false)
			return v, nil
		}
		return v, func() {
			if later != nil {
				later()
			}
			u.record(j, c, "pass", 0, false)
		}
	default:
		var blocked bool
		if v, blocked = u.apply(j, c, v, e.ID, raw, epoch); blocked {
			return v, nil
		}
	}
	u.track(c, e.ID)
	return v, later
}

// checkCall decides the tools/call e, the message raw (judge.Call), filling
// c: its tool, and its arguments checked together with the rest of the
// message (_meta, the name), which the server reads as well. forwarded:
// the shim sent it on under a grant.
func (u *Stream) checkCall(j *judge.Judge, c *call, e jsonrpc.Envelope, raw []byte, forwarded bool) (later func()) {
	name, args, ok := jsonrpc.ToolCall(e.Params)
	c.tool, c.argsBytes, c.forwarded = name, len(args), forwarded
	c.paths = judge.Paths(args)
	hooked, unjoined := u.join(j, e.Params)
	c.unjoined = unjoined
	if ok {
		c.Decision = u.withheld(j, name)
	} else {
		c.Decision = ambiguousCall
	}
	if c.Decision.Action == policy.Deny {
		c.Analysis.Risk = flow.RiskHigh
		return nil
	}
	// A hook that announced the call asked already; a call without an id
	// cannot be answered, nor held.
	return u.decide(j, c, args, jsonrpc.Rest(raw, args), !hooked && e.Kind == jsonrpc.Request)
}

// cancelsBlocked reports whether a notifications/cancelled with these
// params cancels a request flowd answered itself, which the server never
// saw: it is then swallowed, once.
func (u *Stream) cancelsBlocked(params []byte) bool {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || !u.blocked[string(p.RequestID)] {
		return false
	}
	delete(u.blocked, string(p.RequestID))
	return true
}

// track keeps the client request c with id until its answer comes.
func (u *Stream) track(c *call, id json.RawMessage) {
	if len(u.calls) < maxOutstanding {
		c.idValue, c.hasIDValue = jsonrpc.IDValue(id)
		u.calls[string(id)] = c
	}
}

// batch judges every message inside a JSON-RPC batch (gone from MCP since
// 2025-06-18, but a batch must not be a way around policy). When any is
// denied, nothing reaches the upstream and every request in the batch
// gets a blocked answer.
func (u *Stream) batch(j *judge.Judge, v shimproto.Verdict, raw []byte, received time.Time) shimproto.Verdict {
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		// Its calls cannot be judged, nor its ids answered.
		j.Log.Warn("batch refused: flowd cannot read it", "server", u.Name())
		v.Action = shimproto.Drop
		return v
	}
	var ids [][]byte
	var reason string
	for _, it := range items {
		e, err := jsonrpc.Parse(it)
		if err == nil && e.Kind == jsonrpc.Request && e.Ambiguous != "id" {
			ids = append(ids, e.ID)
		}
		if err == nil && e.Ambiguous != "" && reason == "" {
			reason = fmt.Sprintf("member %q of a message is given twice or in another case, so the server may read it differently from flowd", e.Ambiguous)
		}
		if reason != "" {
			continue
		}
		c := &call{method: e.Method, requestID: jsonrpc.IDText(e.ID), start: received}
		var later func()
		switch {
		case err == nil && e.Method == "tools/call":
			later = u.checkCall(j, c, e, it, false)
		default:
			// Whatever else a member is, even unreadable to flowd, it is
			// data for the server.
			later = u.checkMessage(j, c, it)
		}
		if later != nil {
			later()
		}
		if c.Decision.Action == policy.Deny {
			reason = c.Decision.Reason
			u.record(j, c, "block", 0, false)
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
		r := jsonrpc.BlockedToolResult(id, "a message in this batch was denied: "+reason, u.isModern())
		out = append(out, r[:len(r)-1]...) // without its newline
	}
	v.Action, v.Data = shimproto.Respond, append(out, ']', '\n')
	return v
}

// fromServer judges a server's message: whatever can reach the model is
// screened for prompt injection (judge.Result) and becomes an origin of
// this server. An answer is screened as its request's method calls for
// (screenResult, screenTools, screenAnswer, screenError); a request,
// notification or anything else the server says, by serverMessage.
func (u *Stream) fromServer(j *judge.Judge, v shimproto.Verdict, e jsonrpc.Envelope, raw []byte) (shimproto.Verdict, func()) {
	if e.Kind != jsonrpc.Response && e.Kind != jsonrpc.ErrorReply {
		return u.serverMessage(j, v, e, raw)
	}
	c := u.calls[string(e.ID)]
	switch {
	case c != nil:
		delete(u.calls, string(e.ID))
	case u.unclaimed(j, e):
		return u.refuse(j, v, e, "its id matches no request exactly, but a client may take it for the answer to one "+
			"(clients match ids by value, each its own way), and flowd would not judge it as that"), nil
	default:
		// An answer to no request flowd saw, such as one sent while
		// flowd was away, must not get past the injection scan: it is
		// screened as a result of this server, of no known method.
		c = &call{requestID: jsonrpc.IDText(e.ID), start: time.Now()}
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
		u.withdrawServerGrants()
		u.learnTools(e.Result)
		if e.Kind == jsonrpc.Response {
			v = u.screenTools(j, v, e, raw)
		}
		u.withdrawServerGrants()
	}
	content := e.Result
	switch {
	case e.Kind == jsonrpc.ErrorReply:
		content = e.Error
		v = u.screenError(j, c, v, e, raw)
	case c.method == "tools/list":
		// Screened for poisoned tools above.
	case c.method == "tools/call" || c.method == "resources/read" || c.method == "prompts/get" || c.method == "":
		v = u.screenResult(j, c, v, e, raw)
	default:
		v = u.screenAnswer(j, c, v, e, raw)
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
		logged = u.recordLater(j, c, verdict, len(raw), e.Kind == jsonrpc.ErrorReply || jsonrpc.IsError(e.Result))
	}
	return v, u.origin(j, c, content, e.Kind == jsonrpc.ErrorReply, logged)
}

// published are the methods whose answers are what a server tells about
// itself (flow.Origin.Published).
var published = map[string]bool{"initialize": true, "server/discover": true, "tools/list": true, "prompts/list": true,
	"resources/list": true, "resources/templates/list": true, "completion/complete": true}

// origin returns what records content, which the server sent towards the
// model, as an origin of c's tool or method, after logged (when not nil).
// Checks in this session wait for it from the moment origin returns.
// Content shorter than flow.min_match_length can match nothing, so it is
// not kept. isError: content is an error, never what the server publishes
// about itself.
func (u *Stream) origin(j *judge.Judge, c *call, content []byte, isError bool, logged func()) func() {
	if len(content) < j.Settings().Cfg.Flow.MinMatchLength {
		return logged
	}
	sess := j.Flows.Session(u.session)
	sess.Begin()
	o := flow.Origin{Server: u.Name(), Tool: c.tool, Method: c.method, Class: u.sourceClass(j, c.tool),
		Published: published[c.method] && !isError, Paths: c.paths}
	if len(c.Reads) > 0 {
		o.SecretOutput = c.Reads[0]
	}
	return func() {
		if logged != nil {
			logged()
		}
		sess.Record(o, content)
	}
}

// apply turns c's decision into the verdict on the request raw with id; it
// reports whether the call is blocked. A standing decision also grants the
// tool, unless grants were withdrawn since epoch: before the verdict goes,
// so the shim applies the grant from the next call on.
func (u *Stream) apply(j *judge.Judge, c *call, v shimproto.Verdict, id json.RawMessage, raw []byte, epoch uint64) (_ shimproto.Verdict, blocked bool) {
	if c.Standing {
		u.grants.give(c.tool, epoch, j.Settings().Rules.SuspiciousEndpoints, j.Self.Names())
	}
	if c.Decision.Action == policy.Deny {
		u.blocked[string(id)] = true
		v.Action, v.Data = shimproto.Respond, jsonrpc.BlockedToolResult(id, c.Decision.Reason, u.isModern())
		u.record(j, c, "block", 0, false)
		return v, true
	}
	var forward []byte
	if c.Justification != "" {
		// The server did not ask for it and its schema may refuse it.
		if stripped, ok := jsonrpc.WithoutArgument(raw, policy.JustificationArg); ok {
			forward = stripped
			v.Action, v.Data = shimproto.Replace, stripped
		}
	}
	switch c.Decision.Action {
	case policy.Ask:
		v.Action, v.Data = shimproto.Ask, u.question(j, c, forward)
		u.held[v.Seq] = held{id: string(id), c: c}
	case policy.Warn:
		j.Log.Warn("tool call allowed with a warning", "server", u.Name(), "tool", c.tool, "reason", c.Decision.Reason)
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
func (u *Stream) ambiguous(j *judge.Judge, v shimproto.Verdict, dir shimproto.Direction, e jsonrpc.Envelope) shimproto.Verdict {
	reason := fmt.Sprintf("ambiguous message: member %q is given twice or in another case, so its peer may read it differently from flowd", e.Ambiguous)
	id := e.ID
	if e.Ambiguous == "id" {
		id = nil // which of them is the id is in doubt
	}
	u.refused(j, dir, e.Method, id, reason)
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
func (u *Stream) unread(j *judge.Judge, v shimproto.Verdict, m shimproto.Message) shimproto.Verdict {
	reason := fmt.Sprintf("message of %d bytes is too large for flowd to check (over %d × shim.max_inspect_bytes); raise the limit to allow it",
		m.Size, shimproto.RequestFactor)
	u.refused(j, m.Dir, "", nil, reason)
	v.Action = shimproto.Drop
	if id, ok := jsonrpc.TruncatedID(m.Data, m.Tail); ok {
		v.Action, v.Data = shimproto.Respond, jsonrpc.RequestError(id, jsonrpc.BlockPrefix+reason)
	}
	return v
}

// wentAhead handles a call the shim forwarded under a grant, whose
// judgement ends with later (which may be nil). Policy allows it unless
// the grant was withdrawn while the call was on its way: that is logged
// and recorded, as it could not be stopped. So is a call to a tool flowd
// never granted, which only a shim that breaks the protocol sends. The
// risk is raised after later, which fills the call's analysis anew.
func (u *Stream) wentAhead(j *judge.Judge, c *call, later func()) func() {
	if c.Decision.Action == policy.Allow && u.grants.has(c.tool) {
		return later
	}
	j.Log.Warn("tool call went out under a grant withdrawn meanwhile", "server", u.Name(), "tool", c.tool,
		"decision", c.Decision.Action, "reason", c.Decision.Reason)
	c.Decision.Reason = fmt.Sprintf("sent on by the shim under a grant withdrawn while the call was on its way (or never given); policy now says %s: %s",
		c.Decision.Action, c.Decision.Reason)
	raise := func() { c.Analysis.Risk = flow.MaxRisk(c.Analysis.Risk, flow.RiskHigh) }
	if later == nil {
		raise()
		return nil
	}
	return func() {
		later()
		raise()
	}
}

// unclaimed reports whether e answers no request exactly yet a client may
// take it for an answer flowd must judge as such: its id has the value of
// an outstanding request's (1.0 or "0x1" for 1: the TypeScript SDK matches
// by Number(id)), or it is shaped like a tools/list answer, which must not
// skip pinning whatever id a client matches it to (Python's SDK reads
// "١٠" as 10) while pinning is on.
func (u *Stream) unclaimed(j *judge.Judge, e jsonrpc.Envelope) bool {
	if e.Kind == jsonrpc.Response && j.Settings().Scanner != nil && jsonrpc.MemberFold(e.Result, "tools") {
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
func (u *Stream) refuse(j *judge.Judge, v shimproto.Verdict, e jsonrpc.Envelope, why string) shimproto.Verdict {
	reason := "response refused: " + why
	u.refused(j, shimproto.ServerToClient, "", e.ID, reason)
	v.Action, v.Data = shimproto.Replace, jsonrpc.RequestError(e.ID, jsonrpc.BlockPrefix+reason)
	return v
}

// refused logs and records a message flowd refused for reason.
func (u *Stream) refused(j *judge.Judge, dir shimproto.Direction, method string, id []byte, reason string) {
	j.Log.Warn("message refused", "server", u.Name(), "direction", dir.String(), "reason", reason)
	j.Record(activity.Record{Type: "message", Session: u.session, Server: u.Name(), Method: method, RequestID: jsonrpc.IDText(id),
		Verdict: "block", Decision: string(policy.Deny), Reason: reason, RiskLevel: flow.RiskHigh})
}

// join moves this shim into the agent session whose hook announced the
// call, when the shim could not tell its session itself. It reports whether
// a hook announced the call: the hook has then applied policy already, and
// asked the user where policy says ask; and whether more than one session
// announced it (judge.Contested), so that the call joins none and is
// judged as carrying internal data.
func (u *Stream) join(j *judge.Judge, params []byte) (hooked, unjoined bool) {
	sess, how := j.Announced(params)
	if how == judge.Contested {
		j.Log.Warn("call joins no session: its tool_use_id was announced by more than one session, so it is judged as carrying internal data",
			"server", u.Name(), "session", u.session)
		return false, true
	}
	if owner, _ := sessionid.Owner(sess); owner != u.owner() {
		// In a system flowd a hook of another user announced the same call:
		// sessions never cross users.
		return false, false
	}
	if sess == "" || sess == u.session {
		return sess != "", false
	}
	j.Log.Info("shim joined the hooks' session", "server", u.Name(), "from", u.session, "to", sess, "by", how)
	j.Flows.Session(sess).Link(u.session)
	u.mu.Lock()
	u.session = sess
	u.mu.Unlock()
	return true, false
}

// decide judges a tool call with its arguments and the rest of its
// message (judge.Call), filling c. holdable is whether the shim could hold
// this call to ask the user, where the client can be asked.
func (u *Stream) decide(j *judge.Judge, c *call, args, rest []byte, holdable bool) (later func()) {
	ask := judge.NoAsk
	if holdable && u.elicits && !u.isModern() {
		// The 2026-07-28 revision replaced server-to-client requests with
		// multi-round-trip results, which flowd does not speak yet, so its
		// sessions fall back.
		ask = judge.AskByElicitation
	}
	return j.Call(judge.Call{Session: u.session, Server: u.Name(), Tool: c.tool, Class: u.toolClass(j, c.tool),
		Args: args, Extra: rest, Received: c.start, Bounded: true, Ask: ask, Justifiable: true, Unjoined: c.unjoined,
		Deferred: c.forwarded}, &c.Outcome)
}

// toolClass classifies one of this server's tools as a destination, using
// what tools/list said about it.
func (u *Stream) toolClass(j *judge.Judge, tool string) classify.Result {
	u.mu.Lock()
	defer u.mu.Unlock()
	if r, ok := u.classes[tool]; ok {
		return r
	}
	info, ok := u.tools[tool]
	if !ok {
		info = classify.ToolInfo{Name: tool}
	}
	r := j.Settings().Classifier.ToolOf(u.classifyNames(), info)
	u.classes[tool] = r
	if r.CanExfiltrate || r.Class != classify.Internal {
		u.sendsOut.Store(true)
	}
	return r
}

// SendsOut reports whether any tool the server listed, or was called
// with, is classed as able to send data out. It classifies the listed
// tools it has not classified yet.
func (u *Stream) SendsOut(j *judge.Judge) bool {
	if u.sendsOut.Load() {
		return true
	}
	u.mu.Lock()
	names := make([]string, 0, len(u.tools))
	for name := range u.tools {
		if _, ok := u.classes[name]; !ok {
			names = append(names, name)
		}
	}
	u.mu.Unlock()
	for _, name := range names {
		u.toolClass(j, name)
	}
	return u.sendsOut.Load()
}

// classifyNames are the server's names for classification; the caller
// holds u.mu. Its own serverInfo.name is kept apart from the client's name
// and its command's, as it may only make flowd more cautious.
func (u *Stream) classifyNames() classify.Names {
	return classify.Names{Given: u.hello.Name, Command: NameFromCommand(u.hello.Command), Reported: u.reported}
}

// serverClass classifies the server as a whole.
func (u *Stream) serverClass(c *classify.Classifier) classify.Result {
	u.mu.Lock()
	names := u.classifyNames()
	u.mu.Unlock()
	return c.ServerOf(names)
}

// forgetClasses drops cached classifications after a config reload.
func (u *Stream) forgetClasses() {
	u.mu.Lock()
	clear(u.classes)
	u.mu.Unlock()
}

// sourceClass is the class of data a tool returns: the tool's class, where
// a hybrid tool counts as holding private data (flow.FlowType does that).
func (u *Stream) sourceClass(j *judge.Judge, tool string) classify.Class {
	if tool == "" {
		return u.serverClass(j.Settings().Classifier).Class
	}
	return u.toolClass(j, tool).Class
}

// learnTools keeps each tool's description, parameters and annotations:
// evidence for classifying it.
func (u *Stream) learnTools(result []byte) {
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
func (u *Stream) learn(result []byte) {
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

func (u *Stream) isModern() bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.modern
}

// record writes c's activity record.
func (u *Stream) record(j *judge.Judge, c *call, verdict string, resultBytes int, isErr bool) {
	u.recordLater(j, c, verdict, resultBytes, isErr)()
}

// recordLater fills in c's activity record as of now, on the connection's
// goroutine, and returns what writes it. Encoding the details and the
// write may wait past the verdict, on another goroutine: the record keeps
// its time, latency and session. What the call's check found (its risk,
// its flows) is read then too: the check of a call sent on under a grant
// runs after its result's verdict (Hub.Serve), before what writes the
// record is run.
func (u *Stream) recordLater(j *judge.Judge, c *call, verdict string, resultBytes int, isErr bool) func() {
	now := time.Now()
	typ := c.kind
	if typ == "" {
		typ = activity.TypeToolCall
	}
	rec := activity.Record{
		Time:        now,
		Type:        typ,
		Session:     u.session,
		Server:      u.Name(),
		Tool:        c.name(),
		Method:      c.method,
		RequestID:   c.requestID,
		ArgsBytes:   c.argsBytes,
		ResultBytes: resultBytes,
		Verdict:     verdict,
		Decision:    string(c.Decision.Action),
		Reason:      c.Decision.Reason,
	}
	if verdict != "block" || c.scan != nil {
		rec.LatencyMicros = now.Sub(c.start).Microseconds()
	}
	s := c.scan
	if s != nil && s.Action != injection.ActionPass && rec.Reason == "" {
		rec.Reason = judge.ScanReason(s)
		if s.Quarantine != "" {
			rec.Reason += "; quarantined as " + s.Quarantine
		}
	}
	return func() {
		rec.RiskLevel, rec.FlowType = c.Analysis.Risk, c.Analysis.FlowType
		if s != nil && s.Action != injection.ActionPass {
			rec.RiskLevel = flow.MaxRisk(rec.RiskLevel, judge.ScanRisk(s.Action))
		}
		rec.Details = callDetails(c, isErr)
		j.Record(rec)
	}
}

func callDetails(c *call, isErr bool) json.RawMessage {
	a := judge.TrimEdges(c.Analysis)
	return judge.MustJSON(struct {
		IsError        bool                   `json:"is_error,omitempty"`
		Rule           string                 `json:"rule,omitempty"`
		Classification classify.Result        `json:"classification"`
		Flow           flow.Analysis          `json:"flow"`
		Injection      *flowdclient.Injection `json:"injection,omitempty"`
		Asked          *shimproto.Answer      `json:"asked,omitempty"`     // the user's answer, when flowd asked
		Forwarded      bool                   `json:"forwarded,omitempty"` // the shim sent the call on under a grant
	}{isErr, c.Decision.Rule, c.Class, a, c.scan, c.answer, c.forwarded})
}

// close records the calls that never got an answer.
func (u *Stream) Close(j *judge.Judge) {
	for _, c := range u.calls {
		if c.method == "tools/call" {
			u.record(j, c, "pass", 0, false)
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
