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
	waiting map[string]chan reply // by the elicitation's raw JSON id
	closed  bool                  // the client's stdin ended: nobody will answer
	active  atomic.Int32
	wg      sync.WaitGroup // held requests not yet released or refused
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
		if err := json.Unmarshal(p.v.Data, &q); err == nil {
			rep = a.ask(q, back)
		} else {
			r.logf("bad question from flowd: %v; the call is refused", err)
		}
		if rep.allowed && q.Forward != "" {
			dst.Write([]byte(q.Forward))
		} else if rep.allowed {
			dst.Write(p.line)
		} else if e, err := jsonrpc.Parse(p.line); err == nil && e.Kind == jsonrpc.Request {
			modern := bytes.Contains(e.Params, []byte(jsonrpc.ModernVersionKey))
			back.Write(jsonrpc.BlockedToolResult(e.ID, q.DenyReason+"; "+refusal(rep.outcome, q.TimeoutMS), modern))
		}
		r.link.report(shimproto.TypeAnswer, shimproto.Answer{Seq: p.seq, Allowed: rep.allowed, Outcome: rep.outcome})
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

func (a *asker) ask(q shimproto.Question, back *lockedWriter) reply {
	var b [16]byte
	rand.Read(b[:])
	id, _ := json.Marshal("flowd-ask-" + hex.EncodeToString(b[:]))
	ch := make(chan reply, 1)
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		return reply{outcome: "closed"}
	}
	if a.waiting == nil {
		a.waiting = make(map[string]chan reply)
	}
	a.waiting[string(id)] = ch
	a.active.Add(1)
	a.mu.Unlock()
	defer a.forget(id)

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
	select {
	case rep := <-ch:
		return rep
	case <-timer.C:
		// Close the client's dialog: an answer now would find no one.
		back.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + string(id) +
			`,"reason":"flowd: no answer in time; the call was refused"}}` + "\n"))
		return reply{outcome: "timeout"}
	}
}

func (a *asker) forget(id []byte) { a.take(id) }

// take removes the confirmation with this id; whoever takes it is the one
// who may send its reply, so a reply is sent at most once.
func (a *asker) take(id []byte) (chan reply, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	ch, ok := a.waiting[string(id)]
	if ok {
		delete(a.waiting, string(id))
		a.active.Add(-1)
	}
	return ch, ok
}

// answered reports whether line from the client is the answer to one of
// the shim's own elicitations, and if so hands it over.
func (a *asker) answered(line []byte) bool {
	if a.active.Load() == 0 {
		return false
	}
	e, err := jsonrpc.Parse(line)
	if err != nil || (e.Kind != jsonrpc.Response && e.Kind != jsonrpc.ErrorReply) {
		return false
	}
	ch, ok := a.take(e.ID)
	if ok {
		ch <- decode(e) // buffered: the asker may have given up already
	}
	return ok
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
	for id, ch := range a.waiting {
		delete(a.waiting, id)
		a.active.Add(-1)
		ch <- reply{outcome: "closed"}
	}
	a.mu.Unlock()
}
