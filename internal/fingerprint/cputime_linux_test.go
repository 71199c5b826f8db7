package fingerprint

import (
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

const clockName = "thread CPU time"

// clock returns the CPU time of the calling thread and a function that
// undoes the thread lock it needs. On a loaded machine, wall time measures
// the scheduler; CPU time measures the code.
func clock() (func() time.Duration, func()) {
	runtime.LockOSThread()
	return func() time.Duration {
		const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID
		var ts syscall.Timespec
		if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
			panic(e)
		}
		return time.Duration(ts.Nano())
	}, runtime.UnlockOSThread
}
