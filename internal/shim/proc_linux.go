package shim

import "syscall"

// childAttr makes the kernel kill the upstream if the shim dies without a
// chance to forward a signal (SIGKILL, a crash): it must never be orphaned.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
