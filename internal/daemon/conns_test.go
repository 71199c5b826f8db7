//go:build unix

package daemon

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

// serving runs a flowd with cfg on a fresh socket and returns it, the
// socket, and what stops it (which the test's cleanup does too).
func serving(t testing.TB, cfg *config.Config) (*Daemon, string, func()) {
	return servingWith(t, Options{Config: cfg})
}

// servingWith is serving with more of o than the config; its socket,
// data dir, log and OnReady are the test's.
func servingWith(t testing.TB, o Options) (*Daemon, string, func()) {
	dir, err := os.MkdirTemp("", "fd")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	socket := filepath.Join(dir, "flowd.sock")
	got := make(chan *Daemon, 1)
	ready := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		o.Socket, o.DataDir, o.Log, o.OnReady = socket, t.TempDir(), slog.New(slog.NewTextHandler(io.Discard, nil)), func(d *Daemon) { got <- d }
		errc <- Run(ctx, o, ready)
	}()
	select {
	case <-ready:
	case err := <-errc:
		t.Fatalf("flowd did not start: %v", err)
	}
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			assert.NoError(t, <-errc)
		})
	}
	t.Cleanup(stop)
	return <-got, socket, stop
}

// shimClient connects as a shim does and returns its frames once welcomed.
func shimClient(t *testing.T, socket string) (net.Conn, *shimproto.Reader, *shimproto.Writer) {
	t.Helper()
	c, err := localsock.Dial(socket, 10*time.Second)
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	br, err := shimproto.Upgrade(c, 10*time.Second)
	require.NoError(t, err)
	r, w := shimproto.Frames(c, br)
	require.NoError(t, w.WriteJSON(shimproto.TypeHello, shimproto.Hello{PID: os.Getpid(), Name: "filesystem", Command: []string{"fs"}}))
	typ, _, err := r.Next()
	require.NoError(t, err)
	require.Equal(t, shimproto.TypeWelcome, typ)
	return c, r, w
}

// verdict sends one tools/call and waits for flowd's verdict on it.
func verdict(t *testing.T, r *shimproto.Reader, w *shimproto.Writer, seq uint64) shimproto.Verdict {
	t.Helper()
	// A request id of its own: one still waiting for its answer is refused.
	return verdictOn(t, r, w, seq, `{"jsonrpc":"2.0","id":`+strconv.FormatUint(seq, 10)+`,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a"}}}`+"\n")
}

func verdictOn(t *testing.T, r *shimproto.Reader, w *shimproto.Writer, seq uint64, line string) shimproto.Verdict {
	t.Helper()
	require.NoError(t, w.WriteMessage(shimproto.Message{Seq: seq, Dir: c2s, Data: []byte(line)}))
	for {
		typ, p, err := r.Next()
		require.NoError(t, err)
		if typ == shimproto.TypeVerdict {
			v, err := shimproto.DecodeVerdict(p)
			require.NoError(t, err)
			return v
		}
	}
}

// Idle connections, kept alive after a request or upgraded and silent,
// are held only up to the bound: past it the longest waiting is closed,
// and a new shim still connects and gets its verdicts.
func TestIdleConnectionsDoNotStarveShims(t *testing.T) {
	var l unix.Rlimit
	require.NoError(t, unix.Getrlimit(unix.RLIMIT_NOFILE, &l))
	assert.Equal(t, l.Max, l.Cur, "the soft descriptor limit is raised to the hard one")
	d, socket, _ := serving(t, config.Default())
	// Both ends are in this process: two descriptors a connection.
	n := min(2000, int(l.Cur)/2-100)
	bound := d.conns.Max()
	require.Greater(t, n, bound+100, "descriptor limit %d too low to exceed the bound %d", l.Cur, bound)

	conns := make([]net.Conn, 0, n)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := range n {
		c, err := localsock.Dial(socket, 10*time.Second)
		require.NoError(t, err)
		conns = append(conns, c)
		if i%2 == 0 {
			// Upgraded, never a hello.
			_, err = io.WriteString(c, "GET "+shimproto.Path+" HTTP/1.1\r\nHost: flowd\r\nConnection: Upgrade\r\nUpgrade: "+shimproto.Version+"\r\n\r\n")
		} else {
			// One request, then idle on a kept-alive connection.
			_, err = io.WriteString(c, "GET /api/v1/status HTTP/1.1\r\nHost: flowd\r\n\r\n")
		}
		require.NoError(t, err)
	}

	_, r, w := shimClient(t, socket)
	assert.Equal(t, shimproto.Pass, verdict(t, r, w, 1).Action)
	assert.LessOrEqual(t, d.conns.Len(), bound)

	// The connections flowd closed read EOF; the others are cut short
	// once enough have, or after a minute: waiting on EOFs, not on a
	// deadline a busy machine may miss.
	var wg sync.WaitGroup
	eofs := make(chan struct{}, len(conns))
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.SetReadDeadline(time.Now().Add(time.Minute))
			if _, err := io.Copy(io.Discard, c); err == nil {
				eofs <- struct{}{}
			}
		}()
	}
	eof := 0
	for timeout := time.After(time.Minute); eof < n-bound; eof++ {
		select {
		case <-eofs:
			continue
		case <-timeout:
		}
		break
	}
	for _, c := range conns {
		c.SetReadDeadline(time.Now())
	}
	wg.Wait()
	assert.GreaterOrEqual(t, eof, n-bound, "flowd holds at most %d waiting connections", bound)
	assert.Equal(t, shimproto.Pass, verdict(t, r, w, 2).Action, "the shim keeps its connection")
}

// A request longer than flowd reads is refused, read only as far as its
// id; any other frame over the limit closes the connection without flowd
// reading or allocating it.
func TestOversizeFrames(t *testing.T) {
	cfg := config.Default()
	cfg.Shim.MaxInspectBytes = 4096
	_, socket, _ := serving(t, cfg)
	c, r, w := shimClient(t, socket)

	big := `{"jsonrpc":"2.0","id":"big-1","method":"tools/call","params":{"name":"read_file","arguments":{"path":"` +
		strings.Repeat("a", 200<<10) + `"}}}` + "\n"
	v := verdictOn(t, r, w, 1, big)
	require.Equal(t, shimproto.Respond, v.Action)
	assert.Contains(t, string(v.Data), `"id":"big-1"`)
	assert.Contains(t, string(v.Data), "too large for flowd to check")
	assert.Equal(t, shimproto.Pass, verdict(t, r, w, 2).Action, "the connection goes on")

	var hdr [5]byte
	binary.BigEndian.PutUint32(hdr[:4], 1<<30)
	hdr[4] = byte(shimproto.TypeAnswer)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := c.Write(hdr[:])
	require.NoError(t, err)
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	for err == nil {
		_, _, err = r.Next() // a grant may come before the end
	}
	assert.True(t, errors.Is(err, io.EOF), "flowd closes the connection: %v", err)
	runtime.ReadMemStats(&after)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<20), "the 1 GiB frame was not allocated")
}
