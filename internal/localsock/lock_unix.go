//go:build unix

package localsock

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// Lock takes socket's lock (LockPath), which flowd holds while it
// serves: of many flowds started at once (ten shims autostarting
// together) exactly one serves, and a client asks only the process that
// holds it (DialFlowd). ErrLocked: another process holds it.
func Lock(socket string) (release func(), err error) {
	path := LockPath(socket)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open lock file %s: %w", path, err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, ErrLocked
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { f.Close() }, nil
}
