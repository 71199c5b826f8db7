package shim

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/flowd-dev/flowd/internal/shimproto"
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

// A client that does not read its stdout holds up only what goes to it.
// The shim writes a message from the goroutine that read its verdict when
// the write needs no waiting; a write that would wait must not keep that
// goroutine from the verdicts of the other direction.
func TestClientNotReadingDoesNotHoldUpVerdicts(t *testing.T) {
	sock := socketPath(t)
	bigJudged := make(chan struct{})
	f := startFake(t, sock, func(m shimproto.Message) []shimproto.Verdict {
		if m.Dir == shimproto.ServerToClient && m.Truncated {
			close(bigJudged)
		}
		return passAll(m)
	})
	f.welcome.VerdictTimeout = 500
	dir := t.TempDir()
	fifo := filepath.Join(dir, "got")
	require.NoError(t, unix.Mkfifo(fifo, 0o600))
	// The upstream answers at once with more than a pipe holds, then copies
	// the client's requests to the fifo.
	big := `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + strings.Repeat("z", 1<<20) + `"}}`
	script := fmt.Sprintf(`printf '%%s' '%s'; head -c %d /dev/zero | tr '\0' z; printf '%%s\n' '%s'; exec cat > %s`,
		big[:strings.IndexByte(big, 'z')], 1<<20, `"}}`, fifo)
	inR, inW := io.Pipe()
	outR, outW, err := os.Pipe()
	require.NoError(t, err)
	t.Cleanup(func() { inW.Close(); outR.Close() })
	stderr := &syncBuffer{}
	code := make(chan int, 1)
	go func() {
		code <- Run(Options{Socket: sock, FailMode: "closed", Command: []string{"sh", "-c", script},
			Stdin: inR, Stdout: outW, Stderr: stderr})
		outW.Close()
	}()
	<-f.hello

	got, err := os.Open(fifo) // waits for the upstream to open it for writing
	require.NoError(t, err)
	defer got.Close()
	// The requests' verdicts come after the big message's on the one
	// connection: the shim reads them only once it has dealt with that.
	<-bigJudged
	requests := lines(200)
	go func() {
		for _, l := range requests {
			if _, err := io.WriteString(inW, l); err != nil {
				return
			}
		}
	}()
	gr := bufio.NewReader(got)
	for i, want := range requests {
		line, err := gr.ReadString('\n')
		require.NoError(t, err, "request %d", i)
		require.Equal(t, want, line, "request %d", i)
	}
	assert.NotContains(t, stderr.String(), "not answering", "a verdict waited behind the write to the client")

	// The client reads at last: the big message arrives whole.
	inW.Close()
	out, err := io.ReadAll(outR)
	require.NoError(t, err)
	assert.Equal(t, big+"\n", string(out))
	assert.Equal(t, 0, <-code)
}
