package daemon

import (
	"runtime"

	"golang.org/x/sys/unix"
)

// lowerPriority gives the calling goroutine an OS thread of its own at
// nice 19. The thread is never unlocked, so it ends with the goroutine
// rather than going back to the runtime at that priority.
func lowerPriority() {
	runtime.LockOSThread()
	unix.Setpriority(unix.PRIO_PROCESS, unix.Gettid(), 19) // best effort: without it the work only runs at normal priority
}
