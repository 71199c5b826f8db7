package systemd

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// notifySocket listens where NOTIFY_SOCKET points, as systemd does.
func notifySocket(t *testing.T) *net.UnixConn {
	path := filepath.Join(t.TempDir(), "notify")
	c, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	t.Setenv("NOTIFY_SOCKET", path)
	return c
}

func read(t *testing.T, c *net.UnixConn, within time.Duration) (string, error) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(within))
	buf := make([]byte, 256)
	n, err := c.Read(buf)
	return string(buf[:n]), err
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func TestNotifyWritesTheState(t *testing.T) {
	c := notifySocket(t)
	Notify(quiet, "READY=1")
	got, err := read(t, c, 5*time.Second)
	require.NoError(t, err)
	assert.Equal(t, "READY=1", got)
}

func TestNotifyWithoutSystemdDoesNothing(t *testing.T) {
	t.Setenv("NOTIFY_SOCKET", "")
	Notify(quiet, "READY=1") // must neither fail nor block
}

func TestWatchdogPingsOnlyWhileFlowdAnswers(t *testing.T) {
	c := notifySocket(t)
	t.Setenv("WATCHDOG_USEC", "100000") // 100ms: a ping every 50ms
	t.Setenv("WATCHDOG_PID", "")
	healthy := make(chan bool)
	checks := make(chan struct{}, 100)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		ok := false
		Watchdog(ctx, quiet, func(context.Context) error {
			select {
			case ok = <-healthy:
			default:
			}
			checks <- struct{}{}
			if !ok {
				return errors.New("no answer")
			}
			return nil
		})
	}()
	// Three failed checks, no ping.
	for range 3 {
		<-checks
	}
	_, err := read(t, c, time.Millisecond)
	assert.Error(t, err, "no ping while the check fails")

	healthy <- true
	got, err := read(t, c, 5*time.Second)
	require.NoError(t, err)
	assert.Equal(t, "WATCHDOG=1", got)
	cancel()
	<-done
}

func TestWatchdogOffWithoutWatchdogSec(t *testing.T) {
	t.Setenv("WATCHDOG_USEC", "")
	done := make(chan struct{})
	go func() {
		Watchdog(context.Background(), quiet, func(context.Context) error { return nil })
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Watchdog kept running though systemd set no watchdog")
	}
}
