package upstream

import (
	"sync/atomic"
	"time"
)

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
