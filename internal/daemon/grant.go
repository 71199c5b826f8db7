package daemon

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
// Whatever could change a standing decision withdraws the grants before it
// takes effect: a config reload, the server's tool list or name changing,
// and pins or poisoned tools changing for any shim of the same server.
type grants struct {
	mu    sync.Mutex
	epoch uint64 // moved on by every withdrawal
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
// were withdrawn since epoch.
func (g *grants) give(tool string, epoch uint64, hosts []string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.send == nil || g.epoch != epoch || g.tools[tool] {
		return
	}
	if g.tools == nil {
		g.tools = make(map[string]bool)
	}
	g.tools[tool] = true
	g.send(shimproto.Grant{Tools: slices.Sorted(maps.Keys(g.tools)), Hosts: hosts})
}

// withdraw takes every grant back.
func (g *grants) withdraw() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.epoch++
	if len(g.tools) == 0 {
		return
	}
	clear(g.tools)
	g.send(shimproto.Grant{})
}

// granted lists the tools granted now.
func (g *grants) granted() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Sorted(maps.Keys(g.tools))
}

// withdrawGrants withdraws the grants of every shim whose upstream matches.
func (d *Daemon) withdrawGrants(match func(*upstream) bool) {
	d.mu.Lock()
	var ups []*upstream
	for _, s := range d.shims {
		if match(s.up) {
			ups = append(ups, s.up)
		}
	}
	d.mu.Unlock()
	for _, u := range ups {
		u.grants.withdraw()
	}
}
