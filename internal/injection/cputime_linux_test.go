package injection

import (
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// threadCPU runs f on a locked thread and returns the CPU time it took:
// on a busy machine wall time measures the scheduler, CPU time the code.
func threadCPU(f func()) (time.Duration, bool) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	now := func() time.Duration {
		const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID
		var ts syscall.Timespec
		if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
			panic(e)
		}
		return time.Duration(ts.Nano())
	}
	start := now()
	f()
	return now() - start, true
}
