package rawio

import (
	"bufio"
	"bytes"
	"io"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// file is a descriptor the runtime's poller watches, read and written raw.
type file struct {
	rc syscall.RawConn
}

// open returns x's descriptor as a file when x is a non-blocking one (an
// *os.File of a pipe or socket opened non-blocking, a net.Conn). A
// blocking descriptor must keep the scheduler's bookkeeping: a raw read of
// it would hold a scheduler slot for as long as it blocks.
func open(x any) (*file, bool) {
	sc, ok := x.(syscall.Conn)
	if !ok {
		return nil, false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil, false
	}
	nonblocking := false
	err = rc.Control(func(fd uintptr) {
		fl, err := unix.FcntlInt(fd, unix.F_GETFL, 0)
		nonblocking = err == nil && fl&unix.O_NONBLOCK != 0
	})
	if err != nil || !nonblocking {
		return nil, false
	}
	return &file{rc: rc}, true
}

// Reader returns a reader of r that takes the raw path when r is a
// non-blocking descriptor, or r itself.
func Reader(r io.Reader) io.Reader {
	if f, ok := open(r); ok {
		return f
	}
	return r
}

// Writer returns a writer to w that takes the raw path when w is a
// non-blocking descriptor, or w itself.
func Writer(w io.Writer) io.Writer {
	if f, ok := open(w); ok {
		return f
	}
	return w
}

// After returns a reader of what br holds buffered, then of the rest of c
// through Reader: for a connection whose first bytes (an HTTP upgrade) were
// read through br.
func After(br *bufio.Reader, c io.Reader) io.Reader {
	f, ok := open(c)
	if !ok {
		return br
	}
	if n := br.Buffered(); n > 0 {
		held, _ := br.Peek(n)
		return io.MultiReader(bytes.NewReader(bytes.Clone(held)), f)
	}
	return f
}

func (f *file) Read(p []byte) (n int, err error) {
	if len(p) == 0 {
		return 0, nil
	}
	werr := f.rc.Read(func(fd uintptr) bool {
		var again bool
		n, again, err = call(syscall.SYS_READ, fd, p)
		return !again
	})
	switch {
	case err == nil && werr != nil:
		err = werr
	case err == nil && n == 0:
		err = io.EOF
	}
	return n, err
}

func (f *file) Write(p []byte) (n int, err error) {
	for n < len(p) && err == nil {
		werr := f.rc.Write(func(fd uintptr) bool {
			m, again, e := call(syscall.SYS_WRITE, fd, p[n:])
			n, err = n+m, e
			return !again
		})
		if err == nil {
			err = werr
		}
	}
	return n, err
}

// TryWrite writes as much of p as the descriptor takes without waiting
// for it: all of p, or less (with a nil error) when the descriptor is full.
func (f *file) TryWrite(p []byte) (n int, err error) {
	cerr := f.rc.Control(func(fd uintptr) {
		for n < len(p) {
			m, again, e := call(syscall.SYS_WRITE, fd, p[n:])
			n += m
			if again || e != nil {
				err = e
				return
			}
		}
	})
	if err == nil {
		err = cerr
	}
	return n, err
}

// call makes one read or write system call (trap) of p; again reports that
// it would block, and the caller waits in the poller.
func call(trap, fd uintptr, p []byte) (n int, again bool, err error) {
	for {
		r, _, e := syscall.RawSyscall(trap, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
		switch e {
		case 0:
			return int(r), false, nil
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			return 0, true, nil
		default:
			return 0, false, e
		}
	}
}
