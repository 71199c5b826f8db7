package shim

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// pollable returns a file for the client's end of the stream, f (the
// shim's stdin or stdout), that the Go runtime reads or writes through its
// poller, or f itself where it cannot. Clients hand the shim blocking
// pipes or sockets: a blocking read parks an OS thread in read(2), and
// each message then wakes that thread and hands it to another, which on
// the benchmark VM costs about 40 µs per round trip.
//
// A pipe is opened again through /proc, which gives a description of its
// own: the client's and anyone else's view of the pipe stays blocking. A
// socket has no such path; its duplicate shares the description, so the
// socket becomes non-blocking for every holder, and the only other holder
// of the shim's end is the shim (the upstream gets pipes of its own).
// mode is os.O_RDONLY or os.O_WRONLY.
func pollable(f *os.File, mode int) *os.File {
	fd := int(f.Fd())
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil {
		return f
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFIFO:
		g, err := os.OpenFile(fmt.Sprintf("/proc/self/fd/%d", fd), mode|unix.O_NONBLOCK, 0)
		if err != nil {
			return f
		}
		return g
	case unix.S_IFSOCK:
		dup, err := unix.FcntlInt(uintptr(fd), unix.F_DUPFD_CLOEXEC, 0)
		if err != nil {
			return f
		}
		if err := unix.SetNonblock(dup, true); err != nil {
			unix.Close(dup)
			return f
		}
		return os.NewFile(uintptr(dup), f.Name())
	}
	return f
}
