package connguard

import (
	"net"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// conn is a connection that records being closed.
type conn struct {
	net.Conn
	name   string
	closed bool
}

func (c *conn) Close() error { c.closed = true; return nil }

func TestGuardClosesTheLongestWaiting(t *testing.T) {
	var evicted []string
	g := New(3, func(c net.Conn) { evicted = append(evicted, c.(*conn).name) })
	a, b, c, d, e := &conn{name: "a"}, &conn{name: "b"}, &conn{name: "c"}, &conn{name: "d"}, &conn{name: "e"}

	g.ConnState(a, http.StateNew)
	g.ConnState(a, http.StateActive)
	g.Served(a) // its request arrived whole and is being served: never closed
	g.ConnState(b, http.StateNew)
	g.ConnState(c, http.StateNew)
	g.ConnState(c, http.StateActive)
	g.Served(c)
	g.ConnState(c, http.StateHijacked) // a shim before its hello
	assert.Equal(t, 3, g.Len())
	assert.Empty(t, evicted)

	g.ConnState(d, http.StateNew) // over the bound: b waited longest
	assert.Equal(t, []string{"b"}, evicted)
	assert.True(t, b.closed)

	g.Identified(c) // said hello: out of the bound
	g.ConnState(a, http.StateIdle)
	g.ConnState(e, http.StateNew)
	assert.Equal(t, []string{"b"}, evicted, "a, d and e fit")
	g.ConnState(b, http.StateClosed) // the server's notice for b comes later
	assert.Equal(t, 3, g.Len())

	g.ConnState(&conn{name: "f"}, http.StateNew)
	assert.Equal(t, []string{"b", "d"}, evicted, "a went idle after d arrived")
	assert.False(t, a.closed || c.closed || e.closed)

	var none *Guard
	none.Identified(a) // a connection served without a guard
}

// A request whose body never ends is not being served yet: its connection
// can be closed to keep the bound, oldest first, so a flood of them
// cannot keep the server from answering.
func TestGuardClosesRequestsThatNeverArrive(t *testing.T) {
	var evicted []string
	g := New(2, func(c net.Conn) { evicted = append(evicted, c.(*conn).name) })
	a, b, c := &conn{name: "a"}, &conn{name: "b"}, &conn{name: "c"}
	g.ConnState(a, http.StateNew)
	g.ConnState(a, http.StateActive) // headers read, body still coming
	g.ConnState(b, http.StateNew)
	g.ConnState(b, http.StateActive)
	g.Served(b) // arrived whole
	g.ConnState(c, http.StateNew)
	assert.Equal(t, []string{"a"}, evicted)
	assert.False(t, b.closed)
	g.Served(a) // already gone: nothing happens
	var none *Guard
	none.Served(a)
}
