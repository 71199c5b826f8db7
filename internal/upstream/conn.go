package upstream

import (
	"bufio"
	"encoding/json"
	"errors"
	"net"
	"sync"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/jsonrpc"
	"github.com/flowd-dev/flowd/internal/judge"
	"github.com/flowd-dev/flowd/internal/sessionid"
	"github.com/flowd-dev/flowd/internal/shimproto"
	"github.com/flowd-dev/flowd/internal/version"
)

// Accepted is what the hub needs from whoever accepted a connection.
type Accepted struct {
	// SessionKey turns the session the shim's hello names into the flow
	// session it joins: who connected decides that, which the acceptor
	// knows.
	SessionKey func(sessionid.Hints) (string, error)
	// Identified, when set, is called once the shim has said hello.
	Identified func()
	// Judged, when set, is called with the size of each message frame
	// once it is judged, and, for one that the shim waits on, the time
	// from its arrival to its verdict's leaving (0 for the others).
	Judged func(size int, took time.Duration)
}

// helloTimeout is how long an upgraded connection may take to say hello;
// a shim sends it at once.
const helloTimeout = 10 * time.Second

// Serve runs one shim's connection, already upgraded to the shim protocol,
// until the shim goes away or Stop.
func (h *Hub) Serve(conn net.Conn, br *bufio.Reader, a Accepted) {
	j := h.j
	r, w := shimproto.Frames(conn, br)
	r.SetLimit(shimproto.HelloLimit)
	conn.SetReadDeadline(time.Now().Add(helloTimeout))
	t, p, err := r.Next()
	if err != nil || t != shimproto.TypeHello {
		j.Log.Warn("shim connection without hello", "err", err)
		return
	}
	conn.SetReadDeadline(time.Time{})
	if a.Identified != nil {
		a.Identified()
	}
	var hello shimproto.Hello
	if err := json.Unmarshal(p, &hello); err != nil {
		j.Log.Warn("bad shim hello", "err", err)
		return
	}
	sess, err := a.SessionKey(hello.Session)
	if err != nil {
		j.Log.Warn("shim refused", "err", err)
		return
	}
	u := NewStream(h.nextID.Add(1), hello, sess)
	var wmu sync.Mutex // verdicts and messages for the client share the connection
	var stopOnce sync.Once
	stop := func() { stopOnce.Do(func() { conn.Close() }) }
	cfg := j.Settings().Cfg.Shim
	alive := aliveEvery(cfg.VerdictTimeout.Duration)
	class := u.serverClass(j.Settings().Classifier)
	if class.CanExfiltrate && class.Class == classify.Internal {
		class.Class = classify.Hybrid // it can send data out: not a server to fail open for
	}
	// What the shim does while flowd is silent: fail_mode, closed for a
	// server not classed internal (shim.relay.failed).
	silentMode := cfg.FailMode
	if string(class.Class) != shimproto.KeepsDataIn {
		silentMode = "closed"
	}
	if err := w.WriteJSON(shimproto.TypeWelcome, shimproto.Welcome{
		Version:         version.Version,
		Session:         sess,
		FailMode:        cfg.FailMode,
		VerdictTimeout:  cfg.VerdictTimeout.Duration.Milliseconds(),
		MaxInspectBytes: cfg.MaxInspectBytes,
		AliveMS:         alive.Milliseconds(),
		ServerClass:     string(class.Class),
	}); err != nil {
		return
	}
	// A frame longer than the limit of the shim's welcome is not read: a
	// length claimed costs nothing.
	r.SetLimit(shimproto.FrameLimit(cfg.MaxInspectBytes))
	hb := newHeartbeat(alive, func() error {
		wmu.Lock()
		defer wmu.Unlock()
		return w.WriteAlive()
	})
	defer hb.stop()
	u.grants.send = func(g shimproto.Grant) error {
		wmu.Lock()
		err := w.WriteJSON(shimproto.TypeGrant, g)
		wmu.Unlock()
		if err != nil {
			stop() // a shim that may have missed a withdrawal must lose its grant with the connection
		}
		return err
	}
	h.add(&member{s: u, stop: stop, toClient: func(line []byte) error {
		// The shim writes it to its client between whole messages.
		wmu.Lock()
		defer wmu.Unlock()
		return w.WriteToClient(line)
	}})
	defer h.remove(u)
	j.Log.Info("shim connected", "shim", u.id, "server", u.Name(), "session", sess, "pid", hello.PID)
	j.Record(activity.Record{Type: "shim_connect", Session: sess, Server: u.Name(),
		Details: judge.MustJSON(map[string]any{"pid": hello.PID, "command": hello.Command})})
	defer func() {
		u.Close(j)
		j.Log.Info("shim disconnected", "shim", u.id, "server", u.Name())
		j.Record(activity.Record{Type: "shim_disconnect", Session: sess, Server: u.Name()})
	}()
	// gone: a verdict could not be written, so the shim had stopped
	// waiting for it and applied fail_mode. The frames it sent before are
	// still judged, for the record and for what the session learns.
	gone := false
	// held is the check of the last call the shim sent on under a grant,
	// which has no verdict to wait for. It runs once the next message from
	// the server has its verdict, and before anything else is judged: the
	// call's result arrives, as a rule, while the check would still be
	// running on flowd's one scheduler slot, and would wait for it.
	var held func()
	runHeld := func() {
		if h := held; h != nil {
			held = nil
			h()
		}
	}
	defer runHeld() // before the calls never answered are recorded (u.Close)
	for {
		hb.idle()
		t, p, err := r.Next()
		if err != nil {
			if tl := (*shimproto.FrameTooLargeError)(nil); errors.As(err, &tl) {
				j.Log.Warn("shim connection closed: frame over the limit (4 × shim.max_inspect_bytes)", "shim", u.id,
					"server", u.Name(), "size", tl.Size, "limit", tl.Limit)
			}
			return
		}
		hb.working()
		switch t {
		case shimproto.TypeMessage:
			arrived := time.Now()
			m, err := shimproto.DecodeMessage(p)
			if err != nil {
				j.Log.Warn("bad message frame", "shim", u.id, "err", err)
				return
			}
			if m.Dir != shimproto.ServerToClient {
				runHeld() // calls are checked in the order they came
			}
			v, after := u.Judge(j, m)
			var took time.Duration
			if silentMode != "closed" && u.SendsOut(j) {
				// Before the verdict: the next call may meet a silent flowd.
				silentMode = "closed"
				wmu.Lock()
				err = w.WriteJSON(shimproto.TypeServerClass, shimproto.ServerClass{ServerClass: string(classify.Hybrid)})
				wmu.Unlock()
				if err != nil {
					gone = true
				}
			}
			if !m.Forwarded && !gone {
				wmu.Lock()
				err = w.WriteVerdict(v)
				wmu.Unlock()
				took = time.Since(arrived)
				if err != nil {
					gone = true
					j.Log.Warn("shim stopped waiting for verdicts", "shim", u.id, "server", u.Name(), "err", err)
				}
			}
			if !m.Forwarded && gone {
				u.unjudged(j, m, v, silentMode)
			}
			// After the verdict, and before the result's recording, which
			// writes the call's record with what the check found.
			runHeld()
			// Even when the shim is gone: checks of the session wait for it.
			switch {
			case after == nil:
			case m.Dir == shimproto.ServerToClient:
				j.Later(after)
			case m.Forwarded:
				held = after
			default:
				after()
			}
			if a.Judged != nil {
				a.Judged(len(p), took)
			}
		case shimproto.TypeAnswer:
			runHeld()
			var ans shimproto.Answer
			if json.Unmarshal(p, &ans) == nil {
				u.Answered(j, ans)
			}
		case shimproto.TypeUpstream:
			var ev shimproto.UpstreamEvent
			if json.Unmarshal(p, &ev) == nil && ev.Exited {
				j.Log.Info("upstream exited", "server", u.Name(), "code", ev.ExitCode)
			}
		}
	}
}

// unjudged records what became of message m, whose verdict v the shim
// never got: it had given up on flowd (silent for its verdict timeout, or
// the connection closed) and applied fail_mode, so the record of v tells
// what flowd decided, not what happened.
func (u *Stream) unjudged(j *judge.Judge, m shimproto.Message, v shimproto.Verdict, failMode string) {
	rec := activity.Record{Type: "unjudged", Session: u.Session(), Server: u.Name(),
		Verdict: "fail_mode_" + failMode, RiskLevel: flow.RiskHigh,
		Details: judge.MustJSON(map[string]any{"seq": m.Seq, "direction": m.Dir.String(), "flowd_verdict": v.Action.String()})}
	what := "went on unchecked"
	if e, err := jsonrpc.Parse(m.Data); err == nil && !m.Truncated {
		rec.Method = e.Method
		if e.Method == "tools/call" {
			rec.Tool, _, _ = jsonrpc.ToolCall(e.Params)
		}
		// What the shim's fail_mode closed does (shim.relay.failed).
		switch {
		case failMode != "closed":
		case m.Dir == shimproto.ClientToServer && e.Kind == jsonrpc.Request && e.Method == "tools/call":
			what = "was refused by the shim (fail_mode closed)"
		case m.Dir == shimproto.ServerToClient && (e.Kind == jsonrpc.Response || e.Kind == jsonrpc.ErrorReply):
			what = "was replaced by an error by the shim (fail_mode closed), unless its request had gone on unchecked too"
		}
	}
	rec.Reason = "the shim stopped waiting before flowd's verdict (" + v.Action.String() + ") reached it, so the message " + what
	j.Record(rec)
}
