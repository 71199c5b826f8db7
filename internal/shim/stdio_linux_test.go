package shim

import (
	"io"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

func nonblocking(t *testing.T, f *os.File) bool {
	t.Helper()
	fl, err := unix.FcntlInt(f.Fd(), unix.F_GETFL, 0)
	require.NoError(t, err)
	return fl&unix.O_NONBLOCK != 0
}

// blockingPair makes a connected pair of blocking files, as a client
// hands them to the shim; os.Pipe would make them non-blocking already.
func blockingPair(t *testing.T, socket bool) (r, w *os.File) {
	t.Helper()
	var fds [2]int
	var err error
	if socket {
		fds, err = unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	} else {
		err = unix.Pipe2(fds[:], unix.O_CLOEXEC)
	}
	require.NoError(t, err)
	r, w = os.NewFile(uintptr(fds[0]), "r"), os.NewFile(uintptr(fds[1]), "w")
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

// The client's pipe is read and written through the poller on a
// description of the shim's own: the original stays blocking, so nothing
// else holding the pipe notices.
func TestPollablePipe(t *testing.T) {
	r, w := blockingPair(t, false)
	pr, pw := pollable(r, os.O_RDONLY), pollable(w, os.O_WRONLY)
	require.NotSame(t, r, pr)
	require.NotSame(t, w, pw)
	t.Cleanup(func() { pr.Close(); pw.Close() })
	assert.True(t, nonblocking(t, pr))
	assert.True(t, nonblocking(t, pw))
	assert.False(t, nonblocking(t, r), "the client's description is untouched")
	assert.False(t, nonblocking(t, w), "the client's description is untouched")
	testData(t, pr, pw, w)

	fl, err := unix.FcntlInt(pr.Fd(), unix.F_GETFD, 0)
	require.NoError(t, err)
	assert.NotZero(t, fl&unix.FD_CLOEXEC, "the upstream must not inherit it")
}

// A socket (what Node-based clients hand their servers) has no separate
// description to open: its duplicate is made non-blocking, close-on-exec.
func TestPollableSocket(t *testing.T) {
	a, b := blockingPair(t, true)
	pa, pb := pollable(a, os.O_RDONLY), pollable(b, os.O_WRONLY)
	require.NotSame(t, a, pa)
	t.Cleanup(func() { pa.Close(); pb.Close() })
	assert.True(t, nonblocking(t, pa))
	fl, err := unix.FcntlInt(pa.Fd(), unix.F_GETFD, 0)
	require.NoError(t, err)
	assert.NotZero(t, fl&unix.FD_CLOEXEC)
	testData(t, pa, pb, b)
}

// Anything else (a terminal, a file) is left as it is.
func TestPollableLeavesFilesAlone(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "in")
	require.NoError(t, err)
	defer f.Close()
	assert.Same(t, f, pollable(f, os.O_RDONLY))
}

// testData checks that a line written to w arrives whole at r, which sees
// the end of the stream once w and orig, the file w was made from, close.
func testData(t *testing.T, r, w, orig *os.File) {
	t.Helper()
	done := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(r)
		done <- b
	}()
	_, err := w.WriteString("{\"jsonrpc\":\"2.0\",\"id\":1}\n")
	require.NoError(t, err)
	require.NoError(t, w.Close())
	require.NoError(t, orig.Close())
	assert.Equal(t, "{\"jsonrpc\":\"2.0\",\"id\":1}\n", string(<-done))
}
