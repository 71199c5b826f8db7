package shim

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/ondemand"
	"github.com/flowd-dev/flowd/internal/paths"
	"github.com/flowd-dev/flowd/internal/rawio"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

// pending is one message waiting for its verdict.
type pending struct {
	seq  uint64
	dir  shimproto.Direction
	line []byte
	box  *outbox // the direction's queue, told when v or lost is set
	v    shimproto.Verdict
	lost bool // no verdict will come: apply fail_mode

	done bool // v or lost is set; guarded by box.mu
}

// link is the shim's connection to flowd, replaced on reconnect.
//
// flowd is taken to be gone when the connection fails, and also when it
// stays silent for the verdict timeout while it owes the shim something (a
// verdict, or room for a frame the shim is writing): a stopped or hung
// flowd keeps its socket open. A flowd that is slow but working says so
// with Alive frames and is waited for. A silent one is given up like a
// crashed one: its connection is closed, fail_mode applies to every
// message waiting on it and to those that follow, and reconnecting starts.
// One watchdog timer per link keeps that count; it runs only while flowd
// owes the shim something.
type link struct {
	socket    string
	hello     shimproto.Hello
	autostart func() error // nil: never start flowd
	logf      func(format string, args ...any)
	toClient  func(line []byte) // writes a message from flowd to the client
	timeout   time.Duration     // the verdict timeout until flowd's welcome gives one; zero: the default
	// working tells whether flowd, listening on a connection's far end,
	// is busy rather than stopped; nil: listenerWorking. Tests set it.
	working func(net.Conn) func() bool

	heard    atomic.Int64 // when bytes from flowd last arrived, in Unix nanoseconds
	writing  atomic.Int64 // when the frame write in progress began, in Unix nanoseconds; 0: none
	dog      *time.Timer  // the watchdog: gives flowd up after verdict_timeout of silence
	watching atomic.Bool  // dog is armed; only the one who arms it resets it

	mu        sync.Mutex
	conn      net.Conn
	w         *shimproto.Writer
	wmu       sync.Mutex // serialises frame writes; separate from mu so verdicts are not held up by a large write
	pend      map[uint64]*pending
	owedSince time.Time // when pend last became non-empty
	welcome   shimproto.Welcome
	grant     *grant // what flowd lets through at once; nil: every message waits for its verdict
	grantSeq  uint64 // the newest grant frame applied on this connection
	dialing   bool
	closed    bool
	everUp    bool
	reach     reach       // why flowd is not connected, once it was given up or could not be reached
	alive     func() bool // whether flowd on conn is working (listenerWorking); nil: cannot tell
	lastAuto  time.Time
	// noFlowd: the last start of flowd found no flowd installed, the one
	// case where a missing socket is a flowd that is absent (reachOf).
	noFlowd atomic.Bool
	up      chan struct{} // closed and replaced each time the link comes up; tests wait on it
}

// flowdBinary is the flowd the shim expects on the socket: the one it
// would start. "" (none installed) matches no listener that runs as this
// user. Tests, whose stand-ins for flowd are the test binary, replace it.
var flowdBinary = func() string {
	bin, _ := ondemand.Binary()
	return bin
}

func newLink(socket string, hello shimproto.Hello, autostart func() error, logf func(string, ...any)) *link {
	l := &link{socket: socket, hello: hello, autostart: autostart, logf: logf,
		pend: make(map[uint64]*pending), up: make(chan struct{})}
	l.dog = time.AfterFunc(time.Hour, l.check)
	l.dog.Stop()
	return l
}

// connect makes one attempt to reach flowd, starting it if allowed.
func (l *link) connect() error {
	c, err := localsock.DialFlowd(l.socket, 2*time.Second, flowdBinary())
	if err != nil && l.autostart != nil && absent(err) && time.Since(l.lastAuto) > 10*time.Second {
		l.lastAuto = time.Now()
		serr := l.autostart()
		l.noFlowd.Store(errors.Is(serr, ondemand.ErrNotInstalled))
		if serr != nil {
			return l.dialFailed(fmt.Errorf("start flowd: %w", serr), l.reachOf(err))
		}
		c, err = localsock.DialFlowd(l.socket, 2*time.Second, flowdBinary())
	}
	if err != nil {
		return l.dialFailed(err, l.reachOf(err))
	}
	r, w, wel, alive, err := l.contact(c)
	if err != nil {
		c.Close()
		// The connection was accepted: whatever ends it before the
		// welcome (silence, a close by a flowd shedding connections under
		// a flood), a flowd is there and not answering, and that must
		// not open what an absent flowd would; nor must a flowd killed
		// as the connection reached it (see probe).
		return l.dialFailed(err, l.probe())
	}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		c.Close()
		return errors.New("shim is shutting down")
	}
	l.conn, l.w, l.welcome, l.grant, l.grantSeq = c, w, wel, nil, 0
	l.everUp, l.reach, l.alive = true, unreachable, alive
	l.heard.Store(time.Now().UnixNano())
	close(l.up)
	l.up = make(chan struct{})
	l.mu.Unlock()
	go l.readVerdicts(c, r)
	return nil
}

// contact is the first exchange on a fresh connection: the upgrade
// request with the hello in the same write, then flowd's answer and its
// welcome.
//
// flowd gets the verdict timeout to answer, and longer while it is
// working (listenerWorking): on a machine busy enough, a flowd serving
// many shims starting at once is slow to reach this one, and giving it up
// would leave the shim blocking calls it could have judged. A stopped or
// stuck flowd is given up after the verdict timeout, a busy one after
// contactPatience of them.
func (l *link) contact(c net.Conn) (*shimproto.Reader, *shimproto.Writer, shimproto.Welcome, func() bool, error) {
	var wel shimproto.Welcome
	var hello bytes.Buffer
	if err := shimproto.NewWriter(&hello).WriteJSON(shimproto.TypeHello, l.hello); err != nil {
		return nil, nil, wel, nil, fmt.Errorf("encode hello: %w", err)
	}
	timeout := l.verdictTimeout()
	working := l.working
	if working == nil {
		working = listenerWorking
	}
	alive := working(c)
	stop := giveUpUnlessWorking(c, timeout, contactPatience*timeout, alive)
	br, err := shimproto.UpgradeWith(c, 0, hello.Bytes())
	var t shimproto.FrameType
	var p []byte
	var r *shimproto.Reader
	if err == nil {
		r = shimproto.NewReader(bufio.NewReaderSize(hearing{rawio.After(br, c), l}, 64<<10))
		t, p, err = r.Next()
		if err == nil && t != shimproto.TypeWelcome {
			err = fmt.Errorf("frame %d instead of a welcome", t)
		}
	}
	if waited := stop(); waited > 0 {
		return nil, nil, wel, nil, fmt.Errorf("it accepted the connection and said nothing for %v", waited.Round(time.Millisecond))
	}
	if err != nil {
		return nil, nil, wel, nil, fmt.Errorf("no welcome from flowd: %w", err)
	}
	if err := json.Unmarshal(p, &wel); err != nil {
		return nil, nil, wel, nil, fmt.Errorf("bad welcome: %w", err)
	}
	return r, shimproto.NewWriter(rawio.Writer(c)), wel, alive, nil
}

// contactPatience is how many verdict timeouts flowd may stay silent
// while it is working (listenerWorking), at first contact and while it
// owes the shim something: too starved of CPU to say it is alive, not
// stuck.
const contactPatience = 10

// giveUpUnlessWorking closes c once timeout passes, unless working (which
// may be nil: never) says the listener works, and then at the latest
// after limit. The returned stop ends the watch and reports how long c
// had waited when it was closed, zero when it was not.
func giveUpUnlessWorking(c net.Conn, timeout, limit time.Duration, working func() bool) (stop func() time.Duration) {
	start := time.Now()
	var mu sync.Mutex
	var closedAfter time.Duration
	var t *time.Timer
	mu.Lock()
	defer mu.Unlock()
	t = time.AfterFunc(timeout, func() {
		mu.Lock()
		defer mu.Unlock()
		if waited := time.Since(start); waited+timeout <= limit && working != nil && working() {
			t.Reset(timeout)
			return
		}
		closedAfter = max(time.Since(start), time.Nanosecond)
		c.Close()
	})
	return func() time.Duration {
		t.Stop()
		mu.Lock()
		defer mu.Unlock()
		return closedAfter
	}
}

// reach is why flowd is not connected, which decides what fail_mode
// open lets through (see relay.failed).
type reach int

const (
	// unreachable: no flowd runs (no socket, or one that could not even
	// be made) and none could be started. fail_mode applies.
	unreachable reach = iota
	// silent: flowd is there, listening, and does not answer (stopped,
	// stuck, or closing connections under a flood).
	silent
	// dead: flowd's socket is there with nobody listening. A flowd that
	// stops as asked removes its socket, so this one was killed or
	// crashed, and it could not be started again (or this shim may not
	// start it). An agent able to kill flowd must not open the way out
	// by it: treated as silent, as the hook treats it.
	dead
	// gone: no socket, and this shim, which may start flowd, could not
	// (see link.reachOf). Treated as dead.
	gone
)

// dialFailed notes why a failed attempt to connect reached no flowd, and
// returns err.
func (l *link) dialFailed(err error, r reach) error {
	l.mu.Lock()
	l.reach = r
	l.mu.Unlock()
	return err
}

// Why no verdicts come, for messages that name the cause; relay.failed
// tells them apart.
const (
	stateUnreachable = "is unreachable"
	stateSilent      = "is not answering"
	stateDead        = "is gone but its socket is still there (killed or crashed)"
	stateGone        = "is gone, its socket too, and could not be started again"
	// The machine's flowd, whose socket is missing: stopped, and the
	// service manager's to start (paths.SystemUnit).
	stateSystemDown = "is the machine's, installed but not running (start it with `sudo systemctl start flowd.socket flowd.service`)"
)

func (l *link) state() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch l.reach {
	case silent:
		return stateSilent
	case dead:
		return stateDead
	case gone:
		return stateGone
	}
	if l.socket == paths.SystemSocket {
		return stateSystemDown
	}
	return stateUnreachable
}

// reachOf reads a failed dial. A socket that refuses this user is not a
// flowd that is absent: its mode was changed while flowd runs (a chmod
// keeps the inode, so flowd does not see it at once), and reading it as
// absent would open fail_mode to whoever changed it (red team RT4-2). A
// directory another user made is caught before (socketTrust).
func reachOf(err error) reach {
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return dead
	case errors.Is(err, os.ErrPermission):
		return silent
	case absent(err):
		return unreachable
	}
	// Someone listens but does not take the connection (a full backlog,
	// a dial that timed out): a flowd not answering.
	return silent
}

// probe dials flowd again after a connection ended without flowd saying
// why, and reads the answer: anyone listening is a flowd that is there
// and not answering, a socket with nobody behind it a flowd that died
// (the kernel queues a connection for a listener without the process, so
// one made while flowd was being killed is taken and then closed with
// it), no socket a flowd that stopped.
func (l *link) probe() reach {
	c, err := localsock.Dial(l.socket, 2*time.Second)
	if err != nil {
		return l.reachOf(err)
	}
	c.Close()
	return silent
}

// reachOf reads a failed dial for this shim. A missing socket is a flowd
// switched off only where nothing starts it again. A shim that may start
// flowd starts it on a missing socket (a flowd stopped as asked comes
// back), so a socket still missing (a start that failed, or the 10 s
// before the next try) was removed by someone who also keeps flowd down:
// killed and its socket removed, its lock held so no new flowd serves
// (red team RT4-1). That is a flowd gone, not absent, unless there is no
// flowd installed to start.
func (l *link) reachOf(err error) reach {
	r := reachOf(err)
	if r == unreachable && l.autostart != nil && !l.noFlowd.Load() && errors.Is(err, syscall.ENOENT) {
		return gone
	}
	return r
}

// absent reports whether a dial error means nobody listens on the socket,
// so that starting flowd may help.
func absent(err error) bool {
	// A socket that could not even be made (no AF_UNIX, as under Wine)
	// reached no flowd.
	var se *os.SyscallError
	return errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.As(err, &se) && se.Syscall == "socket"
}

func (l *link) readVerdicts(c net.Conn, r *shimproto.Reader) {
	for {
		t, p, err := r.Next()
		if err != nil {
			l.broken(c, err)
			return
		}
		switch t {
		case shimproto.TypeAlive:
			continue
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
		if t == shimproto.TypeServerClass {
			var sc shimproto.ServerClass
			if err := json.Unmarshal(p, &sc); err != nil {
				l.broken(c, fmt.Errorf("bad server class: %w", err))
				return
			}
			l.mu.Lock()
			if l.conn == c {
				l.welcome.ServerClass = sc.ServerClass
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
		if len(l.pend) == 0 {
			l.owedSince = time.Time{}
		}
		l.mu.Unlock()
		if pm != nil {
			pm.v = v
			pm.box.complete(pm)
		}
	}
}

// broken retires connection c, which failed or was closed: every message
// waiting on it gets no verdict (so fail_mode applies to it, exactly once)
// and reconnecting starts. Why it ended is read from the socket first, so
// that a call waiting on a flowd that was killed is not passed as one
// waiting on a flowd that stopped.
func (l *link) broken(c net.Conn, err error) {
	l.mu.Lock()
	mine := l.conn == c
	l.mu.Unlock()
	if mine {
		l.give(c, err, l.probe())
	}
}

// give retires connection c for err, r saying why.
func (l *link) give(c net.Conn, err error, r reach) {
	l.mu.Lock()
	if l.conn != c {
		l.mu.Unlock()
		return
	}
	l.conn, l.w, l.grant, l.reach, l.alive = nil, nil, nil, r, nil
	lost := l.pend
	l.pend, l.owedSince = make(map[uint64]*pending), time.Time{}
	closed := l.closed
	l.mu.Unlock()
	c.Close()
	// Said before the messages go on, so the log never trails what it explains.
	switch {
	case closed:
	case r == silent:
		l.logf("flowd is not answering (%v); giving up on it: fail_mode applies until it answers again", err)
	default:
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
	if len(l.pend) == 0 {
		l.owedSince = time.Now()
	}
	l.pend[p.seq] = p
	l.mu.Unlock()
	l.watch()
	m := shimproto.Message{Seq: p.seq, Dir: p.dir, Truncated: truncated, Data: data}
	if truncated {
		m.Size, m.Tail = len(p.line), p.line
	}
	if err := l.write(func() error { return w.WriteMessage(m) }); err != nil {
		l.broken(c, err)
	}
}

// write sends one frame to flowd. The frame lock it holds is the other
// direction's too, so a write that waits for flowd to read counts as
// flowd owing the shim: the watchdog gives flowd up, closing the
// connection and so ending the write, once flowd is silent for the
// verdict timeout.
func (l *link) write(frame func() error) error {
	l.wmu.Lock()
	defer l.wmu.Unlock()
	l.writing.Store(time.Now().UnixNano())
	defer l.writing.Store(0)
	l.watch()
	return frame()
}

// forward shows flowd a client request its grant covers, marked as sent
// on, and reports whether it did: the request may then go to the server at
// once. The report goes out before the request does, so flowd knows the
// call before its result can arrive.
//
// A grant is used only while flowd keeps up: when it owes the shim
// anything and has been silent longer than a working flowd ever is, the
// call waits for its verdict instead, so a flowd that has stopped
// answering lets through only what reached the server before that showed.
func (l *link) forward(p *pending) bool {
	l.mu.Lock()
	c, w, g := l.conn, l.w, l.grant
	behind := l.quietLocked(time.Now()) > l.grantPatienceLocked()
	l.mu.Unlock()
	if g == nil || behind || !g.covers(p.line, l.maxInspect()) {
		return false
	}
	err := l.write(func() error {
		return w.WriteMessage(shimproto.Message{Seq: p.seq, Dir: p.dir, Forwarded: true, Data: p.line})
	})
	if err != nil {
		l.broken(c, err)
		return false
	}
	return true
}

// quietLocked is how long flowd has owed the shim something (a verdict,
// or room for a frame) without a frame from it. l.mu must be held.
func (l *link) quietLocked(now time.Time) time.Duration {
	from := l.owedSince
	if ws := l.writing.Load(); ws != 0 && (from.IsZero() || ws < from.UnixNano()) {
		from = time.Unix(0, ws)
	}
	if from.IsZero() {
		return 0
	}
	if h := l.heard.Load(); h > from.UnixNano() {
		from = time.Unix(0, h)
	}
	return now.Sub(from)
}

// grantPatienceLocked is how long flowd may owe the shim something in
// silence before grants stop: a few of its Alive intervals, or for a
// flowd that sends none, the verdict timeout. l.mu must be held.
func (l *link) grantPatienceLocked() time.Duration {
	if ms := l.welcome.AliveMS; ms > 0 {
		return 3 * time.Duration(ms) * time.Millisecond
	}
	return l.verdictTimeoutLocked()
}

// watch arms the watchdog, when it is not running, as flowd starts to owe
// the shim something.
func (l *link) watch() {
	if l.watching.CompareAndSwap(false, true) {
		l.dog.Reset(l.verdictTimeout())
	}
}

// check is the watchdog: it gives flowd up once it has owed the shim
// something for the verdict timeout without a byte from it, and otherwise
// waits on while anything is owed.
func (l *link) check() {
	now := time.Now()
	l.mu.Lock()
	c := l.conn
	owed := c != nil && (len(l.pend) > 0 || l.writing.Load() != 0)
	quiet, timeout, alive := l.quietLocked(now), l.verdictTimeoutLocked(), l.alive
	l.mu.Unlock()
	switch {
	case !owed:
		l.watching.Store(false)
		// send or write may have come between the two: whoever wins the timer arms it.
		l.mu.Lock()
		owed = l.conn != nil && (len(l.pend) > 0 || l.writing.Load() != 0)
		l.mu.Unlock()
		if owed {
			l.watch()
		}
	case quiet < timeout:
		l.dog.Reset(timeout - quiet)
	case unread(c) > 0:
		l.heard.Store(now.UnixNano()) // flowd spoke; the shim has not read it yet
		l.dog.Reset(timeout)
	case quiet < contactPatience*timeout && alive != nil && alive():
		// Silent but working: on a machine busy enough, flowd's
		// keep-alives wait for the CPU like everything else.
		l.dog.Reset(timeout)
	default:
		l.watching.Store(false)
		l.give(c, fmt.Errorf("nothing from it for %v while it owed the shim a verdict or room for a message", timeout), silent)
	}
}

// hearing reads flowd's bytes for the frame reader and notes when they
// arrive, for the watchdog.
type hearing struct {
	r io.Reader
	l *link
}

func (h hearing) Read(p []byte) (int, error) {
	n, err := h.r.Read(p)
	if n > 0 {
		h.l.heard.Store(time.Now().UnixNano())
	}
	return n, err
}

// report sends flowd a JSON frame that needs no verdict. It is lost when
// flowd is away: what it reports has already happened.
func (l *link) report(t shimproto.FrameType, v any) {
	l.mu.Lock()
	c, w := l.conn, l.w
	l.mu.Unlock()
	if w == nil {
		return
	}
	if err := l.write(func() error { return w.WriteJSON(t, v) }); err != nil {
		l.broken(c, err)
	}
}

// verdictTimeout is how long flowd may stay silent while it owes the shim
// a verdict: flowd's setting, else the local one, else the default.
func (l *link) verdictTimeout() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.verdictTimeoutLocked()
}

func (l *link) verdictTimeoutLocked() time.Duration {
	switch {
	case l.welcome.VerdictTimeout > 0:
		return time.Duration(l.welcome.VerdictTimeout) * time.Millisecond
	case l.timeout > 0:
		return l.timeout
	}
	return defaultVerdictTimeout
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
