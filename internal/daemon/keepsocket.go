package daemon

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/flowd-dev/flowd/internal/localsock"
)

// keepSocketEvery is how often flowd checks that its socket path still
// leads to it.
const keepSocketEvery = time.Second

// keepSocket binds flowd's socket path again whenever it no longer leads
// to a listener of this flowd: removed, renamed or replaced by another
// program while flowd runs, or its mode changed so that clients cannot
// connect (chmod keeps the inode; red team RT4-2). Clients read a missing socket as "no flowd
// installed" and fail open (hooks, shims under fail_mode open), so a
// same-user process could otherwise switch flowd off for every new
// client by moving one file, while flowd, its lock and its old
// connections live on. The new listener is served by srv beside the
// first; shutting srv down closes both. Found by a red team (RT3-1).
func (d *Daemon) keepSocket(ctx context.Context, srv *http.Server, o Options, ensureDir func(string) error) {
	cur, err := os.Lstat(o.Socket)
	if err != nil {
		d.log.Warn("cannot watch flowd's socket; if it is removed, clients will not find flowd", "socket", o.Socket, "err", err)
		return
	}
	t := time.NewTicker(keepSocketEvery)
	defer t.Stop()
	failing := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-d.stopping:
			return
		case <-t.C:
		}
		if fi, err := os.Lstat(o.Socket); err == nil && os.SameFile(fi, cur) && !modeChanged(fi, o) {
			continue
		}
		l, err := rebind(o, ensureDir)
		if err == nil {
			cur, err = os.Lstat(o.Socket)
			if err != nil {
				l.Close()
			}
		}
		if err != nil {
			if !failing { // once per episode: the log is not a flood
				d.log.Error("flowd's socket was removed or replaced and cannot be bound again; new clients will not reach flowd", "socket", o.Socket, "err", err)
			}
			failing = true
			continue
		}
		failing = false
		l.Logf = func(f string, a ...any) { d.log.Warn(fmt.Sprintf(f, a...)) }
		d.log.Warn("flowd's socket was removed or replaced by another program; bound it again", "socket", o.Socket)
		go srv.Serve(l)
	}
}

// rebind makes the socket directory trusted again (it may have gone
// with the socket) and listens on the socket path anew.
func rebind(o Options, ensureDir func(string) error) (*localsock.Listener, error) {
	if err := ensureDir(o.Socket); err != nil {
		return nil, err
	}
	return listen(Options{Socket: o.Socket, System: o.System})
}
