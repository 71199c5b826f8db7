//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package localsock

import (
	"net"

	"golang.org/x/sys/unix"
)

// PeerCred returns who is at the other end of c, as LOCAL_PEERCRED
// recorded it at connect time: the first group is the effective gid.
func PeerCred(c *net.UnixConn) (Cred, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return Cred{}, err
	}
	var xc *unix.Xucred
	var serr error
	err = raw.Control(func(fd uintptr) {
		xc, serr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	})
	if err != nil {
		return Cred{}, err
	}
	if serr != nil {
		return Cred{}, serr
	}
	cred := Cred{UID: int(xc.Uid), GID: -1}
	for i := 0; i < int(xc.Ngroups) && i < len(xc.Groups); i++ {
		if i == 0 {
			cred.GID = int(xc.Groups[0])
			continue
		}
		cred.Groups = append(cred.Groups, int(xc.Groups[i]))
	}
	return cred, nil
}
