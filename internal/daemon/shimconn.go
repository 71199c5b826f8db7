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
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
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
	if err := w.WriteJSON(shimproto.TypeWelcome, shimproto.Welcome{
		Version:         version.Version,
		Session:         sess,
		FailMode:        cfg.FailMode,
		VerdictTimeout:  cfg.VerdictTimeout.Duration.Milliseconds(),
		MaxInspectBytes: cfg.MaxInspectBytes,
	}); err != nil {
		return
	}
	// A frame longer than the limit of the shim's welcome is not read: a
	// length claimed costs nothing.
	r.SetLimit(shimproto.FrameLimit(cfg.MaxInspectBytes))
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
	for {
		t, p, err := r.Next()
		if err != nil {
			if tl := (*shimproto.FrameTooLargeError)(nil); errors.As(err, &tl) {
				d.log.Warn("shim connection closed: frame over the limit (4 × shim.max_inspect_bytes)", "shim", s.up.id,
					"server", s.up.serverName(), "size", tl.Size, "limit", tl.Limit)
			}
			return
		}
		switch t {
		case shimproto.TypeMessage:
			m, err := shimproto.DecodeMessage(p)
			if err != nil {
				d.log.Warn("bad message frame", "shim", s.up.id, "err", err)
				return
			}
			v, after := s.up.judge(d, m)
			if !m.Forwarded {
				s.wmu.Lock()
				err = w.WriteVerdict(v)
				s.wmu.Unlock()
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
			if err != nil {
				return
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

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
