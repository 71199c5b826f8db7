package upstream

import (
	"maps"
	"slices"
	"sync"

	"github.com/flowd-dev/flowd/internal/shimproto"
)

// grants are the tools one shim may call without waiting for a verdict
// (shimproto.Grant), as flowd last told it. A tool is granted once a call
// to it got a standing decision (policy.Standing); the shim still checks
// each call's arguments for suspicious hosts, and reports the call before
// sending it on. That saves the request's round trip to flowd, about a
// third of what the shim adds to a call.
//
// Whatever could change a standing decision withdraws the grants: a config
// reload, the server's tool list or name changing, and pins or poisoned
// tools changing for any shim of the same server. Each withdraws them
// before the change, so shims stop sending at once, and again after it:
// a decision made in between may rest on what is changing.
//
// The lock is never held while a frame is written: a shim that stops
// reading must not stall other connections, the status or a reload. Frames
// are numbered instead, and the shim applies only the newest.
type grants struct {
	mu    sync.Mutex
	epoch uint64 // moved on by every withdrawal
	seq   uint64 // the number of the last frame
	tools map[string]bool
	// send tells the shim; nil for an upstream without a connection, which
	// grants nothing.
	send func(shimproto.Grant) error
}

// current is read before deciding a call that may earn a grant: a
// withdrawal while the decision is made voids it.
func (g *grants) current() uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.epoch
}

// give grants tool, with hosts as the suspicious ones, unless the grants
// were withdrawn since epoch. It tells the shim before it returns, so the
// frame goes before the verdict that follows it on the connection.
func (g *grants) give(tool string, epoch uint64, hosts, guarded []string) {
	g.mu.Lock()
	if g.send == nil || tool == "" || g.epoch != epoch || g.tools[tool] {
		g.mu.Unlock()
		return
	}
	if g.tools == nil {
		g.tools = make(map[string]bool)
	}
	g.tools[tool] = true
	g.seq++
	f, send := shimproto.Grant{Seq: g.seq, Tools: slices.Sorted(maps.Keys(g.tools)), Hosts: hosts, Guarded: guarded}, g.send
	g.mu.Unlock()
	send(f)
}

// withdraw takes every grant back and returns what tells the shim, nil
// when it had none. The caller runs it: at once on the shim's own
// connection, on a goroutine of its own for another shim's.
func (g *grants) withdraw() (tell func()) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.epoch++
	if len(g.tools) == 0 {
		return nil
	}
	clear(g.tools)
	g.seq++
	f, send := shimproto.Grant{Seq: g.seq}, g.send
	return func() { send(f) }
}

// has reports whether tool is granted now.
func (g *grants) has(tool string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.tools[tool]
}

// granted lists the tools granted now.
func (g *grants) granted() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Sorted(maps.Keys(g.tools))
}

// withdrawServerGrants withdraws the grants of every shim of u's server,
// u's own at once, since its verdict follows.
func (u *Stream) withdrawServerGrants() {
	if tell := u.grants.withdraw(); tell != nil {
		tell()
	}
	if u.hub == nil {
		return
	}
	id := u.identity()
	u.hub.withdrawGrants(func(o *Stream) bool { return o != u && o.identity() == id })
}
