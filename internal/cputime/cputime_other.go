//go:build !linux

package cputime

import (
	"runtime"
	"time"
)

func lock() (Clock, func()) {
	runtime.LockOSThread()
	start := time.Now()
	return Clock{Now: func() time.Duration { return time.Since(start) }}, runtime.UnlockOSThread
}
