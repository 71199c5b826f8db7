//go:build unix

package judge

import (
	"syscall"
	"time"
)

// processCPU is the CPU time this process has used, user and system: on
// a machine other work keeps busy, a benchmark's wall time says more
// about the others than about flowd.
func processCPU() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
