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
		if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
			panic(e)
		}
		return time.Duration(ts.Nano())
	}}, runtime.UnlockOSThread
}
