package shim

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/flowd-dev/flowd/internal/jsonrpc"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

const (
	defaultMaxInspect     = 16 << 20
	defaultVerdictTimeout = 5 * time.Second
	// queueDepth bounds messages read but not yet written per direction;
	// beyond it the shim stops reading and the sender feels backpressure.
	queueDepth = 4096
)

// lockedWriter lets a direction's messages, the other direction's Respond
// verdicts and flowd's own messages share one destination without
// interleaving lines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (lw *lockedWriter) Write(p []byte) (int, error) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.w.Write(p)
}

// relay moves the two directions of one MCP stream.
type relay struct {
	link     *link
	failMode string // from config when flowd never answered; flowd's Welcome wins
	logf     func(format string, args ...any)
	seq      atomic.Uint64
	// warned is set once a fail-open warning is printed and cleared when
	// flowd answers again, so each outage warns once.
	warned        atomic.Bool
	serverSpoke   atomic.Bool
	sawInitialize atomic.Bool
	asks          asker
	// passed holds the ids of requests fail_mode closed let through
	// unjudged, whose answers may pass unjudged too; it is emptied once
	// flowd answers again.
	passed unjudgedIDs
	// unprotected records this shim, while it passes messages unchecked,
	// where flowd status and doctor look (package unprotected).
	unprotected func(reason string)
	// trust says whether flowd's socket directory can be trusted.
	trust *socketTrust
	// steered is Options.Steered: this shim's flowd may not be the
	// user's, so nothing passes unchecked.
	steered string
}

// unjudgedIDs is a bounded set of JSON-RPC ids.
type unjudgedIDs struct {
	mu  sync.Mutex
	ids map[string]bool
}

// maxUnjudged bounds unjudgedIDs: past it, an answer to a request passed
// unjudged is refused like any other, the safe side.
const maxUnjudged = 1024

func (u *unjudgedIDs) add(id []byte) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.ids == nil {
		u.ids = make(map[string]bool)
	}
	if len(u.ids) < maxUnjudged {
		u.ids[string(id)] = true
	}
}

func (u *unjudgedIDs) take(id []byte) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	ok := u.ids[string(id)]
	delete(u.ids, string(id))
	return ok
}

func (u *unjudgedIDs) reset() {
	u.mu.Lock()
	u.ids = nil
	u.mu.Unlock()
}

// pipe reads lines from src and writes them, after verdicts, to dst; back is
// where Respond verdicts go (the sender of the message). It returns when
// src is exhausted and everything read has been written.
func (r *relay) pipe(dir shimproto.Direction, src io.Reader, dst, back *lockedWriter) {
	o := newOutbox(r, dst, back)
	r.read(dir, src, o)
	<-o.drained
	if dir == shimproto.ClientToServer {
		r.asks.wg.Wait() // a request the user allows still goes out before the client's EOF
	}
}

func (r *relay) read(dir shimproto.Direction, src io.Reader, o *outbox) {
	defer o.close()
	if dir == shimproto.ClientToServer {
		defer r.asks.close()
	}
	lr := &lineReader{br: bufio.NewReaderSize(src, 256<<10)}
	for {
		line, err := lr.next()
		if dir == shimproto.ClientToServer && r.asks.answered(line) {
			line = nil // the user's answer to the shim's own question
		}
		if len(line) > 0 {
			p := &pending{seq: r.seq.Add(1), dir: dir, line: line, box: o}
			if dir == shimproto.ServerToClient {
				r.serverSpoke.Store(true)
			} else if !r.serverSpoke.Load() && !r.sawInitialize.Load() {
				if e, err := jsonrpc.Parse(line); err == nil && (e.Method == "initialize" || e.Method == "server/discover") {
					r.sawInitialize.Store(true)
				}
			}
			blank := len(bytes.TrimSpace(line)) == 0 // carries nothing to judge
			switch {
			case blank:
				o.push(p, true)
			case dir == shimproto.ClientToServer && r.link.forward(p):
				o.push(p, true) // flowd has seen it and sends no verdict
			default:
				// Queued before it is sent, so that its verdict finds it.
				o.push(p, false)
				// A request is always shown whole: its id, method and tool
				// name may sit anywhere in it, and policy needs them. Only
				// results are cut to max_inspect_bytes.
				r.link.send(p, dir == shimproto.ServerToClient && len(line) > r.link.maxInspect())
			}
		}
		if err != nil {
			return
		}
	}
}

// lineReader returns each line including its '\n', or the bytes left
// before EOF. Lines of any length are returned whole: the shim must forward
// what it cannot inspect in full. A long line is gathered in a buffer kept
// across lines and copied out once, so a 10 MB result costs one allocation
// of its size rather than a series of growing ones.
type lineReader struct {
	br  *bufio.Reader
	acc []byte
}

func (lr *lineReader) next() ([]byte, error) {
	frag, err := lr.br.ReadSlice('\n')
	if !errors.Is(err, bufio.ErrBufferFull) {
		return bytes.Clone(frag), err
	}
	lr.acc = append(lr.acc[:0], frag...)
	for {
		frag, err = lr.br.ReadSlice('\n')
		lr.acc = append(lr.acc, frag...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			line := bytes.Clone(lr.acc)
			if cap(lr.acc) > maxKeptBuffer {
				lr.acc = nil // one huge line must not pin its memory for the rest of the session
			}
			return line, err
		}
	}
}

// maxKeptBuffer is the largest line buffer a lineReader keeps for reuse.
const maxKeptBuffer = 64 << 20

// failed applies fail_mode to a message flowd could not judge: it returns
// where the message goes and what is written there.
//
// Closed refuses a tools/call, and an answer to a request that flowd had
// seen (a call it allowed, or let through under a grant): flowd did not
// see what the server sent back. What a client needs to start and list
// tools still passes (closedLets), with its answers, so that it reports
// the blocked calls itself; every other client message, the client's
// answers to the server's requests included, is refused or dropped (each
// could carry data out), and so are the server's requests and the
// notifications that could carry text to the model (closedKeepsNotice).
//
// Open is closed too, for a server flowd did not class internal, while
// flowd is there but silent (stopped or stuck), and while its socket is
// there with nobody behind it (killed or crashed, and not started again):
// an agent that can pause or kill flowd must not open the way out by it.
// Open means no flowd runs: never started, or stopped as asked (the
// machine's flowd stopped by its service manager too, which an agent
// running as the user cannot do).
func (r *relay) failed(p *pending, dst, back *lockedWriter) (*lockedWriter, []byte) {
	state := r.link.state()
	// Checked at each failure, not once: another user may make the
	// directory after the shim started. Someone else could be listening
	// there, so fail_mode is closed whatever the config says.
	untrusted := r.trust.untrusted()
	if untrusted == "" {
		untrusted = r.steered
	}
	class := r.link.settings().ServerClass
	silentOpen := untrusted == "" && r.mode() != "closed" && state != stateUnreachable && state != stateSystemDown && class != shimproto.KeepsDataIn
	if untrusted != "" || r.mode() == "closed" || silentOpen {
		if e, err := jsonrpc.Parse(p.line); err == nil {
			why := "flowd " + state + " and fail_mode is closed"
			fix := "start flowd (flowd run) or set fail_mode = \"open\""
			switch {
			case untrusted != "":
				fix = untrusted
			case silentOpen:
				if class == "" {
					class = "not known"
				}
				why = "flowd " + state + " and this server's class is " + class + ", not internal"
				fix = "flowd may be stopped or stuck: check it (flowd status) or restart it (flowd restart); " +
					"fail_mode = \"open\" passes calls only while flowd is not running, or to internal servers"
				if state == stateDead || state == stateGone {
					fix = "start it again (flowd start) and see its log (flowd doctor); " +
						"fail_mode = \"open\" passes calls only while flowd is not running, or to internal servers"
				}
				if r.warned.CompareAndSwap(false, true) {
					r.logf("flowd at %s %s: tool calls to this server (class %s) are blocked until it answers; "+
						"fail_mode=open lets calls pass only to internal servers while flowd is stopped, stuck or killed", r.link.socket, state, class)
				}
			case state == stateSystemDown:
				fix = "a shim does not start the machine's flowd in place of it; or set fail_mode = \"open\""
			case state == stateSilent:
				fix = "flowd may be stopped or stuck: check it (flowd status), restart it (flowd restart), or set fail_mode = \"open\""
			case state == stateDead || state == stateGone:
				fix = "start it again (flowd start) and see its log (flowd doctor), or set fail_mode = \"open\""
			}
			toClient := p.dir == shimproto.ServerToClient
			switch {
			case !toClient && e.Kind == jsonrpc.Request && e.Method == "tools/call":
				modern := bytes.Contains(e.Params, []byte(jsonrpc.ModernVersionKey))
				return back, jsonrpc.BlockedToolResult(e.ID, why+", so tool calls are not allowed; "+fix, modern)
			case !toClient && e.Kind == jsonrpc.Request && passesClosed(e):
				r.passed.add(e.ID)
			case !toClient && e.Kind == jsonrpc.Request:
				return back, jsonrpc.RequestError(e.ID, jsonrpc.BlockPrefix+why+", so "+e.Method+" may carry data out unchecked; "+fix)
			case !toClient && (e.Kind == jsonrpc.Response || e.Kind == jsonrpc.ErrorReply):
				// The client's answer to the server's own request (a
				// sampling result is the model's text) is data going out.
				return dst, jsonrpc.RequestError(e.ID, jsonrpc.BlockPrefix+why+", so the client's answer could not be checked; "+fix)
			case !toClient && e.Kind == jsonrpc.Notification && passesClosed(e):
			case toClient && e.Kind == jsonrpc.Request && e.Method != "ping":
				// A sampling or elicitation request puts the server's text
				// in front of the model, and its answer could not go back.
				return back, jsonrpc.RequestError(e.ID, jsonrpc.BlockPrefix+why+", so "+e.Method+" could not be checked; "+fix)
			case toClient && (e.Kind == jsonrpc.Response || e.Kind == jsonrpc.ErrorReply) && !r.passed.take(e.ID):
				return dst, jsonrpc.RequestError(e.ID, jsonrpc.BlockPrefix+why+", so the server's answer could not be checked; "+fix)
			case toClient && (e.Kind == jsonrpc.Batch || e.Kind == jsonrpc.Notification && !closedKeepsNotice[e.Method]):
				r.logf("flowd %s: dropped the server's %s %s, which flowd could not check", state, e.Kind, e.Method)
				return dst, nil
			case !toClient && e.Kind != jsonrpc.Request:
				r.logf("flowd %s: dropped a client %s (%s), which flowd could not check", state, e.Kind, e.Method)
				return dst, nil
			}
		} else if p.dir == shimproto.ClientToServer {
			// A line that is no JSON-RPC message reaches the server all the
			// same: unjudged, it is a way out like any other.
			r.logf("flowd %s: dropped a client line flowd could not read or check", state)
			return dst, nil
		}
	}
	if len(bytes.TrimSpace(p.line)) > 0 && r.warned.CompareAndSwap(false, true) {
		r.logf("flowd at %s %s: messages pass unchecked (fail_mode=%s) until it answers again", r.link.socket, state, r.mode())
		if untrusted == "" && r.mode() == "open" && r.unprotected != nil {
			r.unprotected("flowd " + state + ": messages pass unchecked (fail_mode=open)")
		}
	}
	return dst, p.line
}

// closedLets lists what a client may still send while fail_mode acts as
// closed: what it needs to start, stay alive and list tools, none of which
// carries what the model chooses. Everything else (prompts/get,
// resources/read, completions, subscriptions, methods flowd does not
// know, batches) could carry data to the server unchecked.
var closedLets = map[string]bool{
	"initialize":                       true,
	"ping":                             true,
	"tools/list":                       true,
	"prompts/list":                     true,
	"resources/list":                   true,
	"resources/templates/list":         true,
	"notifications/initialized":        true,
	"notifications/cancelled":          true,
	"notifications/roots/list_changed": true,
}

// closedKeepsNotice lists the server's notifications that still reach the
// client while fail_mode acts as closed: none carries text for the model.
// A log message or anything else could carry an injection unscreened.
var closedKeepsNotice = map[string]bool{
	"notifications/tools/list_changed":     true,
	"notifications/prompts/list_changed":   true,
	"notifications/resources/list_changed": true,
	"notifications/resources/updated":      true,
	"notifications/cancelled":              true,
	"notifications/progress":               true,
}

// passesClosed reports whether a client request or notification may go on
// unjudged while fail_mode acts as closed: its method is one closedLets
// names, and its _meta holds only the protocol's own short members (a
// modern client puts its protocol version there), not a place for data.
func passesClosed(e jsonrpc.Envelope) bool {
	if !closedLets[e.Method] {
		return false
	}
	meta, ok := jsonrpc.Member(e.Params, "_meta")
	if !ok {
		return true
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(meta, &members) != nil {
		return false
	}
	for name, v := range members {
		if name != "progressToken" && !strings.HasPrefix(name, "io.modelcontextprotocol/") || len(v) > maxClosedMeta {
			return false
		}
	}
	return true
}

// maxClosedMeta bounds each _meta value a client message passed unjudged
// may hold: a version or a progress token, not a key.
const maxClosedMeta = 64

// answered notes that flowd judges messages again, after an outage.
func (r *relay) answered() {
	if r.warned.Load() {
		r.warned.Store(false)
		r.passed.reset()
		if r.unprotected != nil {
			r.unprotected("")
		}
	}
}

func (r *relay) mode() string {
	if m := r.link.settings().FailMode; m != "" {
		return m
	}
	return r.failMode
}
