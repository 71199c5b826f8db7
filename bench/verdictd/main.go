// Command verdictd is a stand-in for flowd that passes every message the
// moment it arrives. The benchmark puts a shim in front of it to measure
// what asking for verdicts costs by itself, before flowd judges anything:
// the floor under the flow engine's figure.
//
// A shim asks only the flowd binary installed beside it, holding flowd's
// lock (localsock.DialFlowd): the benchmark runs it as "flowd" next to a
// link to the shim, and it takes the socket's lock.
//
// Usage: verdictd SOCKET. It prints "ready" once it listens, answers each
// line on its stdin with the number of messages it has passed, so the
// benchmark can tell the shim really asked, and serves until stdin closes.
package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync/atomic"

	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: verdictd SOCKET")
		os.Exit(2)
	}
	release, err := localsock.Lock(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "verdictd:", err)
		os.Exit(1)
	}
	l, err := localsock.Listen(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "verdictd:", err)
		os.Exit(1)
	}
	var passed atomic.Int64
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go serve(c, &passed)
		}
	}()
	fmt.Println("ready")
	for sc := bufio.NewScanner(os.Stdin); sc.Scan(); {
		fmt.Println(passed.Load())
	}
	l.Close()
	release()
}

// serve speaks the shim protocol as flowd does, minus the judging.
func serve(c net.Conn, passed *atomic.Int64) {
	defer c.Close()
	br := bufio.NewReader(c)
	req, err := http.ReadRequest(br)
	if err != nil || req.Header.Get("Upgrade") != shimproto.Version {
		return
	}
	if _, err := io.WriteString(c, shimproto.SwitchingProtocols); err != nil {
		return
	}
	r, w := shimproto.Frames(c, br) // flowd's path, so the floor is flowd's floor
	if t, _, err := r.Next(); err != nil || t != shimproto.TypeHello {
		return
	}
	if w.WriteJSON(shimproto.TypeWelcome, shimproto.Welcome{FailMode: "open", VerdictTimeout: 5000, MaxInspectBytes: 1 << 20}) != nil {
		return
	}
	for {
		t, p, err := r.Next()
		if err != nil {
			return
		}
		if t != shimproto.TypeMessage {
			continue
		}
		m, err := shimproto.DecodeMessage(p)
		if err != nil || w.WriteVerdict(shimproto.Verdict{Seq: m.Seq}) != nil {
			return
		}
		passed.Add(1)
	}
}
