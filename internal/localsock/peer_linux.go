package localsock

import (
	"errors"
	"net"
	"unsafe"

	"golang.org/x/sys/unix"
)

// PeerCred returns who is at the other end of c: uid and gid from
// SO_PEERCRED, supplementary groups from SO_PEERGROUPS (Linux 4.13; older
// kernels give none, and only the primary group counts). Both are what the
// kernel recorded at connect time. /proc/PID/status would be read later,
// when the pid may already belong to another process, and a /proc mounted
// with hidepid= hides other users' processes from flowd altogether.
func PeerCred(c *net.UnixConn) (Cred, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return Cred{}, err
	}
	var cred Cred
	var serr error
	err = raw.Control(func(fd uintptr) {
		var uc *unix.Ucred
		if uc, serr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED); serr != nil {
			return
		}
		cred = Cred{UID: int(uc.Uid), GID: int(uc.Gid), PID: int(uc.Pid)}
		cred.Groups, serr = peerGroups(int(fd))
	})
	if err != nil {
		return Cred{}, err
	}
	return cred, serr
}

// peerGroups reads SO_PEERGROUPS, an array of gid_t that x/sys/unix has
// no helper for; the kernel answers ERANGE with the size it needs.
func peerGroups(fd int) ([]int, error) {
	buf := make([]uint32, 32)
	for {
		size := uint32(len(buf) * 4)
		_, _, errno := unix.Syscall6(unix.SYS_GETSOCKOPT, uintptr(fd), unix.SOL_SOCKET, unix.SO_PEERGROUPS,
			uintptr(unsafe.Pointer(&buf[0])), uintptr(unsafe.Pointer(&size)), 0)
		switch {
		case errno == 0:
			groups := make([]int, 0, size/4)
			for _, g := range buf[:size/4] {
				groups = append(groups, int(g))
			}
			return groups, nil
		case errors.Is(errno, unix.ERANGE) && int(size/4) > len(buf):
			buf = make([]uint32, size/4)
		case errors.Is(errno, unix.ENOPROTOOPT):
			return nil, nil
		default:
			return nil, errno
		}
	}
}
