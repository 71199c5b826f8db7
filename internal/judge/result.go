package judge

import (
	"fmt"
	"runtime/debug"
	"slices"
	"time"

	"github.com/flowd-dev/flowd/internal/attackprint"
	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/injection"
	"github.com/flowd-dev/flowd/internal/jsonrpc"
	"github.com/flowd-dev/flowd/internal/quarantine"
)

// Result is one incoming result, as its entrance (a shim's response to
// tools/call, resources/read or prompts/get; a hook's PostToolUse) saw it.
type Result struct {
	Session string
	Server  string
	Tool    string
	Method  string // what produced it, as the quarantine keeps it
	Class   classify.Class
	Content []byte
	// Message, when set, is the whole message Content is part of (a
	// sub-slice of it): what Result rewrites is then the whole message,
	// copied once however large.
	Message []byte
	// Rewrite: the entrance can pass on content Result rewrote (a shim;
	// a hook whose agent takes a replacement output).
	Rewrite bool
	// Notice, when set, returns whole (Message, or Content when there is
	// none) with text put before content (of Method), in the shape the
	// entrance passes on. Without it the entrance
	// shows a flag notice its own way. (A function of its own rather than
	// a closure over the message: a verdict allocates as little as it can.)
	Notice func(method string, whole, content []byte, text string) ([]byte, error)
	// Definition: Content is what a server wrote to tell the model how to
	// use it (its handshake's instructions), which addresses the model by
	// design, as a tool's definition does. As for a tool list, only a block
	// acts on it; a lesser verdict is reported, and neither taints nor
	// changes it.
	Definition bool
	// Strict: content that cannot be marked as its verdict says is
	// quarantined instead, for a shim, where what it passes on is all the
	// model reads. A hook's tool has run already; its output stays, with
	// flowd's warning beside it.
	Strict bool
}

// Screened is what Result found in a result and did about it.
type Screened struct {
	// Report is what goes in the activity record; nil when the scan found
	// nothing worth one.
	Report *flowdclient.Injection
	// Found is the scan's result; Unscanned reports that its action is
	// for the part a bound kept from the scan, not for anything found.
	Found     injection.Result
	Unscanned bool
	// Content, when not nil, is what to pass on in the result's place:
	// the content (the whole message, when Result.Message was given) with
	// a notice before it, or redacted.
	Content []byte
	// Blocked: the result must not reach the model. It is quarantined
	// (as Report.Quarantine, when that worked); the entrance passes on
	// QuarantineNotice(Report) instead.
	Blocked bool
}

// Result screens one incoming result for prompt injection: content a
// human released earlier passes; otherwise it is scanned, a flagged (or
// worse) result from a source that may be external taints the session,
// and the content is marked, redacted or quarantined as the verdict says.
// It is the one place flowd screens a result, whatever entrance the
// result came in by.
func (j *Judge) Result(in Result) (s Screened) {
	defer j.withholdOnPanic(in, &s)
	set := j.Settings()
	if set.Scanner == nil || len(in.Content) == 0 {
		return s
	}
	if j.Quarantine.ReleasedFor(in.Session, in.Server, in.Content) {
		s.Report = &flowdclient.Injection{Server: in.Server, Tool: in.Tool, Action: injection.ActionPass, Released: true}
		return s
	}
	r, unscanned := set.scan(in.Content, injection.Context{ExternalSource: Untrusted(in.Class), Server: in.Server, Tool: in.Tool,
		SessionTools: j.sessionTools(in.Session)})
	if known := j.knownAttack(set, in, &r); !known {
		j.learnAttack(set, in, r, unscanned)
	}
	s.Found, s.Unscanned = r, unscanned
	if !reportable(r) {
		return s
	}
	rep := report(in.Server, in.Tool, r)
	s.Report = rep
	if r.Truncated {
		j.Log.Debug("result not scanned whole", "server", in.Server, "tool", in.Tool, "bound", r.Coverage.Truncated,
			"scanned", r.Coverage.Scanned, "total", r.Coverage.Total)
	}
	if r.Action == injection.ActionPass || in.Definition && r.Action != injection.ActionBlock {
		return s
	}
	if Untrusted(in.Class) {
		j.Flows.Session(in.Session).Taint(taintReason(rep))
		rep.Tainted = true
	}
	var err error
	switch r.Action {
	case injection.ActionFlag:
		if in.Notice != nil {
			notice := flagNotice(rep)
			if unscanned {
				notice = incompleteNotice(rep)
			}
			whole := in.Message
			if whole == nil {
				whole = in.Content
			}
			s.Content, err = in.Notice(in.Method, whole, in.Content, notice)
		}
	case injection.ActionRedact:
		if in.Rewrite {
			if s.Content, err = injection.Redact(in.Content, r); err == nil && in.Message != nil {
				s.Content = jsonrpc.Splice(in.Message, in.Content, s.Content)
			}
		}
	}
	if err != nil {
		s.Content = nil
		if in.Strict {
			// Content flowd cannot mark must not reach the model unmarked.
			j.Log.Warn("cannot rewrite a result that scored as prompt injection; quarantining it instead",
				"server", in.Server, "tool", in.Tool, "action", r.Action, "err", err)
		}
	}
	if r.Action == injection.ActionBlock || err != nil && in.Strict {
		j.quarantine(in, rep)
		s.Blocked = true
		// The report goes on into activity records, the event stream and
		// exports, which any process of the user's reads: it names the
		// rules, and what the withheld text said stays with the
		// quarantine, shown only with the approval passphrase (RT6-3).
		rep.Detections, rep.Waived = injection.WithoutExcerpts(rep.Detections), injection.WithoutExcerpts(rep.Waived)
	}
	return s
}

// KnownAttackRule names the detection a known attack's print adds.
const KnownAttackRule = "known_attack"

// knownAttack raises r to what a known attack that content repeats
// deserves: flagged, or blocked when the attack was. It reports whether
// content matched one.
func (j *Judge) knownAttack(set *Settings, in Result, r *injection.Result) bool {
	if j.Attacks == nil || !set.Cfg.Injection.KnownAttacks.Enabled || j.Attacks.Len() == 0 {
		return false
	}
	m, ok := j.Attacks.Match(flow.Strings(in.Content, attackprint.MaxText))
	if !ok {
		return false
	}
	// The same words as a blocked attack are blocked; a rewording around
	// the same address is likelier to be an honest mention, so flagged.
	act := injection.ActionFlag
	if m.Print.Action == string(injection.ActionBlock) && m.How == "content" {
		act = injection.ActionBlock
	}
	// A print has no span to redact: the attack it matched may be
	// reworded. What would have been redacted is flagged whole.
	if actionRank(act) > actionRank(r.Action) {
		r.Action = act
	}
	r.Score = max(r.Score, m.Print.Risk)
	r.Detections = append(r.Detections, injection.Detection{Rule: KnownAttackRule, Tier: injection.Structural,
		Severity: m.Print.Risk, Field: injection.RawField,
		Excerpt: fmt.Sprintf("repeats known attack %s by its %s (%d of its phrases; first caught %s, %s)",
			m.Print.ID, m.How, m.Shared, m.Print.Seen.Format(time.DateOnly), printSource(m.Print))})
	return true
}

func printSource(p attackprint.Print) string {
	if p.Source == "" || p.Source == "local" {
		return "here"
	}
	return "feed " + p.Source
}

func actionRank(a injection.Action) int {
	return slices.Index([]injection.Action{injection.ActionPass, injection.ActionFlag, injection.ActionRedact, injection.ActionBlock}, a)
}

// learnAttack keeps a print of an attack the scan caught in a result from
// a source that may be external, so that it is known at first sight when
// it comes again. Storing it waits for the background worker.
func (j *Judge) learnAttack(set *Settings, in Result, r injection.Result, unscanned bool) {
	if j.Attacks == nil || !set.Cfg.Injection.KnownAttacks.Enabled || !Untrusted(in.Class) || unscanned ||
		r.Action == injection.ActionPass || in.Definition {
		return
	}
	p, ok := attackprint.Make(injection.Spans(in.Content, r), distinct(r.Detections, func(d injection.Detection) string { return d.Rule }),
		r.Score, string(r.Action), time.Now())
	if !ok {
		return
	}
	j.behind.add(func() {
		if n, err := j.Attacks.Add(p); err != nil {
			j.Log.Error("keep a print of a caught attack", "print", p.ID, "err", err)
		} else if n > 0 {
			j.Log.Info("kept a print of a caught attack", "print", p.ID, "server", in.Server, "tool", in.Tool, "action", p.Action)
		}
	})
}

// quarantine keeps blocked content for a human to review, and notes its
// ID in the report.
func (j *Judge) quarantine(in Result, rep *flowdclient.Injection) {
	it, err := j.Quarantine.Add(quarantine.Item{Session: in.Session, Server: in.Server, Tool: in.Tool,
		Method: in.Method, Score: rep.Score, Detections: rep.Detections}, in.Content)
	if err != nil {
		j.Log.Error("quarantine blocked content", "server", in.Server, "tool", in.Tool, "err", err)
		return
	}
	rep.Quarantine = it.ID
	j.Log.Warn("result quarantined as prompt injection", "server", in.Server, "tool", in.Tool,
		"id", it.ID, "score", rep.Score, "rules", RuleNames(rep.Detections))
}

// Unscanned settles a result of size bytes that its entrance could not
// show flowd whole (over shim.max_inspect_bytes): it cannot be scanned, so
// unless injection.on_incomplete is "pass" a source that may be external
// taints the session, as a flagged result would. The report says so.
func (j *Judge) Unscanned(session, server, tool string, class classify.Class, size int) *flowdclient.Injection {
	rep := &flowdclient.Injection{Server: server, Tool: tool, Action: injection.ActionPass, Truncated: true,
		Scan: &injection.Coverage{Truncated: injection.BoundBytes, Total: size}}
	if Untrusted(class) && flagsIncomplete(j.Settings().Cfg.Injection.OnIncomplete, true) {
		j.Flows.Session(session).Taint(fmt.Sprintf("an unscanned result of %d bytes from %s", size, SourceName(server, tool)))
		rep.Tainted = true
	}
	return rep
}

// Untrusted reports whether content from a source of this class may come
// from outside the user's control: anything flowd does not know to be
// internal.
func Untrusted(c classify.Class) bool { return c != classify.Internal }

// scan scans content for prompt injection with these settings and
// applies injection.on_incomplete; unscanned reports that the action is
// for the part of content a bound kept from the scan, not for anything
// found in it.
func (s *Settings) scan(content []byte, ctx injection.Context) (r injection.Result, unscanned bool) {
	return onIncomplete(s.Scanner.ScanResult(content, ctx), s.Cfg.Injection.OnIncomplete, ctx.ExternalSource)
}

// onIncomplete applies injection.on_incomplete to a scan's result: with
// "flag", or "untrusted" and a source that may be external, a result that
// a bound cut short and that would pass is flagged. A result that scored
// more keeps its action: the part scanned says enough.
func onIncomplete(r injection.Result, mode string, external bool) (_ injection.Result, unscanned bool) {
	if !flagsIncomplete(mode, external) || !r.Truncated || r.Action != injection.ActionPass {
		return r, false
	}
	r.Action = injection.ActionFlag
	return r, true
}

// flagsIncomplete reports whether injection.on_incomplete flags content
// not scanned whole from a source that may be external or not.
func flagsIncomplete(mode string, external bool) bool {
	return mode == config.IncompleteFlag || mode == config.IncompleteUntrusted && external
}

// reportable reports whether a scan has anything for the activity log:
// detections, detections a waiver silenced, or content it did not scan
// whole, which the user is owed even when it passes.
func reportable(r injection.Result) bool {
	return len(r.Detections) > 0 || len(r.Waived) > 0 || r.Truncated
}

// withholdOnPanic, deferred by Result, keeps a panic while screening from
// passing the result unscreened: the entrance would take the dropped
// connection for a flowd that is gone and apply fail_mode. Content from a
// source that may be external is withheld and taints the session, as a
// blocked attack would; a bug is no reason to trust it.
func (j *Judge) withholdOnPanic(in Result, s *Screened) {
	r := recover()
	if r == nil {
		return
	}
	j.Log.Error("flowd failed while screening a result (a bug: please report it with this log)",
		"server", in.Server, "tool", in.Tool, "panic", r, "stack", string(debug.Stack()))
	rep := &flowdclient.Injection{Server: in.Server, Tool: in.Tool, Action: injection.ActionPass,
		Detections: []injection.Detection{{Rule: InternalErrorRule}}}
	*s = Screened{Report: rep}
	if !Untrusted(in.Class) {
		return
	}
	rep.Action, s.Found.Action, s.Blocked = injection.ActionBlock, injection.ActionBlock, true
	j.Flows.Session(in.Session).Taint(taintReason(rep))
	rep.Tainted = true
}
