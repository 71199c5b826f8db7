package shim

import (
	"sync"

	"github.com/flowd-dev/flowd/internal/shimproto"
)

// outbox holds one direction's messages from when they are read until they
// are written, in the order they were read.
//
// Whoever completes the oldest message writes it, and the complete ones
// behind it: the reading goroutine when a message needs no verdict, the
// goroutine that reads flowd's verdicts otherwise. No goroutine is woken
// just to write. On the 2-core benchmark VM such a hand-off cost about
// 25 µs a message, more than the rest of the shim's relaying.
//
// The verdict reader must never wait for a slow client or server: the
// other direction's verdicts would wait behind it and run into their
// timeout. A write that cannot finish at once, and the rest of the queue
// behind it, go to a goroutine started for them.
type outbox struct {
	r         *relay
	dst, back *lockedWriter // where messages go; where Respond verdicts go

	mu      sync.Mutex
	room    sync.Cond // signalled when the queue drops below queueDepth
	q       []*pending
	busy    bool // a goroutine is writing the queue's head; the others leave it to it
	eof     bool // no more messages come
	drained chan struct{}
}

func newOutbox(r *relay, dst, back *lockedWriter) *outbox {
	o := &outbox{r: r, dst: dst, back: back, drained: make(chan struct{})}
	o.room.L = &o.mu
	return o
}

// push queues p, which is complete already when it needs no verdict. It
// waits while queueDepth messages are queued: the sender feels backpressure.
func (o *outbox) push(p *pending, complete bool) {
	o.mu.Lock()
	for len(o.q) >= queueDepth {
		o.room.Wait()
	}
	p.done = complete
	o.q = append(o.q, p)
	write := o.take()
	o.mu.Unlock()
	if write {
		o.drain()
	}
}

// complete records that p's verdict is set, or that none will come.
func (o *outbox) complete(p *pending) {
	o.mu.Lock()
	p.done = true
	write := o.take()
	o.mu.Unlock()
	if write {
		o.drain()
	}
}

// close records that the source has ended; drained is closed once
// everything read is written.
func (o *outbox) close() {
	o.mu.Lock()
	o.eof = true
	o.finish()
	o.mu.Unlock()
}

// take reports whether the caller is to write the head: it is complete and
// no one else is writing. o.mu must be held.
func (o *outbox) take() bool {
	if o.busy || len(o.q) == 0 || !o.q[0].done {
		return false
	}
	o.busy = true
	return true
}

// finish closes drained when nothing is left to write. o.mu must be held.
func (o *outbox) finish() {
	if o.eof && len(o.q) == 0 && !o.busy {
		select {
		case <-o.drained:
		default:
			close(o.drained)
		}
	}
}

// drain writes complete messages from the head on; the caller holds busy.
func (o *outbox) drain() {
	for {
		o.mu.Lock()
		if len(o.q) == 0 || !o.q[0].done {
			o.busy = false
			o.finish()
			o.mu.Unlock()
			return
		}
		p := o.q[0]
		o.q[0] = nil
		o.q = o.q[1:]
		if len(o.q) == queueDepth-1 {
			o.room.Signal()
		}
		o.mu.Unlock()
		if !o.emit(p) {
			return // a goroutine finishes the write and drains on
		}
	}
}

// emit applies p's verdict. It reports false when a goroutine was left to
// finish the write.
func (o *outbox) emit(p *pending) bool {
	w, data := o.dst, p.line
	if p.lost {
		w, data = o.r.failed(p, o.dst, o.back)
		return o.put(w, data)
	}
	o.r.answered()
	switch p.v.Action {
	case shimproto.Replace:
		data = p.v.Data
	case shimproto.Respond:
		w, data = o.back, p.v.Data
	case shimproto.Ask:
		o.r.hold(p, o.dst, o.back) // on its own goroutine: the messages behind p go on
		return true
	case shimproto.Drop:
		return true
	}
	// Pass, and any action this shim does not know: that is no reason to
	// break the stream.
	return o.put(w, data)
}

// put writes data to w when that needs no waiting, for w's lock or for
// w's reader. Otherwise it leaves the write, and the rest of the queue, to
// a new goroutine and reports false.
func (o *outbox) put(w *lockedWriter, data []byte) bool {
	tw, ok := w.w.(interface{ TryWrite([]byte) (int, error) })
	if !ok || !w.mu.TryLock() {
		go func() {
			w.Write(data)
			o.drain()
		}()
		return false
	}
	n, err := tw.TryWrite(data)
	if err != nil || n == len(data) {
		w.mu.Unlock()
		return true
	}
	go func() {
		w.w.Write(data[n:]) // w's lock is held: nothing gets between the two parts
		w.mu.Unlock()
		o.drain()
	}()
	return false
}
