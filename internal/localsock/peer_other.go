//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly

package localsock

import (
	"net"
	"os"
)

// PeerUID cannot ask the kernel here (Windows AF_UNIX has no peer
// credentials); the socket's directory ACL is the only guard, so report the
// current user.
func PeerUID(c *net.UnixConn) (int, error) { return os.Getuid(), nil }
