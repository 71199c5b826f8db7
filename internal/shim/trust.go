package shim

import (
	"os"
	"path/filepath"
	"sync"
)

// socketTrust is untrustedSocket for one socket, remembered while its
// directory stays as it was checked. The fail-open path asks at every
// message it passes unchecked, and the full check (working out the user's
// own socket path, inspecting the directory) took about 40 µs a message;
// one lstat tells whether what the verdict depends on has changed, so a
// directory changed after the shim started (another user's chmod, a
// directory removed and made again) is still noticed at the next message.
type socketTrust struct {
	socket string
	uid    int                        // this process's, asked once: a system call costs microseconds here
	check  func(socket string) string // untrustedSocket; a test counts calls

	mu    sync.Mutex
	known bool // why holds for stamp
	stamp dirStamp
	why   string
}

func newSocketTrust(socket string) *socketTrust {
	return &socketTrust{socket: socket, uid: os.Getuid(), check: untrustedSocket}
}

// untrusted is untrustedSocket(socket).
func (c *socketTrust) untrusted() string {
	fi, err := os.Lstat(filepath.Dir(c.socket))
	if err != nil {
		return c.check(c.socket) // no directory yet: a cheap check, and nothing to remember
	}
	stamp, cacheable := stampOf(fi, c.uid)
	c.mu.Lock()
	defer c.mu.Unlock()
	if cacheable && c.known && stamp == c.stamp {
		return c.why
	}
	c.why = c.check(c.socket)
	c.known, c.stamp = cacheable, stamp
	return c.why
}
