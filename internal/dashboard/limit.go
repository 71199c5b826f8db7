package dashboard

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// MaxConns bounds the connections the dashboard serves at once. A page
// holds one live stream and makes a few requests at a time (a browser
// opens at most six connections to a host), so this is room for many
// tabs; past it, a connection is answered 503 and closed, so a local
// process that opens connections in a loop cannot use up flowd's file
// descriptors through the dashboard.
const MaxConns = 64

// maxRefusing bounds the over-the-cap connections being answered 503
// at once; past that they are closed unanswered.
const maxRefusing = 16

// refuseWait is how long an over-the-cap connection has to send its
// request before it is answered anyway.
const refuseWait = 2 * time.Second

// capped is a listener that hands out at most cap(slots) connections
// at a time.
type capped struct {
	net.Listener
	slots    chan struct{}
	refusing chan struct{}
}

func capListener(l net.Listener, max int) *capped {
	return &capped{Listener: l, slots: make(chan struct{}, max), refusing: make(chan struct{}, maxRefusing)}
}

func (l *capped) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		select {
		case l.slots <- struct{}{}:
			return &slotConn{Conn: c, free: func() { <-l.slots }}, nil
		default:
		}
		select {
		case l.refusing <- struct{}{}:
			go func() {
				refuse(c, len(l.slots))
				<-l.refusing
			}()
		default:
			c.Close()
		}
	}
}

// refuse answers the request on c, once read (or after refuseWait),
// with 503, and closes c.
func refuse(c net.Conn, n int) {
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(refuseWait))
	// Read the request first: closing a socket with unread data resets
	// it, and the client would see a reset instead of the answer.
	if req, err := http.ReadRequest(bufio.NewReader(c)); err == nil {
		io.Copy(io.Discard, io.LimitReader(req.Body, 1<<16))
		req.Body.Close()
	}
	c.SetWriteDeadline(time.Now().Add(refuseWait))
	body := fmt.Sprintf("flowd's dashboard serves %d connections at once and has them all: close some dashboard tabs, or try again\n", n)
	fmt.Fprintf(c, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n"+
		"Cache-Control: no-store\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
}

// slotConn gives its slot back when it is closed, once.
type slotConn struct {
	net.Conn
	once sync.Once
	free func()
}

func (c *slotConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.free)
	return err
}
