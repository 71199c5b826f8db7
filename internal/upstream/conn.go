package upstream

import (
	"bufio"
	"encoding/json"
	"net"
	"sync"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/judge"
	"github.com/flowd-dev/flowd/internal/sessionid"
	"github.com/flowd-dev/flowd/internal/shimproto"
	"github.com/flowd-dev/flowd/internal/version"
)

// Serve runs one shim's connection, already upgraded to the shim protocol,
// until the shim goes away or Stop. sessionKey turns the session the
// shim's hello names into the flow session it joins (who connected
// decides that, which the caller knows).
func (h *Hub) Serve(conn net.Conn, br *bufio.Reader, sessionKey func(sessionid.Hints) (string, error)) {
	j := h.j
	r, w := shimproto.Frames(conn, br)
	t, p, err := r.Next()
	if err != nil || t != shimproto.TypeHello {
		j.Log.Warn("shim connection without hello", "err", err)
		return
	}
	var hello shimproto.Hello
	if err := json.Unmarshal(p, &hello); err != nil {
		j.Log.Warn("bad shim hello", "err", err)
		return
	}
	sess, err := sessionKey(hello.Session)
	if err != nil {
		j.Log.Warn("shim refused", "err", err)
		return
	}
	u := NewStream(h.nextID.Add(1), hello, sess)
	var wmu sync.Mutex // verdicts and messages for the client share the connection
	var stopOnce sync.Once
	stop := func() { stopOnce.Do(func() { conn.Close() }) }
	cfg := j.Settings().Cfg.Shim
	if err := w.WriteJSON(shimproto.TypeWelcome, shimproto.Welcome{
		Version:         version.Version,
		Session:         sess,
		FailMode:        cfg.FailMode,
		VerdictTimeout:  cfg.VerdictTimeout.Duration.Milliseconds(),
		MaxInspectBytes: cfg.MaxInspectBytes,
	}); err != nil {
		return
	}
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
	for {
		t, p, err := r.Next()
		if err != nil {
			return
		}
		switch t {
		case shimproto.TypeMessage:
			m, err := shimproto.DecodeMessage(p)
			if err != nil {
				j.Log.Warn("bad message frame", "shim", u.id, "err", err)
				return
			}
			v, after := u.Judge(j, m)
			if !m.Forwarded {
				wmu.Lock()
				err = w.WriteVerdict(v)
				wmu.Unlock()
			}
			// Even when the shim is gone: checks of the session wait for it.
			switch {
			case after == nil:
			case m.Dir == shimproto.ServerToClient:
				j.Later(after)
			default:
				after()
			}
			if err != nil {
				return
			}
		case shimproto.TypeAnswer:
			var a shimproto.Answer
			if json.Unmarshal(p, &a) == nil {
				u.Answered(j, a)
			}
		case shimproto.TypeUpstream:
			var ev shimproto.UpstreamEvent
			if json.Unmarshal(p, &ev) == nil && ev.Exited {
				j.Log.Info("upstream exited", "server", u.Name(), "code", ev.ExitCode)
			}
		}
	}
}
