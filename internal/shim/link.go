package shim

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"sync"
	"syscall"
	"time"

	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

// pending is one message waiting for its verdict.
type pending struct {
	seq      uint64
	dir      shimproto.Direction
	line     []byte
	box      *outbox // the direction's queue, told when v or lost is set
	v        shimproto.Verdict
	lost     bool // no verdict will come: apply fail_mode
	timedOut bool // lost because flowd was too slow, not gone

	// Guarded by box.mu.
	done     bool      // v or lost is set
	deadline time.Time // when the head of the queue stops waiting for v
}

// link is the shim's connection to flowd, replaced on reconnect.
type link struct {
	socket    string
	hello     shimproto.Hello
	autostart func() error // nil: never start flowd
	logf      func(format string, args ...any)
	toClient  func(line []byte) // writes a message from flowd to the client

	mu       sync.Mutex
	conn     net.Conn
	w        *shimproto.Writer
	wmu      sync.Mutex // serialises frame writes; separate from mu so verdicts are not held up by a large write
	pend     map[uint64]*pending
	welcome  shimproto.Welcome
	grant    *grant // what flowd lets through at once; nil: every message waits for its verdict
	grantSeq uint64 // the newest grant frame applied on this connection
	dialing  bool
	closed   bool
	everUp   bool
	lastAuto time.Time
	up       chan struct{} // closed and replaced each time the link comes up; tests wait on it
}

func newLink(socket string, hello shimproto.Hello, autostart func() error, logf func(string, ...any)) *link {
	return &link{socket: socket, hello: hello, autostart: autostart, logf: logf,
		pend: make(map[uint64]*pending), up: make(chan struct{})}
}

// connect makes one attempt to reach flowd, starting it if allowed.
func (l *link) connect() error {
	c, err := localsock.Dial(l.socket, 2*time.Second)
	if err != nil && l.autostart != nil && absent(err) && time.Since(l.lastAuto) > 10*time.Second {
		l.lastAuto = time.Now()
		if serr := l.autostart(); serr != nil {
			return fmt.Errorf("start flowd: %w", serr)
		}
		c, err = localsock.Dial(l.socket, 2*time.Second)
	}
	if err != nil {
		return err
	}
	br, err := shimproto.Upgrade(c, 5*time.Second)
	if err != nil {
		c.Close()
		return err
	}
	r, w := shimproto.Frames(c, br)
	if err := w.WriteJSON(shimproto.TypeHello, l.hello); err != nil {
		c.Close()
		return fmt.Errorf("send hello: %w", err)
	}
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	t, p, err := r.Next()
	c.SetReadDeadline(time.Time{})
	if err != nil || t != shimproto.TypeWelcome {
		c.Close()
		return fmt.Errorf("no welcome from flowd (frame %d): %v", t, err)
	}
	var wel shimproto.Welcome
	if err := json.Unmarshal(p, &wel); err != nil {
		c.Close()
		return fmt.Errorf("bad welcome: %w", err)
	}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		c.Close()
		return errors.New("shim is shutting down")
	}
	l.conn, l.w, l.welcome, l.grant, l.grantSeq = c, w, wel, nil, 0
	l.everUp = true
	close(l.up)
	l.up = make(chan struct{})
	l.mu.Unlock()
	go l.readVerdicts(c, r)
	return nil
}

// absent reports whether a dial error means nobody listens on the socket.
func absent(err error) bool {
	return errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED)
}

func (l *link) readVerdicts(c net.Conn, r *shimproto.Reader) {
	for {
		t, p, err := r.Next()
		if err != nil {
			l.broken(c, err)
			return
		}
		switch t {
		case shimproto.TypeToClient:
			if l.toClient != nil {
				l.toClient(p)
			}
			continue
		case shimproto.TypeGrant:
			var g shimproto.Grant
			if err := json.Unmarshal(p, &g); err != nil {
				l.broken(c, fmt.Errorf("bad grant: %w", err))
				return
			}
			l.mu.Lock()
			if l.conn == c && g.Seq > l.grantSeq {
				l.grant, l.grantSeq = newGrant(g), g.Seq
			}
			l.mu.Unlock()
			continue
		}
		if t != shimproto.TypeVerdict {
			continue // frames a newer flowd sends that this shim does not know
		}
		v, err := shimproto.DecodeVerdict(p)
		if err != nil {
			l.broken(c, err)
			return
		}
		l.mu.Lock()
		pm := l.pend[v.Seq]
		delete(l.pend, v.Seq)
		l.mu.Unlock()
		if pm != nil {
			pm.v = v
			pm.box.complete(pm)
		}
	}
}

// broken retires connection c: every message waiting on it gets no verdict
// (so fail_mode applies to it, exactly once) and reconnecting starts.
func (l *link) broken(c net.Conn, err error) {
	l.mu.Lock()
	if l.conn != c {
		l.mu.Unlock()
		return
	}
	l.conn, l.w, l.grant = nil, nil, nil
	lost := l.pend
	l.pend = make(map[uint64]*pending)
	closed := l.closed
	l.mu.Unlock()
	c.Close()
	// Said before the messages go on, so the log never trails what it explains.
	if !closed {
		l.logf("lost connection to flowd: %v", err)
	}
	for _, p := range lost {
		p.lost = true
		p.box.complete(p)
	}
	if !closed {
		l.reconnect()
	}
}

// reconnect retries in the background until flowd answers again.
func (l *link) reconnect() {
	l.mu.Lock()
	if l.dialing || l.closed {
		l.mu.Unlock()
		return
	}
	l.dialing = true
	l.mu.Unlock()
	go func() {
		delay := 50 * time.Millisecond
		for {
			err := l.connect()
			l.mu.Lock()
			done := err == nil || l.closed
			if done {
				l.dialing = false
			}
			l.mu.Unlock()
			if done {
				if err == nil {
					l.logf("connected to flowd at %s", l.socket)
				}
				return
			}
			time.Sleep(delay) // backoff between attempts to reach another process, not test synchronisation
			delay = min(delay*2, 2*time.Second)
		}
	}()
}

// send hands p to flowd, or marks it lost when flowd is not connected.
func (l *link) send(p *pending, truncated bool) {
	data := p.line
	if truncated {
		data = data[:l.maxInspect()]
	}
	l.mu.Lock()
	c, w := l.conn, l.w
	if c == nil {
		l.mu.Unlock()
		p.lost = true
		p.box.complete(p)
		return
	}
	l.pend[p.seq] = p
	l.mu.Unlock()
	l.wmu.Lock()
	m := shimproto.Message{Seq: p.seq, Dir: p.dir, Truncated: truncated, Data: data}
	if truncated {
		m.Size, m.Tail = len(p.line), p.line
	}
	err := w.WriteMessage(m)
	l.wmu.Unlock()
	if err != nil {
		l.broken(c, err)
	}
}

// forward shows flowd a client request its grant covers, marked as sent
// on, and reports whether it did: the request may then go to the server at
// once. The report goes out before the request does, so flowd knows the
// call before its result can arrive.
func (l *link) forward(p *pending) bool {
	l.mu.Lock()
	c, w, g := l.conn, l.w, l.grant
	l.mu.Unlock()
	if g == nil || !g.covers(p.line, l.maxInspect()) {
		return false
	}
	l.wmu.Lock()
	err := w.WriteMessage(shimproto.Message{Seq: p.seq, Dir: p.dir, Forwarded: true, Data: p.line})
	l.wmu.Unlock()
	if err != nil {
		l.broken(c, err)
		return false
	}
	return true
}

// abandon gives up waiting for p's verdict because flowd is too slow,
// logging why before p goes on; nothing happens when the verdict won the race.
func (l *link) abandon(p *pending, why string) {
	l.mu.Lock()
	_, ok := l.pend[p.seq]
	delete(l.pend, p.seq)
	l.mu.Unlock()
	if ok {
		l.logf("%s", why)
		p.lost, p.timedOut = true, true
		p.box.complete(p)
	}
}

// report sends flowd a JSON frame that needs no verdict. It is lost when
// flowd is away: what it reports has already happened.
func (l *link) report(t shimproto.FrameType, v any) {
	l.mu.Lock()
	w := l.w
	l.mu.Unlock()
	if w == nil {
		return
	}
	l.wmu.Lock()
	w.WriteJSON(t, v)
	l.wmu.Unlock()
}

func (l *link) settings() shimproto.Welcome {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.welcome
}

func (l *link) maxInspect() int {
	if n := l.settings().MaxInspectBytes; n > 0 {
		return n
	}
	return defaultMaxInspect
}

func (l *link) close() {
	l.mu.Lock()
	l.closed = true
	c := l.conn
	l.mu.Unlock()
	if c != nil {
		c.Close()
	}
}
