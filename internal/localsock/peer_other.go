//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly

package localsock

import (
	"net"
	"os"
)

// PeerCred cannot ask the kernel here (Windows AF_UNIX has no peer
// credentials); the socket's directory ACL is the only guard, so report the
// current user.
func PeerCred(c *net.UnixConn) (Cred, error) {
	return Cred{UID: os.Getuid(), GID: os.Getgid()}, nil
}
