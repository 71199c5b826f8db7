package syslogexport

import (
	"bufio"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"testing"
)

func errf(format string, a ...any) error { return fmt.Errorf(format, a...) }

// receiver is a syslog receiver: octet-counted frames over TCP or TLS
// (RFC 6587), or one message per UDP datagram. Each message arrives on
// got.
type receiver struct {
	t    *testing.T
	addr string
	got  chan string
	mu   sync.Mutex
	l    net.Listener
	pc   net.PacketConn
	live map[net.Conn]bool
	wg   sync.WaitGroup
}

func startReceiver(t *testing.T, transport, addr string, tc *tls.Config) *receiver {
	r := &receiver{t: t, got: make(chan string, 100_000), live: map[net.Conn]bool{}}
	r.listen(transport, addr, tc)
	t.Cleanup(r.stop)
	return r
}

func (r *receiver) listen(transport, addr string, tc *tls.Config) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	if transport == "udp" {
		pc, err := net.ListenPacket("udp", addr)
		if err != nil {
			r.t.Fatal(err)
		}
		r.pc, r.addr = pc, pc.LocalAddr().String()
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			b := make([]byte, 65536)
			for {
				n, _, err := pc.ReadFrom(b)
				if err != nil {
					return
				}
				r.got <- string(b[:n])
			}
		}()
		return
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		r.t.Fatal(err)
	}
	if tc != nil {
		l = tls.NewListener(l, tc)
	}
	r.l, r.addr = l, l.Addr().String()
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			r.mu.Lock()
			r.live[c] = true
			r.mu.Unlock()
			r.wg.Add(1)
			go func() {
				defer r.wg.Done()
				r.read(c)
			}()
		}
	}()
}

// read parses octet-counted frames: a length, a space, that many bytes.
func (r *receiver) read(c net.Conn) {
	defer func() {
		r.mu.Lock()
		delete(r.live, c)
		r.mu.Unlock()
		c.Close()
	}()
	br := bufio.NewReader(c)
	for {
		n, err := br.ReadString(' ')
		if err != nil {
			return
		}
		size, err := strconv.Atoi(n[:len(n)-1])
		if err != nil || size <= 0 {
			r.got <- "BAD FRAME " + strconv.Quote(n)
			return
		}
		b := make([]byte, size)
		if _, err := io.ReadFull(br, b); err != nil {
			return // a frame cut short is not a message
		}
		r.got <- string(b)
	}
}

// stop closes the listener and every connection, as a receiver that
// goes down does.
func (r *receiver) stop() {
	if r.pc != nil {
		r.pc.Close()
	}
	if r.l != nil {
		r.l.Close()
	}
	r.mu.Lock()
	for c := range r.live {
		c.Close()
	}
	r.mu.Unlock()
	r.wg.Wait()
}

// next is the next message; it fails the test after none came for long.
func (r *receiver) next() string {
	r.t.Helper()
	select {
	case m := <-r.got:
		return m
	case <-timeout():
		r.t.Fatal("no message arrived")
		return ""
	}
}
