package ondemand

import (
	"errors"
	"syscall"
)

// detachAttr starts flowd in its own process group, away from the
// client's console signals. The caller is in no job of its own making, so
// flowd outlives it.
func detachAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// terminate has no graceful way to end a process of another console on
// Windows, and flowd takes no stop request over its socket.
func terminate(int) error {
	return errors.New("Windows cannot ask a flowd started on demand to shut down: end flowd.exe in Task Manager, or install flowd as a service (flowd install) and use flowd stop")
}

// alive is never asked: terminate never succeeds.
func alive(int) bool { return false }
