package judge

import (
	"encoding/json"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/flowd-dev/flowd/internal/budget"
	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/injection"
	"github.com/flowd-dev/flowd/internal/jsonrpc"
	"github.com/flowd-dev/flowd/internal/policy"
	"github.com/flowd-dev/flowd/internal/selfguard"
	"github.com/flowd-dev/flowd/internal/ssrf"
	"github.com/flowd-dev/flowd/internal/unwrap"
)

// Call is one outgoing tool call, as its entrance (a shim's tools/call, a
// hook's PreToolUse) saw it, or another message to a server (Message).
type Call struct {
	Session string
	Server  string // "" for an agent's own tool
	Tool    string
	Class   classify.Result // the destination's class
	Args    []byte
	// Extra is the rest of what the server reads besides Args (a
	// tools/call's name and _meta), checked for secrets, flows and
	// suspicious hosts as Args are; nil when there is none. The agent's
	// justification is read from Args alone.
	Extra []byte
	// Message: Tool names the method of a message that is not a tool call
	// (policy.Call.Message); Args are its params, or the result or error of
	// an answer to the server's request.
	Message bool
	// Lifecycle: the message is one of the protocol's own that carries no
	// user data (policy.Call.Lifecycle).
	Lifecycle bool
	// Received is when the call arrived: the wait for its turn and for
	// its session's earlier results (flow.wait_budget) runs from then.
	// Zero: from now. Its own check (flow.check_budget) runs from the
	// start of the check, the wait for the results not counted.
	Received time.Time
	// Bounded: only the first shim.max_inspect_bytes of Args are read, as
	// for a message a shim relays; what is past them counts as not
	// inspected. A hook's input is read whole.
	Bounded bool
	Ask     Asker
	// AskFallback, when set, is what an ask becomes where Ask is NoAsk,
	// instead of policy.ask_fallback: the setting named AskFallbackKey.
	AskFallback    policy.Action
	AskFallbackKey string
	// Unjoined: the call's agent session could not be told (its
	// tool_use_id was Contested), so it is judged as carrying internal
	// data, as a session flowd forgot is.
	Unjoined bool
	// Justifiable is whether the call can carry policy.JustificationArg:
	// an MCP call through a shim, which strips it before the server.
	Justifiable bool
	// Shell is the command line of a call that runs one in the agent's
	// shell (a hook's Bash), checked against the commands only a human may
	// run (policy.HumanOnlyCommand).
	Shell string
	// Dir is the agent's working directory, where its relative paths
	// start; "" when the entrance does not know it.
	Dir string
	// Deferred: the entrance runs later (the check of a call allowed to
	// a destination that keeps data in) after the session's next
	// messages may have begun: a call the shim sent on under a grant,
	// whose result's verdict goes before the call's check. The results
	// begun before the call are waited for now, and later does not wait
	// again: the call cannot carry a result begun after it, its own
	// among them.
	Deferred bool
}

// Asker is how the entrance could put a call to the user.
type Asker int

const (
	// NoAsk: nothing can ask; policy.ask_fallback applies.
	NoAsk Asker = iota
	// AskByElicitation: the shim can hold the call and ask through the
	// client's form elicitation, where policy.ask_with_elicitation lets it.
	AskByElicitation
	// AskByAgent: the agent asks its user itself (a hook's "ask").
	AskByAgent
)

// Outcome is what flowd decided about a call, and the facts it decided on.
type Outcome struct {
	Decision policy.Decision
	Class    classify.Result
	Analysis flow.Analysis
	// Standing: the decision holds for any call to the tool without a
	// suspicious host in its arguments (policy.Standing).
	Standing bool
	// Justification is the agent's stated reason, read from the arguments.
	Justification string
	// Reads are the credentials the call reads (a credential file, a
	// secret store's command, a tool named for secrets): its result
	// holds them, bare or not (flow.Origin.SecretOutput).
	Reads []string
}

// Call gathers the facts about one outgoing call or message (its destination's class,
// the flows its arguments carry, suspicious hosts, the session's taint)
// and applies policy, filling out. It is the one place flowd decides a
// call, whatever entrance the call came in by.
//
// later, when not nil, completes out.Analysis, which policy did not need:
// the entrance runs it once the verdict is on its way (a call allowed to
// a destination that keeps data inside is not held up for the log), and
// before it records the call.
func (j *Judge) Call(in Call, out *Outcome) (later func()) {
	defer j.refuseOnPanic(in, out, &later)
	out.Class = in.Class
	if in.Shell != "" { // most calls run no command: nothing to read
		if why := policy.HumanOnlyCommand(in.Shell); why != "" {
			out.Decision = policy.Decision{Action: policy.Deny, Rule: "human_only", Reason: why}
			return nil
		}
	}
	set := j.Settings() // one config for the whole decision, whatever a reload does meanwhile
	args, extra := in.Args, in.Extra
	if limit := set.Cfg.Shim.MaxInspectBytes; in.Bounded {
		if len(args) > limit {
			args = args[:limit]
		}
		if len(extra) > limit-len(args) {
			extra = extra[:limit-len(args)]
		}
	}
	// The check's own work fits in flow.check_budget, and the waits for
	// other messages (its turn, the session's earlier results being
	// recorded) end by flow.wait_budget from the call's arrival: a check
	// that runs out of either denies a call that could leave, rather than
	// hold it and the messages behind it for as long as it takes. Apart,
	// so that a call is not denied because other sessions were slow.
	start := time.Now()
	arrived := in.Received
	if arrived.IsZero() {
		arrived = start
	}
	checkBudget, waitBound := set.Cfg.Flow.CheckBudget.Duration, arrived.Add(set.Cfg.Flow.WaitBudget.Duration)
	// What the closures below read, copied: a closure over in would move
	// it to the heap on every call.
	server, tool, class := in.Server, in.Tool, in.Class
	sess := j.Flows.Session(in.Session)
	taint, tainted := sess.Tainted()
	pc := policy.Call{
		Tainted:      tainted,
		TaintReason:  taint,
		Server:       in.Server,
		Tool:         in.Tool,
		Message:      in.Message,
		Lifecycle:    in.Lifecycle,
		External:     in.Class.CanExfiltrate,
		Unclassified: in.Class.Class == classify.Unknown,

		ArgsBytes:      len(in.Args) + len(in.Extra),
		InspectedBytes: len(args) + len(extra),

		CanAsk:         in.Ask == AskByAgent || in.Ask == AskByElicitation && set.Cfg.Policy.AskWithElicitation,
		AskFallback:    in.AskFallback,
		AskFallbackKey: in.AskFallbackKey,
		Justifiable:    in.Justifiable,
	}
	facts := readArgs(in.Tool, args, in.Shell)
	out.Reads = facts.reads
	if in.Server == "" {
		if fs := skillFindings(in.Tool, args, in.Dir); len(fs) > 0 {
			facts.command.Findings = append(facts.command.Findings, fs...)
			facts.writes = true // it runs something
		}
	}
	// Before anything else: a call that would switch flowd off is
	// refused whatever its destination (an internal shell server runs
	// commands too), and never put to the agent, which would approve it.
	if why := j.Self.Check(selfguard.Action{Tool: in.Tool, Commands: facts.commands, Paths: facts.paths,
		Contents: facts.contents, Olds: facts.olds, Dir: in.Dir}); why != "" {
		out.Decision = policy.Decision{Action: policy.Deny, Rule: "self_protection", Reason: why}
		j.Log.Warn("call denied: it would switch flowd off", "server", in.Server, "tool", in.Tool, "why", why)
		return nil
	}
	// Instructions planted for another model are looked for in what a
	// call writes to a file, where the next model to read it finds them,
	// beside the flow check. Messages sent out are not scanned: it would
	// add the scan's time to every call to an external destination.
	var planted chan result[string]
	if set.Scanner != nil && len(facts.texts) > 0 && facts.writes {
		planted = make(chan result[string], 1)
		texts, scanner := facts.texts, set.Scanner
		go func() { planted <- run(func() string { return plantedInjection(scanner, texts, server, tool) }) }()
	}
	// What policy reads of the arguments themselves, before the check:
	// the check stops early where these and the secrets it has found
	// decide the call (settled).
	if f, ok := facts.command.Worst(); ok {
		pc.Command, pc.CommandRule, pc.CommandSevere = f.Reason, f.Rule, f.Severe
	}
	pc.Executes = len(facts.commands) > 0 || facts.writes
	if a := facts.address; a != nil {
		pc.InternalAddress, pc.Metadata = a.Reason(), a.Kind == ssrf.Metadata
	}
	pc.Fetches = pc.External && len(facts.commands) == 0
	if in.Justifiable && set.Rules.RequireJustification {
		pc.Justification = justification(args)
		out.Justification = pc.Justification
	}
	// Policy reads the flow analysis only for a destination that can send
	// data out; for any other it is for the log and the session's summary.
	var views [][]byte
	if !pc.External && facts.shared != "" {
		pc.Shared = facts.shared
	}
	if pc.External || pc.Shared != "" {
		known, rules, thorough := pc, set.Rules, j.thorough
		b := budget.For(checkBudget, waitBound)
		r := checkWithin(b, func() checked {
			defer b.Start()() // its own time is its thread's CPU time
			// The views are built only when the check asks for them
			// (flow.Session.CheckUntil): not for a call the detector's
			// read of it as written settles, nor past the budget.
			endpoint := writtenHost(args, extra, set.hosts)
			decode := func() [][]byte {
				v := decoded(args, extra)
				if endpoint == "" {
					endpoint = set.hosts.In(nil, v)
				}
				return v
			}
			// Policy's rules before the secrets' read nothing the rest of
			// the check finds, and more secrets do not change theirs:
			// where those found so far deny the call, more work would
			// not change the verdict.
			settled := func(secrets []string) bool {
				c := known
				c.Endpoint, c.Secrets = endpoint, secrets
				return !thorough && rules.Decide(c).Action == policy.Deny
			}
			a := sess.CheckUntil(server, tool, class, args, extra, decode, b, settled)
			return checked{endpoint: endpoint, analysis: a}
		})
		out.Analysis, pc.Endpoint = r.analysis, r.endpoint
		if in.Unjoined {
			out.Analysis.AssumeInternal(in.Class.Class, UnjoinedSource)
		}
		pc.Secrets, pc.FlowType, pc.Sources = out.Analysis.Secrets, out.Analysis.FlowType, out.Analysis.Sources
		if !pc.External {
			// A write where others read it: its secrets count, its flows
			// (internal data written locally) do not.
			pc.FlowType, pc.Sources = "", nil
		}
		pc.Unfinished, pc.Overdue = out.Analysis.Unfinished, out.Analysis.Overdue
		if pc.Unfinished && pc.Lifecycle {
			// Policy lets a message of the protocol's own (a ping, a
			// listing) pass unchecked, or the client and server stop
			// talking under load; but it is one by its method's name
			// alone. So a large one is not let pass, and a small one is
			// read whole for secrets by their form first (unbudgeted:
			// small), and not let pass if that read gives up.
			pc.Lifecycle = len(args)+len(extra) <= lifecycleBytes
			if pc.Lifecycle {
				types, complete := j.Flows.SecretShapes(args, extra)
				for _, t := range types {
					if !slices.Contains(pc.Secrets, t) {
						pc.Secrets = append(pc.Secrets, t)
					}
				}
				pc.Lifecycle = complete
			}
		}
		switch {
		case pc.Overdue:
			j.Log.Warn("call unfinished: it waited too long, in all, for other messages or the CPU (flow.wait_budget)", "server", in.Server, "tool", in.Tool,
				"args_bytes", len(in.Args), "wait_budget", set.Cfg.Flow.WaitBudget.Duration, "since_arrival", time.Since(arrived))
		case pc.Unfinished:
			j.Log.Warn("call unfinished: its check ran out of flow.check_budget", "server", in.Server, "tool", in.Tool,
				"args_bytes", len(in.Args), "budget", checkBudget, "spent", time.Since(start), "since_arrival", time.Since(arrived))
		}
	} else {
		views, pc.Endpoint = inspect(args, extra, set.hosts)
	}
	if pc.External {
		// After the check, which waited for the session's results to be
		// recorded: a result holding a secret counts as a read.
		if what, at, ok := sess.SensitiveRead(); ok && time.Since(at) < ReadThenSendWindow && reachesNetwork(facts) {
			pc.SensitiveRead = what
		} else if what, at, ok := sess.SecretResult(); ok && time.Since(at) < ReadThenSendWindow && reachesNetwork(facts) {
			pc.SensitiveRead, pc.SecretResultOnly = what, true
		}
	}
	if out.Analysis.Forgotten {
		// The secret's value was lost with the flowd that held it, or
		// forgotten to stay within flow.max_memory_bytes (a flood of
		// sessions buys that: red team RT8-12): what the call carries
		// that may be it is judged by its form.
		pc.LostSecret = sess.LostSecret()
		if !out.Analysis.Lost {
			pc.LostWhy = "flowd forgot the secret's value to stay within flow.max_memory_bytes"
		}
	}
	if pc.SensitiveRead != "" || pc.LostSecret != "" {
		pc.Payload, pc.SecretFile, pc.SecretFileSent = carried(sess, in, args, facts)
		pc.SendsFile = len(facts.command.Sends) > 0
	}
	pc.KeyRead = facts.keyRead
	if planted != nil {
		// A file where others read (facts.shared) is read by other
		// models too, whatever the class of the server that writes it.
		pc.Injection, pc.InjectionForAgents = (<-planted).get(), facts.forAgents || facts.shared != ""
	}
	out.Decision = set.Rules.Decide(pc)
	if len(facts.reads) > 0 && out.Decision.Action != policy.Deny {
		sess.ReadSensitive(facts.reads[0])
	}
	// The justification argument is removed call by call.
	out.Standing = policy.Standing(pc, out.Decision) && !set.Rules.RequireJustification
	// What finish reads, copied: a closure over pc would move it to the
	// heap on every call.
	analysed, endpoint := pc.External || pc.Shared != "", pc.Endpoint != "" || pc.CommandSevere || pc.Metadata
	// waited, when set, is whether the results begun before a Deferred
	// call were recorded by its wait budget's bound.
	var waited *bool
	finish := func() {
		if !analysed {
			// For the log only: a call to an internal destination is not
			// held up, and its check has a budget of its own.
			b := budget.For(checkBudget, waitBound)
			if waited != nil {
				b.Settled(*waited)
			}
			defer b.Start()()
			out.Analysis = sess.CheckWith(server, tool, class, args, extra, views, b)
		}
		switch {
		case endpoint:
			out.Analysis.Risk = flow.RiskCritical
		case out.Decision.Rule == policy.UninspectedRule, argumentRule(out.Decision.Rule):
			out.Analysis.Risk = flow.MaxRisk(out.Analysis.Risk, flow.RiskHigh)
		}
	}
	if !pc.External && (out.Decision.Action == policy.Allow || out.Decision.Action == policy.Warn) {
		if in.Deferred && !analysed {
			done := sess.WaitUntil(waitBound)
			waited = &done
		}
		return func() {
			// After the verdict: a bug here costs the record's analysis,
			// not flowd.
			defer func() {
				if r := recover(); r != nil {
					j.Log.Error("flowd failed while completing a call's record (a bug: please report it with this log)",
						"server", server, "tool", tool, "panic", r, "stack", string(debug.Stack()))
				}
			}()
			finish()
		}
	}
	finish()
	return nil
}

// inspect decodes the arguments and the rest of a message (unwrap.Views)
// and looks for a suspicious host in them.
func inspect(args, extra []byte, hosts policy.Hosts) (v [][]byte, endpoint string) {
	v = decoded(args, extra)
	endpoint = writtenHost(args, extra, hosts)
	if endpoint == "" {
		endpoint = hosts.In(nil, v)
	}
	return v, endpoint
}

// decoded are the decoded forms of the arguments and of the rest of a
// message.
func decoded(args, extra []byte) [][]byte {
	v := unwrap.Views(args)
	if len(extra) == 0 {
		return v
	}
	return append(v, unwrap.Views(extra)...)
}

// writtenHost is the first suspicious host named in the arguments or the
// rest of a message as they are written, or "".
func writtenHost(args, extra []byte, hosts policy.Hosts) string {
	if h := hosts.In(args, nil); h != "" {
		return h
	}
	return hosts.In(extra, nil)
}

// justification reads the agent's stated reason from a call's arguments.
func justification(args []byte) string {
	raw, ok := jsonrpc.Member(args, policy.JustificationArg)
	if !ok {
		return ""
	}
	var s string
	json.Unmarshal(raw, &s)
	return s
}

// checked is what the check of a call to an external destination found.
type checked struct {
	endpoint string
	analysis flow.Analysis
}

// lifecycleBytes is the most params a message of the protocol's own may
// carry and still pass with its check cut short: a handshake or a
// listing's cursor is far smaller, and 16 KiB is read in a millisecond.
const lifecycleBytes = 16 << 10

// checkWithin runs check and returns what it found, or, once b's bound
// has passed (flow.wait_budget from the call's arrival), an unfinished
// analysis: the matchers stop at their next look at the budget, but a
// stage that does not look at it (a long fingerprint match), a wait, or
// a CPU that other work keeps busy must not hold the verdict either. A
// check left behind finishes on its own and is dropped.
func checkWithin(b *budget.Budget, check func() checked) checked {
	done := make(chan result[checked], 1)
	go func() { done <- run(check) }()
	t := time.NewTimer(time.Until(b.Due()))
	defer t.Stop()
	select {
	case r := <-done:
		return r.get()
	case <-t.C:
		return overdue
	}
}

// overdue is what a check found that had not finished by its budget's
// bound.
var overdue = checked{analysis: flow.Analysis{Risk: flow.RiskHigh, Unfinished: true, Overdue: true}}

// ReadThenSendWindow is how long after a session reads a credential a
// call that reaches the network falls under policy.read_then_send.
const ReadThenSendWindow = 10 * time.Minute

// reachesNetwork reports whether a call to a destination that can send
// data out actually talks to other hosts: a call that runs commands does
// only when they do (curl of the local dev server does not).
func reachesNetwork(f argFacts) bool {
	if len(f.commands) == 0 {
		return true
	}
	return f.network()
}

// argumentRule reports whether a rule decided on what the arguments run,
// fetch or follow rather than on data matched in them.
func argumentRule(rule string) bool {
	for _, p := range []string{"command.", "risky_commands.", "private_addresses", "read_then_send", "injection_in_arguments"} {
		if strings.HasPrefix(rule, p) {
			return true
		}
	}
	return false
}

// plantedInjection scans the texts a call writes or sends for
// instructions to an AI model, and describes what scores at the block
// threshold, or returns "".
func plantedInjection(sc *injection.Scanner, texts []string, server, tool string) string {
	ctx := injection.Context{Server: server, Tool: tool}
	for _, t := range texts {
		if r := sc.ScanText(t, "arguments", ctx); r.Action == injection.ActionBlock {
			return fmt.Sprintf("rules: %s; score %.2f", RuleNames(r.Detections), r.Score)
		}
	}
	return ""
}

// InternalErrorRule is the rule of a call refused because flowd failed
// while checking it.
const InternalErrorRule = "internal_error"

// refuseOnPanic, deferred by Call, turns a panic while judging into a
// refusal. Left alone, the panic would end the request, and the entrances
// take a dropped connection for a flowd that is gone: under fail_mode
// "open" the very message being judged would pass unchecked. It is a bug,
// so it is logged with its stack.
func (j *Judge) refuseOnPanic(in Call, out *Outcome, later *func()) {
	r := recover()
	if r == nil {
		return
	}
	stack := debug.Stack()
	if c, ok := r.(*panicked); ok {
		r, stack = c.value, c.stack
	}
	j.Log.Error("flowd failed while checking a call, and refused it (a bug: please report it with this log)",
		"server", in.Server, "tool", in.Tool, "panic", r, "stack", string(stack))
	out.Decision = policy.Decision{Action: policy.Deny, Rule: InternalErrorRule,
		Reason: "flowd could not finish checking this call (an internal error, logged), so it is refused rather than passed unchecked"}
	*later = nil
}

// result is what a part of a check run on a goroutine of its own returned,
// or the panic it ended in.
type result[T any] struct {
	v      T
	failed *panicked
}

// panicked is a panic on a check's goroutine, with that goroutine's stack.
type panicked struct {
	value any
	stack []byte
}

// run runs f, catching a panic: on a goroutine of its own, an uncaught
// panic would end flowd.
func run[T any](f func() T) (r result[T]) {
	defer func() {
		if p := recover(); p != nil {
			r.failed = &panicked{value: p, stack: debug.Stack()}
		}
	}()
	return result[T]{v: f()}
}

// get returns the value, or panics again on the goroutine that waits for
// it, for Call's refuseOnPanic.
func (r result[T]) get() T {
	if r.failed != nil {
		panic(r.failed)
	}
	return r.v
}
