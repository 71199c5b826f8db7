package daemon

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/jsonrpc"
	"github.com/flowd-dev/flowd/internal/shimproto"
	"github.com/flowd-dev/flowd/internal/version"
)

// shimConn is one connected shim.
type shimConn struct {
	conn     net.Conn
	up       *upstream
	stopOnce sync.Once

	wmu sync.Mutex // verdicts and messages for the client share the connection
	w   *shimproto.Writer
}

// toClient has the shim write line to its client, between whole messages.
func (s *shimConn) toClient(line []byte) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	return s.w.WriteToClient(line)
}

// stop makes the connection's loop end after the verdict it is deciding.
func (s *shimConn) stop() { s.stopOnce.Do(func() { s.conn.Close() }) }

// serveShim upgrades the HTTP request to the shim protocol and runs the
// connection until the shim goes away or flowd stops.
func (d *Daemon) serveShim(w http.ResponseWriter, r *http.Request) {
	if !strings.EqualFold(r.Header.Get("Upgrade"), shimproto.Version) {
		http.Error(w, "this endpoint speaks only "+shimproto.Version, http.StatusUpgradeRequired)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, "connection cannot be upgraded", http.StatusInternalServerError)
		return
	}
	conn, brw, err := hj.Hijack()
	if err != nil {
		d.log.Warn("hijack shim connection", "err", err)
		return
	}
	d.wg.Add(1)
	defer d.wg.Done()
	defer conn.Close()
	defer d.conns.Identified(conn)
	// The server's request deadlines do not apply to a shim, which is
	// silent while its agent thinks; its hello has one of its own.
	conn.SetDeadline(time.Time{})
	if _, err := io.WriteString(conn, shimproto.SwitchingProtocols); err != nil {
		return
	}
	d.runShim(r.Context(), conn, brw.Reader)
}

// helloTimeout is how long an upgraded connection may take to say hello;
// a shim sends it at once.
const helloTimeout = 10 * time.Second

// runShim serves one shim; ctx carries who connected.
func (d *Daemon) runShim(ctx context.Context, conn net.Conn, br *bufio.Reader) {
	r, w := shimproto.Frames(conn, br)
	r.SetLimit(shimproto.HelloLimit)
	conn.SetReadDeadline(time.Now().Add(helloTimeout))
	t, p, err := r.Next()
	if err != nil || t != shimproto.TypeHello {
		d.log.Warn("shim connection without hello", "err", err)
		return
	}
	conn.SetReadDeadline(time.Time{})
	d.conns.Identified(conn)
	var h shimproto.Hello
	if err := json.Unmarshal(p, &h); err != nil {
		d.log.Warn("bad shim hello", "err", err)
		return
	}
	sess, err := d.sessionKey(ctx, h.Session)
	if err != nil {
		d.log.Warn("shim refused", "err", err)
		return
	}
	s := &shimConn{conn: conn, up: newUpstream(d.nextID.Add(1), h, sess), w: w}
	cfg := d.current().cfg.Shim
	alive := aliveEvery(cfg.VerdictTimeout.Duration)
	if err := w.WriteJSON(shimproto.TypeWelcome, shimproto.Welcome{
		Version:         version.Version,
		Session:         sess,
		FailMode:        cfg.FailMode,
		VerdictTimeout:  cfg.VerdictTimeout.Duration.Milliseconds(),
		MaxInspectBytes: cfg.MaxInspectBytes,
		AliveMS:         alive.Milliseconds(),
	}); err != nil {
		return
	}
	// A frame longer than the limit of the shim's welcome is not read: a
	// length claimed costs nothing.
	r.SetLimit(shimproto.FrameLimit(cfg.MaxInspectBytes))
	hb := newHeartbeat(alive, func() error {
		s.wmu.Lock()
		defer s.wmu.Unlock()
		return w.WriteAlive()
	})
	defer hb.stop()
	s.up.grants.send = func(g shimproto.Grant) error {
		s.wmu.Lock()
		err := w.WriteJSON(shimproto.TypeGrant, g)
		s.wmu.Unlock()
		if err != nil {
			s.stop() // a shim that may have missed a withdrawal must lose its grant with the connection
		}
		return err
	}
	d.addShim(s)
	defer d.removeShim(s)
	d.log.Info("shim connected", "shim", s.up.id, "server", s.up.serverName(), "session", sess, "pid", h.PID)
	d.store.Append(activity.Record{Type: "shim_connect", Session: sess, Server: s.up.serverName(),
		Details: mustJSON(map[string]any{"pid": h.PID, "command": h.Command})})
	defer func() {
		s.up.close(d)
		d.log.Info("shim disconnected", "shim", s.up.id, "server", s.up.serverName())
		d.store.Append(activity.Record{Type: "shim_disconnect", Session: sess, Server: s.up.serverName()})
	}()
	// gone: a verdict could not be written, so the shim had stopped
	// waiting for it and applied fail_mode. The frames it sent before are
	// still judged, for the record and for what the session learns.
	gone := false
	for {
		hb.idle()
		t, p, err := r.Next()
		if err != nil {
			if tl := (*shimproto.FrameTooLargeError)(nil); errors.As(err, &tl) {
				d.log.Warn("shim connection closed: frame over the limit (4 × shim.max_inspect_bytes)", "shim", s.up.id,
					"server", s.up.serverName(), "size", tl.Size, "limit", tl.Limit)
			}
			return
		}
		hb.working()
		switch t {
		case shimproto.TypeMessage:
			m, err := shimproto.DecodeMessage(p)
			if err != nil {
				d.log.Warn("bad message frame", "shim", s.up.id, "err", err)
				return
			}
			v, after := s.up.judge(d, m)
			if !m.Forwarded && !gone {
				s.wmu.Lock()
				err = w.WriteVerdict(v)
				s.wmu.Unlock()
				if err != nil {
					gone = true
					d.log.Warn("shim stopped waiting for verdicts", "shim", s.up.id, "server", s.up.serverName(), "err", err)
				}
			}
			if !m.Forwarded && gone {
				s.unjudged(d, m, v, cfg.FailMode)
			}
			// Even when the shim is gone: checks of the session wait for it.
			switch {
			case after == nil:
			case m.Dir == shimproto.ServerToClient:
				d.behind.add(after)
			default:
				after()
			}
			if len(p) >= releaseAfter {
				d.releaseMemory()
			}
		case shimproto.TypeAnswer:
			var a shimproto.Answer
			if json.Unmarshal(p, &a) == nil {
				s.up.answered(d, a)
			}
		case shimproto.TypeUpstream:
			var ev shimproto.UpstreamEvent
			if json.Unmarshal(p, &ev) == nil && ev.Exited {
				d.log.Info("upstream exited", "server", s.up.serverName(), "code", ev.ExitCode)
			}
		}
	}
}

// unjudged records what became of message m, whose verdict v the shim
// never got: it had given up on flowd (silent for its verdict timeout, or
// the connection closed) and applied fail_mode, so the record of v tells
// what flowd decided, not what happened.
func (s *shimConn) unjudged(d *Daemon, m shimproto.Message, v shimproto.Verdict, failMode string) {
	rec := activity.Record{Type: "unjudged", Session: s.up.session, Server: s.up.serverName(),
		Verdict: "fail_mode_" + failMode, RiskLevel: flow.RiskHigh,
		Details: mustJSON(map[string]any{"seq": m.Seq, "direction": m.Dir.String(), "flowd_verdict": v.Action.String()})}
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
	d.store.Append(rec)
}

// aliveEvery is how often flowd tells a shim it is still working on its
// messages: well within the shim's verdict timeout, so that only a flowd
// that is stopped or hung stays silent that long.
func aliveEvery(verdictTimeout time.Duration) time.Duration {
	return max(time.Millisecond, min(100*time.Millisecond, verdictTimeout/4))
}

// heartbeat sends Alive frames while a shim connection's loop is working
// on a frame (judging, recording), and none while it waits for the next
// one: an idle connection costs no wake-ups.
type heartbeat struct {
	every time.Duration
	send  func() error
	busy  atomic.Bool
	armed atomic.Bool // the timer is running; only the one who arms it resets it
	t     *time.Timer
}

func newHeartbeat(every time.Duration, send func() error) *heartbeat {
	h := &heartbeat{every: every, send: send}
	h.t = time.AfterFunc(time.Hour, h.beat)
	h.t.Stop()
	return h
}

func (h *heartbeat) working() {
	h.busy.Store(true)
	if h.armed.CompareAndSwap(false, true) {
		h.t.Reset(h.every)
	}
}

func (h *heartbeat) idle() { h.busy.Store(false) }

func (h *heartbeat) beat() {
	if !h.busy.Load() {
		h.armed.Store(false)
		// working may have come between the two: whoever wins the timer arms it.
		if !h.busy.Load() || !h.armed.CompareAndSwap(false, true) {
			return
		}
	}
	if h.send() != nil {
		return // the connection is gone; its loop ends
	}
	h.t.Reset(h.every)
}

// stop ends the beats for good: armed stays set, so nothing re-arms.
func (h *heartbeat) stop() {
	h.armed.Store(true)
	h.t.Stop()
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
