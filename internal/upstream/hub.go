package upstream

import (
	"sort"
	"sync"
	"sync/atomic"

	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/judge"
)

// Hub holds the shims connected to flowd, for what concerns them all:
// withdrawing grants, a config reload, status, telling clients their tool
// list changed, stopping.
type Hub struct {
	j      *judge.Judge
	nextID atomic.Uint64

	mu    sync.Mutex
	shims map[uint64]*member
}

// member is one stream in the hub, with its connection when it has one.
type member struct {
	s *Stream
	// toClient has the shim write a line to its client; stop ends the
	// connection. Both nil for a stream without one.
	toClient func([]byte) error
	stop     func()
}

// NewHub returns an empty hub whose streams are judged by j.
func NewHub(j *judge.Judge) *Hub {
	return &Hub{j: j, shims: make(map[uint64]*member)}
}

// Add puts a stream without a connection in the hub: its grants are
// withdrawn with the others' and status shows it.
func (h *Hub) Add(s *Stream) { h.add(&member{s: s}) }

func (h *Hub) add(m *member) {
	h.mu.Lock()
	m.s.hub = h
	h.shims[m.s.id] = m
	h.mu.Unlock()
}

func (h *Hub) remove(s *Stream) {
	h.mu.Lock()
	delete(h.shims, s.id)
	h.mu.Unlock()
}

// streams lists the streams that match.
func (h *Hub) streams(match func(*Stream) bool) []*member {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []*member
	for _, m := range h.shims {
		if match(m.s) {
			out = append(out, m)
		}
	}
	return out
}

// withdrawGrants withdraws the grants of every shim whose stream matches,
// telling each shim on a goroutine of its own.
func (h *Hub) withdrawGrants(match func(*Stream) bool) {
	for _, m := range h.streams(match) {
		if tell := m.s.grants.withdraw(); tell != nil {
			go tell()
		}
	}
}

// Reload applies new settings to every decision from now on. Grants are
// withdrawn before, so shims stop sending at once, and after, since a
// decision made meanwhile may rest on the old rules (see grants).
func (h *Hub) Reload(s *judge.Settings) {
	all := func(*Stream) bool { return true }
	h.withdrawGrants(all)
	h.j.SetSettings(s)
	for _, m := range h.streams(all) {
		m.s.forgetClasses()
	}
	h.withdrawGrants(all)
}

// Shims is the status of the shims whose sessions sees admits.
func (h *Hub) Shims(sees func(session string) bool) []flowdclient.Shim {
	var out []flowdclient.Shim
	for _, m := range h.streams(func(*Stream) bool { return true }) {
		u := m.s
		u.mu.Lock()
		if sees(u.session) {
			out = append(out, flowdclient.Shim{ID: u.id, Server: u.name, Session: u.session,
				PID: u.hello.PID, Command: u.hello.Command, Connected: u.connected, Messages: u.messages,
				Forwarded: u.forwarded, Granted: u.grants.granted()})
		}
		u.mu.Unlock()
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// listChanged is what a server sends when its tools change.
var listChanged = []byte(`{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}` + "\n")

// ToolsChanged tells the clients of server's shims that its tool list
// changed, so they list it again and see the approved tools now rather
// than at their next restart. 2026-07-28 clients hear of changes only on
// a subscriptions/listen stream, which flowd does not join yet. It returns
// how many clients were told.
func (h *Hub) ToolsChanged(server string) int {
	told := 0
	for _, m := range h.streams(func(u *Stream) bool { return u.Name() == server && !u.isModern() }) {
		if m.toClient != nil && m.toClient(listChanged) == nil {
			told++
		}
	}
	return told
}

// Stop makes every connection's loop end after the verdict it is deciding.
func (h *Hub) Stop() {
	for _, m := range h.streams(func(*Stream) bool { return true }) {
		if m.stop != nil {
			m.stop()
		}
	}
}
