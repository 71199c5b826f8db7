// Package connguard bounds the connections a local server holds for
// clients that have not shown what they are: fresh and idle keep-alive
// HTTP connections, connections whose request has not arrived whole, and
// upgraded shim connections before their hello. Past the bound the
// longest-waiting of them is closed, never one whose request is being
// served and never an identified shim, so a flood of idle connections, or
// of requests whose body never ends, cannot use up the descriptors a new
// shim needs nor keep the server from answering.
package connguard

import (
	"container/list"
	"net"
	"net/http"
	"sync"
)

// Guard tracks connections from accept until they are identified or
// closed. It is safe for concurrent use.
type Guard struct {
	max     int
	onEvict func(net.Conn)

	mu    sync.Mutex
	conns map[net.Conn]*entry
	// waiting holds the connections that may be evicted, longest waiting
	// at the front: fresh, idle between requests, reading a request not
	// yet Served, or upgraded and not yet identified.
	waiting *list.List
}

type entry struct {
	at *list.Element // in waiting; nil while a request that arrived whole is being served
}

// New bounds the unidentified connections to max; onEvict, if not nil,
// is told of each connection closed to keep the bound.
func New(max int, onEvict func(net.Conn)) *Guard {
	return &Guard{max: max, onEvict: onEvict, conns: make(map[net.Conn]*entry), waiting: list.New()}
}

// ConnState is an http.Server's ConnState hook.
func (g *Guard) ConnState(c net.Conn, s http.ConnState) {
	g.mu.Lock()
	var evict []net.Conn
	switch s {
	case http.StateNew, http.StateIdle, http.StateHijacked, http.StateActive:
		// A hijacked connection is a shim until it says hello; an active
		// one is reading a request until the server says it was Served.
		e := g.conns[c]
		if e == nil {
			e = &entry{}
			g.conns[c] = e
		}
		if e.at == nil {
			e.at = g.waiting.PushBack(c)
		}
		evict = g.trim()
	case http.StateClosed:
		g.forget(c)
	}
	g.mu.Unlock()
	g.close(evict)
}

// Served takes c out of the connections that may be closed while its
// request is served: the request, body included, has arrived whole. A
// request whose body never ends stays closable. It may be called on a
// connection the guard does not hold, or on a nil Guard.
func (g *Guard) Served(c net.Conn) {
	if g == nil {
		return
	}
	g.mu.Lock()
	if e := g.conns[c]; e != nil && e.at != nil {
		g.waiting.Remove(e.at)
		e.at = nil
	}
	g.mu.Unlock()
}

// Identified takes c out of the bound: an upgraded connection whose shim
// said hello, or one that is closed. It may be called more than once, and
// on a nil Guard (a connection served without one).
func (g *Guard) Identified(c net.Conn) {
	if g == nil {
		return
	}
	g.mu.Lock()
	g.forget(c)
	g.mu.Unlock()
}

// Max is the bound.
func (g *Guard) Max() int { return g.max }

// Len is the number of unidentified connections held.
func (g *Guard) Len() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.conns)
}

func (g *Guard) forget(c net.Conn) {
	if e := g.conns[c]; e != nil {
		if e.at != nil {
			g.waiting.Remove(e.at)
		}
		delete(g.conns, c)
	}
}

// trim picks the longest-waiting connections past the bound.
func (g *Guard) trim() []net.Conn {
	var out []net.Conn
	for len(g.conns) > g.max && g.waiting.Len() > 0 {
		c := g.waiting.Remove(g.waiting.Front()).(net.Conn)
		delete(g.conns, c)
		out = append(out, c)
	}
	return out
}

func (g *Guard) close(cs []net.Conn) {
	for _, c := range cs {
		c.Close()
		if g.onEvict != nil {
			g.onEvict(c)
		}
	}
}
