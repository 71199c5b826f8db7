package shim

import (
	"net"
	"syscall"

	"golang.org/x/sys/unix"
)

// unread reports how many bytes c has received that nobody has read yet:
// before a shim gives flowd up for silence, proof that flowd did speak
// and only the shim, short of CPU, has not read it.
func unread(c net.Conn) int {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return 0
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return 0
	}
	n := 0
	rc.Control(func(fd uintptr) {
		n, _ = unix.IoctlGetInt(int(fd), unix.SIOCINQ)
	})
	return n
}
