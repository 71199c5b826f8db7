package shim

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/flowd-dev/flowd/internal/jsonrpc"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

// asker runs the confirmations flowd asks for: it sends elicitation/create
// to the client, which shows it to the user, and routes the client's answer
// back to the held request. The answer is consumed here: it never reaches
// the upstream or flowd's message stream, and its id is random, so neither
// the upstream nor anything the model writes can answer in the user's place.
type asker struct {
	mu      sync.Mutex
	waiting map[string]*waiter // by the elicitation's raw JSON id
	held    map[string]*waiter // by the held request's raw JSON id
	closed  bool               // the client's stdin ended: nobody will answer
	active  atomic.Int32
	wg      sync.WaitGroup // held requests not yet released or refused
}

// waiter is one open question: the elicitation's id and the held
// request's id both find it.
type waiter struct {
	ch              chan reply
	elicit, request string
}

type reply struct {
	allowed bool
	outcome string
}

// hold asks the user about request p and then forwards it to dst or answers
// it blocked on back. It runs on its own goroutine, so the messages behind p
// keep flowing while the user thinks.
func (r *relay) hold(p *pending, dst, back *lockedWriter) {
	a := &r.asks
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		var q shimproto.Question
		rep := reply{outcome: "error"}
		e, err := jsonrpc.Parse(p.line)
		switch {
		case err != nil || e.Kind != jsonrpc.Request:
			r.logf("flowd asked about a message that is not a request; it is dropped")
		case json.Unmarshal(p.v.Data, &q) != nil:
			r.logf("bad question from flowd; the call is refused")
		default:
			rep = a.ask(q, back, e.ID)
		}
		// flowd hears the answer before the call goes on: the frame of its
		// result, which may come back at once, must not overtake it.
		r.link.report(shimproto.TypeAnswer, shimproto.Answer{Seq: p.seq, Allowed: rep.allowed, Outcome: rep.outcome})
		switch {
		case rep.allowed && q.Forward != "":
			dst.Write([]byte(q.Forward))
		case rep.allowed:
			dst.Write(p.line)
		case rep.outcome == "withdrawn":
			// The client cancelled the call itself: it wants no answer.
		case err == nil && e.Kind == jsonrpc.Request:
			modern := bytes.Contains(e.Params, []byte(jsonrpc.ModernVersionKey))
			back.Write(jsonrpc.BlockedToolResult(e.ID, q.DenyReason+"; "+refusal(rep.outcome, q.TimeoutMS), modern))
		}
	}()
}

// refusal says why a held call did not go ahead, for the model to read.
func refusal(outcome string, timeoutMS int64) string {
	switch outcome {
	case "accept":
		return "the user did not allow it"
	case "decline", "cancel":
		return "the user declined"
	case "timeout":
		return fmt.Sprintf("the user did not answer within %v", time.Duration(timeoutMS)*time.Millisecond)
	case "closed":
		return "the client went away before the user answered"
	}
	return "the user could not be asked"
}

// ask puts q to the user about the held request whose id is request.
func (a *asker) ask(q shimproto.Question, back *lockedWriter, request []byte) reply {
	var b [16]byte
	rand.Read(b[:])
	id, _ := json.Marshal("flowd-ask-" + hex.EncodeToString(b[:]))
	w := &waiter{ch: make(chan reply, 1), elicit: string(id), request: string(request)}
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		return reply{outcome: "closed"}
	}
	if a.waiting == nil {
		a.waiting, a.held = make(map[string]*waiter), make(map[string]*waiter)
	}
	a.waiting[w.elicit], a.held[w.request] = w, w
	a.active.Add(1)
	a.mu.Unlock()
	defer a.take(false, w.elicit)

	var req bytes.Buffer
	req.WriteString(`{"jsonrpc":"2.0","id":`)
	req.Write(id)
	req.WriteString(`,"method":"elicitation/create","params":`)
	req.Write(q.Elicitation)
	req.WriteString("}\n")
	if _, err := back.Write(req.Bytes()); err != nil {
		return reply{outcome: "error"}
	}
	timer := time.NewTimer(time.Duration(q.TimeoutMS) * time.Millisecond)
	defer timer.Stop()
	rep := reply{outcome: "timeout"}
	select {
	case rep = <-w.ch:
	case <-timer.C:
	}
	// Close the client's dialog where an answer now would find no one.
	void := map[string]string{
		"timeout":   "flowd: no answer in time; the call was refused",
		"withdrawn": "flowd: the call was cancelled",
	}[rep.outcome]
	if void != "" {
		back.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + string(id) +
			`,"reason":"` + void + `"}}` + "\n"))
	}
	return rep
}

// take removes the open question whose elicitation id (byRequest false)
// or held request id is key; whoever takes it is the one who may send its
// reply, so a reply is sent at most once.
func (a *asker) take(byRequest bool, key string) (*waiter, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	index := a.waiting
	if byRequest {
		index = a.held
	}
	w, ok := index[key]
	if ok {
		delete(a.waiting, w.elicit)
		delete(a.held, w.request)
		a.active.Add(-1)
	}
	return w, ok
}

// answered reports whether line from the client belongs to the shim's own
// questions, and if so hands it over: the user's answer to an elicitation,
// or the client cancelling a call that is held (the upstream never saw it,
// so the cancellation is not passed on either).
func (a *asker) answered(line []byte) bool {
	if a.active.Load() == 0 {
		return false
	}
	e, err := jsonrpc.Parse(line)
	if err != nil {
		return false
	}
	switch {
	case e.Kind == jsonrpc.Response || e.Kind == jsonrpc.ErrorReply:
		if w, ok := a.take(false, string(e.ID)); ok {
			w.ch <- decode(e) // buffered: the asker may have given up already
			return true
		}
	case e.Kind == jsonrpc.Notification && e.Method == "notifications/cancelled":
		if id, ok := jsonrpc.Member(e.Params, "requestId"); ok {
			if w, ok := a.take(true, string(id)); ok {
				w.ch <- reply{outcome: "withdrawn"}
				return true
			}
		}
	}
	return false
}

// decode reads the user's decision from an elicitation answer: only an
// accepted form whose allow field is true lets the call through.
func decode(e jsonrpc.Envelope) reply {
	if e.Kind == jsonrpc.ErrorReply {
		return reply{outcome: "error"}
	}
	var res struct {
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
	}
	if json.Unmarshal(e.Result, &res) != nil {
		return reply{outcome: "error"}
	}
	allow, _ := res.Content[shimproto.AllowField].(bool)
	switch res.Action {
	case "accept", "decline", "cancel":
		return reply{allowed: res.Action == "accept" && allow, outcome: res.Action}
	}
	return reply{outcome: "error"}
}

// close refuses every confirmation still waiting: the client's stdin has
// ended, so no answer can come.
func (a *asker) close() {
	a.mu.Lock()
	a.closed = true
	for _, w := range a.waiting {
		delete(a.waiting, w.elicit)
		delete(a.held, w.request)
		a.active.Add(-1)
		w.ch <- reply{outcome: "closed"}
	}
	a.mu.Unlock()
}
