package daemon

import (
	"bytes"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Found by a red team (RT5-6): a client that asks for a long answer and
// never reads it held the handler in a write for good. Each write now has
// writeStall to finish; the handler sees it fail and ends.
func TestAnswerNobodyReadsIsCut(t *testing.T) {
	saved := writeStall
	writeStall = 100 * time.Millisecond
	t.Cleanup(func() { writeStall = saved })
	d := testDaemon(t, nil)
	d.conns = d.guard()
	ended := make(chan error, 1)
	h := d.served(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := bytes.Repeat([]byte("x"), 64<<10)
		for {
			if _, err := w.Write(chunk); err != nil {
				ended <- err
				return
			}
		}
	}))
	dir, err := os.MkdirTemp("", "stall")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	l, err := net.Listen("unix", filepath.Join(dir, "s"))
	require.NoError(t, err)
	srv := &http.Server{Handler: h, ConnContext: withPeer, ConnState: d.conns.ConnState}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })

	c, err := net.Dial("unix", filepath.Join(dir, "s"))
	require.NoError(t, err)
	defer c.Close()
	_, err = c.Write([]byte("GET /api/v1/activity/export HTTP/1.1\r\nHost: flowd\r\n\r\n"))
	require.NoError(t, err)
	// Never read. The bound below is a hang guard, not a wait for time to pass.
	select {
	case err := <-ended:
		require.True(t, errors.Is(err, os.ErrDeadlineExceeded), "the write ended by its deadline: %v", err)
	case <-time.After(time.Minute):
		t.Fatal("the handler still waits for a client that never reads")
	}
}
