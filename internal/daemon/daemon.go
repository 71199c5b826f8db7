package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/paths"
	"github.com/flowd-dev/flowd/internal/policy"
)

// ErrRunning means another flowd already serves the socket.
var ErrRunning = errors.New("flowd is already running on this socket")

// Options configure a daemon.
type Options struct {
	Config  *config.Config
	Socket  string
	DataDir string
	Log     *slog.Logger
}

// Daemon is a running flowd.
type Daemon struct {
	cfg     *config.Config
	rules   policy.Rules
	socket  string
	dataDir string
	log     *slog.Logger
	store   *activity.Store
	started time.Time

	nextID atomic.Uint64
	mu     sync.Mutex
	shims  map[uint64]*shimConn
	wg     sync.WaitGroup // one per shim connection
}

// Run serves until ctx is cancelled, then stops gracefully: shims get the
// verdicts already being decided, the activity log is flushed. ready, if
// not nil, is closed once the socket accepts connections.
func Run(ctx context.Context, o Options, ready chan<- struct{}) error {
	if err := paths.EnsureSocketDir(o.Socket); err != nil {
		return err
	}
	if err := paths.CheckSocketPath(o.Socket); err != nil {
		return err
	}
	unlock, err := lock(o.Socket + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	if err := os.MkdirAll(o.DataDir, 0o700); err != nil {
		return fmt.Errorf("create data dir %s: %w", o.DataDir, err)
	}
	store, err := activity.Open(filepath.Join(o.DataDir, "activity.db"), activity.Options{
		MaxAge:        o.Config.Activity.MaxAge.Duration,
		MaxRecords:    o.Config.Activity.MaxRecords,
		FlushInterval: o.Config.Activity.FlushInterval.Duration,
	})
	if err != nil {
		return err
	}
	d := &Daemon{cfg: o.Config, rules: rulesFrom(o.Config), socket: o.Socket, dataDir: o.DataDir,
		log: o.Log, store: store, started: time.Now(), shims: make(map[uint64]*shimConn)}
	l, err := localsock.Listen(o.Socket)
	if err != nil {
		store.Close()
		return err
	}
	l.Logf = func(f string, a ...any) { d.log.Warn(fmt.Sprintf(f, a...)) }
	srv := &http.Server{Handler: d.handler(), ReadHeaderTimeout: 5 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(l) }()
	d.log.Info("flowd ready", "socket", o.Socket, "data_dir", o.DataDir, "pid", os.Getpid())
	if ready != nil {
		close(ready)
	}

	select {
	case <-ctx.Done():
	case err = <-errc:
	}
	d.log.Info("flowd stopping")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	srv.Shutdown(shutdownCtx)
	cancel()
	d.mu.Lock()
	for _, s := range d.shims {
		s.stop()
	}
	d.mu.Unlock()
	d.wg.Wait()
	if cerr := store.Close(); cerr != nil && err == nil {
		err = cerr
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

func rulesFrom(c *config.Config) policy.Rules {
	r := policy.Rules{DefaultAction: policy.Action(c.Policy.DefaultAction), ToolOverrides: map[string]policy.Action{}}
	for k, v := range c.Policy.ToolOverrides {
		r.ToolOverrides[k] = policy.Action(v)
	}
	return r
}

func (d *Daemon) policy() policy.Rules { return d.rules }

// lock takes the per-socket lock file, so of many flowds started at once
// (ten shims autostarting together) exactly one serves.
func lock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open lock file %s: %w", path, err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, ErrRunning
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { f.Close() }, nil
}

func (d *Daemon) addShim(s *shimConn) {
	d.mu.Lock()
	d.shims[s.up.id] = s
	d.mu.Unlock()
}

func (d *Daemon) removeShim(s *shimConn) {
	d.mu.Lock()
	delete(d.shims, s.up.id)
	d.mu.Unlock()
}
