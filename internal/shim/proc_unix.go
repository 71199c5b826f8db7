//go:build unix

package shim

import (
	"io"
	"os"
	"os/exec"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

var forwardedSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// startChild starts cmd from a thread that never exits: Linux delivers the
// parent-death signal when the creating thread dies, not the process.
// The returned function is called once the upstream has exited; a Unix
// upstream leaves nothing to clean up (see upstreamOut for its children).
func startChild(cmd *exec.Cmd) (exited func(), err error) {
	errc := make(chan error)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread lives as long as the shim
		errc <- cmd.Start()
		select {}
	}()
	return func() {}, <-errc
}

// readNow reads what f holds without waiting for more: io.EOF when it is
// empty. f's read deadline has passed, which the Go poller checks before
// reading, so this reads the descriptor directly.
func readNow(f *os.File, p []byte) (n int, err error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	cerr := rc.Control(func(fd uintptr) {
		for {
			n, err = unix.Read(int(fd), p)
			if err != unix.EINTR {
				return
			}
		}
	})
	switch {
	case cerr != nil:
		return 0, cerr
	case err == unix.EAGAIN || (err == nil && n == 0):
		return 0, io.EOF
	case err != nil:
		return 0, err
	}
	return n, nil
}
