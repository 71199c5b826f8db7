//go:build unix

package e2e

import (
	"net"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// Found by a red team (RT3-2): connections whose request body never
// ends are being served, so flowd's bound on waiting connections never
// closes them; past the bound every fresh connection is closed at once.
// The hook read that close as "flowd is unreachable" and failed open. A
// connection flowd took and dropped is now a flowd not answering: only
// reads go on.
func TestHookDeniesWhenFlowdDropsItsConnection(t *testing.T) {
	var lim syscall.Rlimit
	require.NoError(t, syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim))
	if lim.Cur < 1500 {
		if lim.Max < 1500 {
			t.Skipf("the flood needs 1,500 open files and the hard limit is %d (ulimit -Hn)", lim.Max)
		}
		lim.Cur = min(lim.Max, 4096)
		require.NoError(t, syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim))
	}
	f := startFlowd(t, "")
	proj := t.TempDir()
	send := readThenSend(t, f, proj)

	var mu sync.Mutex
	var conns []net.Conn
	defer func() {
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	}()
	hold := func() {
		c, err := net.Dial("unix", f.socket)
		require.NoError(t, err)
		// A request whose body never ends: being served, never closed.
		// Past flowd's bound a new connection is closed at once, and the
		// write may find it closed: the flood has done its work.
		if _, err := c.Write([]byte("POST /api/v1/hooks/evaluate HTTP/1.1\r\nHost: flowd\r\nContent-Length: 1000\r\n\r\n{")); err != nil {
			c.Close()
			return
		}
		mu.Lock()
		conns = append(conns, c)
		mu.Unlock()
	}
	// answers: a complete request gets an answer. Once flowd drops one,
	// the connections held past its bound are all being served, and they
	// stay.
	answers := func() bool {
		c, err := net.Dial("unix", f.socket)
		require.NoError(t, err)
		defer c.Close()
		_, err = c.Write([]byte("GET /api/v1/status HTTP/1.1\r\nHost: flowd\r\nConnection: close\r\n\r\n"))
		if err == nil {
			_, err = c.Read(make([]byte, 1))
		}
		return err == nil
	}
	for answers() {
		require.Less(t, len(conns), 3000, "flowd still answers with 3,000 connections held")
		for range 100 {
			hold()
		}
	}
	out, errOut := runHook(t, bins.hook+" evaluate --event PreToolUse", send, f.socket, "rt3")
	if !strings.Contains(out, `"deny"`) {
		t.Errorf("under a flood of half-sent requests the send was not denied: stdout %q stderr %q", out, errOut)
	}
	require.Contains(t, out, "closing them unanswered")
}
