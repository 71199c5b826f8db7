// Package cputime measures the CPU time code takes, for tests and
// benchmarks that run on a machine other work keeps busy: there, wall time
// measures the scheduler more than the code.
package cputime

import (
	"runtime"
	"time"
)

// Clock reads a thread's time.
type Clock struct {
	Now func() time.Duration
	// CPU: Now is the thread's CPU time; else, where that cannot be read,
	// wall time since the clock was made.
	CPU bool
}

// Name says what the clock measures, for reports.
func (c Clock) Name() string {
	if c.CPU {
		return "thread CPU time"
	}
	return "wall time"
}

// Lock locks the calling goroutine to its thread and returns the clock of
// that thread and what unlocks it.
func Lock() (Clock, func()) { return lock() }

// Release lets a goroutine that Lock locked off its thread, for a wait,
// and the returned resume locks it again, to whichever thread it then
// runs on. A Clock reads the thread it is called on, so readings before
// Release and after resume are of different threads: time across the
// wait is two spans, one on each.
func Release() (resume func()) {
	runtime.UnlockOSThread()
	return runtime.LockOSThread
}
