package daemon

import (
	"context"
	"github.com/flowd-dev/flowd/internal/upstream"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/judge/judgetest"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

func testDaemon(t testing.TB, overrides map[string]string) *Daemon {
	cfg := config.Default()
	cfg.Policy.ToolOverrides = overrides
	return testDaemonConfig(t, cfg)
}

func testDaemonConfig(t testing.TB, cfg *config.Config) *Daemon {
	o := Options{Config: cfg, DataDir: t.TempDir(), Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	st, err := openStores(o)
	require.NoError(t, err)
	t.Cleanup(func() { st.close() })
	d, err := newDaemon(o, st)
	require.NoError(t, err)
	return d
}

func judgeMsg(d *Daemon, u *upstream.Stream, m shimproto.Message) shimproto.Verdict {
	return judgetest.Judge(d.judge, u, m)
}

var msg = judgetest.Msg

const c2s, s2c = shimproto.ClientToServer, shimproto.ServerToClient

func runDaemon(t *testing.T, socket string) (context.CancelFunc, chan error) {
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan struct{})
	errc := make(chan error, 1)
	go func() {
		errc <- Run(ctx, Options{Config: config.Default(), Socket: socket, DataDir: t.TempDir(),
			Log: slog.New(slog.NewTextHandler(io.Discard, nil))}, ready)
	}()
	select {
	case <-ready:
	case err := <-errc:
		t.Fatalf("daemon did not start: %v", err)
	}
	return cancel, errc
}

func TestRunOneDaemonPerSocket(t *testing.T) {
	dir, err := os.MkdirTemp("", "flowdtest")
	require.NoError(t, err)
	defer os.RemoveAll(dir)
	socket := filepath.Join(dir, "run", "flowd.sock")
	cancel, errc := runDaemon(t, socket)

	fi, err := os.Stat(filepath.Dir(socket))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm(), "socket dir")
	fi, err = os.Stat(socket)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "socket")

	err = Run(context.Background(), Options{Config: config.Default(), Socket: socket, DataDir: t.TempDir(),
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))}, nil)
	assert.ErrorIs(t, err, ErrRunning)

	st, err := flowdclient.NewClient(socket, time.Second).Status()
	require.NoError(t, err)
	assert.True(t, st.Running)
	assert.Equal(t, os.Getpid(), st.PID)

	cancel()
	require.NoError(t, <-errc)
	_, err = os.Stat(socket)
	assert.True(t, os.IsNotExist(err), "socket removed on stop")
}
