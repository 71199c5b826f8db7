//go:build unix

package e2e

import (
	"net"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Found by a red team (RT3-2): connections whose request body never
// ends were being served, so flowd's bound on waiting connections never
// closed them; past the bound every fresh connection was closed at once,
// and the hook read that close as "flowd is unreachable" and failed open.
// The hook now reads a connection flowd took and dropped as a flowd not
// answering (only reads go on: cmd/hook TestEvaluateFailures), and flowd
// closes requests that have not arrived whole, oldest first, to keep its
// bound: under the flood it still answers, and the hook gets its verdict.
func TestFlowdAnswersUnderAFloodOfUnfinishedRequests(t *testing.T) {
	const flood = 1200 // past the 1,024 connections flowd keeps waiting
	var lim syscall.Rlimit
	require.NoError(t, syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim))
	if lim.Cur < flood+300 {
		if lim.Max < flood+300 {
			t.Skipf("the flood needs %d open files and the hard limit is %d (ulimit -Hn)", flood+300, lim.Max)
		}
		lim.Cur = min(lim.Max, 4096)
		require.NoError(t, syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim))
	}
	f := startFlowd(t, "")
	proj := t.TempDir()
	send := readThenSend(t, f, proj)

	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range flood {
		c, err := net.Dial("unix", f.socket)
		require.NoError(t, err)
		conns = append(conns, c)
		// A request whose body never ends. Past flowd's bound the oldest
		// such connection is closed, and a write may find its own closed.
		c.Write([]byte("POST /api/v1/hooks/evaluate HTTP/1.1\r\nHost: flowd\r\nContent-Length: 1000\r\n\r\n{"))
	}
	st := status(t, f.socket)
	assert.True(t, st.Running, "flowd answers flowd status under the flood")
	out, errOut := runHook(t, bins.hook+" evaluate --event PreToolUse", send, f.socket, "rt3")
	assert.Contains(t, out, `"deny"`, "stderr %q", errOut)
	assert.Contains(t, out, "aws_secret_key", "flowd's own verdict, not the hook's for a flowd not answering")
	assert.NotContains(t, out, "closing them unanswered")
}
