//go:build unix

package ondemand

import (
	"errors"
	"syscall"
)

func detachAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

func terminate(pid int) error { return syscall.Kill(pid, syscall.SIGTERM) }

// alive reports whether pid still names a running process. A zombie is
// gone for this purpose (it has let go of flowd's socket and store), and
// it may stay one for good where nothing reaps orphans (PID 1 of some
// containers).
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return (err == nil || errors.Is(err, syscall.EPERM)) && !zombie(pid)
}
