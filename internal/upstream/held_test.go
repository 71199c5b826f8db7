//go:build unix

package upstream

import (
	"bufio"
	"net"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/judge/judgetest"
	"github.com/flowd-dev/flowd/internal/sessionid"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

// socketPair is a connected pair of Unix stream sockets, as a shim and
// flowd hold (net.Pipe has no descriptor for the raw reads and writes).
func socketPair(t *testing.T) (flowd, shim net.Conn) {
	t.Helper()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	require.NoError(t, err)
	conns := make([]net.Conn, 2)
	for i, fd := range fds {
		f := os.NewFile(uintptr(fd), "socketpair")
		conns[i], err = net.FileConn(f)
		f.Close()
		require.NoError(t, err)
		t.Cleanup(func() { conns[i].Close() })
	}
	return conns[0], conns[1]
}

// The check of a call the shim sent on under a grant waits for nothing
// and no verdict waits for it, so it is not in the way of the verdict
// on the call's result, which arrives as a rule while it would still be
// running: flowd runs it once that verdict is written, and before the
// result's recording writes the call's record, which keeps what it
// found. Before, the check ran as soon as the call came, and a result
// that came meanwhile waited for it.
func TestGrantedCallIsCheckedAfterItsResultsVerdict(t *testing.T) {
	d := newEnv(t, nil)
	sess := d.flows.Session("s")
	checks := func() int {
		n := 0
		for _, k := range sess.Summary(time.Now()).Risks {
			n += k
		}
		return n
	}
	flowdEnd, shimEnd := socketPair(t)
	var mu sync.Mutex
	var judged []int // checks made when each message's handling ended
	served := make(chan struct{})
	go func() {
		defer close(served)
		d.hub.Serve(flowdEnd, bufio.NewReader(flowdEnd), Accepted{
			SessionKey: func(sessionid.Hints) (string, error) { return "s", nil },
			Judged: func(int, time.Duration) {
				mu.Lock()
				judged = append(judged, checks())
				mu.Unlock()
			},
		})
	}()
	r, w := shimproto.Frames(shimEnd, bufio.NewReader(shimEnd))
	require.NoError(t, w.WriteJSON(shimproto.TypeHello, shimproto.Hello{Name: "filesystem"}))
	next := func(want shimproto.FrameType) []byte {
		t.Helper()
		for {
			typ, p, err := r.Next()
			require.NoError(t, err)
			if typ == want {
				return p
			}
		}
	}
	next(shimproto.TypeWelcome)
	verdict := func(seq uint64) shimproto.Verdict {
		t.Helper()
		v, err := shimproto.DecodeVerdict(next(shimproto.TypeVerdict))
		require.NoError(t, err)
		require.Equal(t, seq, v.Seq)
		return v
	}

	// A first call waits for its verdict and earns the grant (sent
	// before the verdict).
	require.NoError(t, w.WriteMessage(shimproto.Message{Seq: 1, Dir: c2s, Data: []byte(toolCall(1, "read_file", `{"path":"notes.md"}`))}))
	next(shimproto.TypeGrant)
	assert.Equal(t, shimproto.Pass, verdict(1).Action)
	require.NoError(t, w.WriteMessage(shimproto.Message{Seq: 2, Dir: s2c, Data: []byte(judgetest.TextResult(1, "the notes"))}))
	verdict(2)

	// The next goes on under the grant; its result follows at once.
	require.NoError(t, w.WriteMessage(shimproto.Message{Seq: 3, Dir: c2s, Forwarded: true,
		Data: []byte(toolCall(2, "read_file", `{"path":"todo.md"}`))}))
	require.NoError(t, w.WriteMessage(shimproto.Message{Seq: 4, Dir: s2c, Data: []byte(judgetest.TextResult(2, "the list"))}))
	assert.Equal(t, shimproto.Pass, verdict(4).Action)
	shimEnd.Close()
	<-served

	mu.Lock()
	defer mu.Unlock()
	require.Len(t, judged, 4)
	assert.Equal(t, []int{1, 1, 1, 2}, judged,
		"the granted call's check runs after its result's verdict, not before its result is read")
	rec, _ := lastCall(t, d)
	assert.Equal(t, "read_file", rec.Tool)
	assert.NotEmpty(t, rec.RiskLevel, "the record keeps what the check found, though it ran after the result's verdict")
}
