package localsock

import (
	"errors"
	"fmt"
	"net"
	"os"
	"time"
)

// Listener accepts only connections from the same user (or root).
type Listener struct {
	*net.UnixListener
	Logf func(format string, args ...any)
}

// Listen creates the socket at path. The caller has made sure no other
// daemon owns it (flowd holds a lock file), so a stale socket is removed.
func Listen(path string) (*Listener, error) {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("remove stale socket %s: %w", path, err)
	}
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	// Between bind and chmod the directory's 0700 keeps others out.
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return nil, fmt.Errorf("chmod socket %s: %w", path, err)
	}
	l.SetUnlinkOnClose(true)
	return &Listener{UnixListener: l}, nil
}

// FromListener wraps a listener handed over by a service manager.
func FromListener(l *net.UnixListener) *Listener { return &Listener{UnixListener: l} }

// Accept returns the next connection whose peer is this user or root; others
// are closed and logged.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		c, err := l.AcceptUnix()
		if err != nil {
			return nil, err
		}
		if err := checkPeer(c); err != nil {
			if l.Logf != nil {
				l.Logf("refused connection: %v", err)
			}
			c.Close()
			continue
		}
		return c, nil
	}
}

// Dial connects to the socket at path and checks that the listener runs as
// this user or root.
func Dial(path string, timeout time.Duration) (*net.UnixConn, error) {
	d := net.Dialer{Timeout: timeout}
	c, err := d.Dial("unix", path)
	if err != nil {
		return nil, err
	}
	uc := c.(*net.UnixConn)
	if err := checkPeer(uc); err != nil {
		uc.Close()
		return nil, fmt.Errorf("flowd socket %s: %w", path, err)
	}
	return uc, nil
}

func checkPeer(c *net.UnixConn) error {
	uid, err := PeerUID(c)
	if err != nil {
		return fmt.Errorf("read peer credentials: %w", err)
	}
	if me := os.Getuid(); uid != me && uid != 0 {
		return fmt.Errorf("peer runs as uid %d, not %d", uid, me)
	}
	return nil
}
