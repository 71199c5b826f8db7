package events

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/flow"
)

// The kinds of event a record makes. Every record is an Activity event;
// some are also one of the others, under the same ID.
const (
	Activity   = "activity"
	Alert      = "flow.alert" // a call denied, asked about or warned of, a result blocked or changed, or a high risk
	Quarantine = "quarantine" // a result quarantined
	Pins       = "pins"       // tool definitions withheld until approved, or found poisoned
)

// Kinds lists the events r makes, Activity first.
func Kinds(r activity.Record) []string {
	kinds := []string{Activity}
	switch {
	case r.Decision == "deny" || r.Decision == "ask" || r.Decision == "warn",
		r.Verdict == "block" || r.Verdict == "replace",
		activity.RiskAtLeast(r.RiskLevel, flow.RiskHigh):
		kinds = append(kinds, Alert)
	}
	if bytes.Contains(r.Details, []byte(`"quarantine_id":"`)) {
		kinds = append(kinds, Quarantine)
	}
	if r.Type == activity.TypeToolsList && (bytes.Contains(r.Details, []byte(`"pending":[`)) ||
		bytes.Contains(r.Details, []byte(`"withheld":[`))) {
		kinds = append(kinds, Pins)
	}
	return kinds
}

// Hub fans records out to subscribers.
type Hub struct {
	max  int
	mu   sync.Mutex
	subs map[*Sub]struct{}
}

// NewHub is a hub of at most max subscribers: each costs its buffer's
// memory and a send on every commit.
func NewHub(max int) *Hub {
	return &Hub{max: max, subs: make(map[*Sub]struct{})}
}

// ErrFull is Subscribe's answer when the hub has all the subscribers it
// takes.
var ErrFull = errors.New("too many live event streams")

// Sub is one reader's subscription. Records arrives in commit order;
// it is closed when the reader fell too far behind (Lagged) or
// unsubscribed.
type Sub struct {
	Records <-chan *Event
	ch      chan *Event
	lagged  bool
}

// Event is a committed record as every subscriber gets it: its JSON is
// encoded once, by the first reader that asks, for all of them, rather
// than once per reader (ten dashboard tabs, ten encodings).
type Event struct {
	Record activity.Record
	once   sync.Once
	data   []byte
	err    error
}

// JSON is the JSON encoding of the record as viewers are shown it
// (activity.Record.Shown).
func (e *Event) JSON() ([]byte, error) {
	e.once.Do(func() { e.data, e.err = json.Marshal(e.Record.Shown()) })
	return e.data, e.err
}

// Lagged reports whether the subscription ended because its reader fell
// behind: it may resume from the store after the last ID it read.
func (s *Sub) Lagged() bool { return s.lagged }

// Subscribe starts a subscription that holds up to buffer records its
// reader has not taken yet, or returns ErrFull.
func (h *Hub) Subscribe(buffer int) (*Sub, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.subs) >= h.max {
		return nil, fmt.Errorf("%w (%d)", ErrFull, h.max)
	}
	ch := make(chan *Event, buffer)
	s := &Sub{Records: ch, ch: ch}
	h.subs[s] = struct{}{}
	return s, nil
}

// Unsubscribe ends s; it is safe after s ended by lagging.
func (h *Hub) Unsubscribe(s *Sub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.subs[s]; ok {
		delete(h.subs, s)
		close(s.ch)
	}
}

// Publish hands r to every subscriber without waiting: one whose buffer
// is full is ended, lagged, rather than slowing the others or the writer.
func (h *Hub) Publish(r activity.Record) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.subs) == 0 {
		return
	}
	e := &Event{Record: r}
	for s := range h.subs {
		select {
		case s.ch <- e:
		default:
			s.lagged = true
			delete(h.subs, s)
			close(s.ch)
		}
	}
}

// Len is the number of subscribers.
func (h *Hub) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}
