package cputime

import (
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

func lock() (Clock, func()) {
	runtime.LockOSThread()
	return Clock{CPU: true, Now: func() time.Duration {
		const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID
		var ts syscall.Timespec
		// Raw: the call never blocks, and a system call made through
		// the runtime's syscall path wakes its monitor thread (sysmon)
		// from its idle sleep, which then polls every 20 µs for a
		// millisecond or more. flowd reads this clock for every check.
		if _, _, e := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
			panic(e)
		}
		return time.Duration(ts.Nano())
	}}, runtime.UnlockOSThread
}
