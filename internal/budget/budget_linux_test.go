package budget

import (
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// A check waiting for others' work leaves its thread to run that work.
// Locked to it, the goroutine's thread would sleep through the wait while
// another thread was woken to run the others, and be woken back after: on
// flowd's one scheduler slot, two thread wake-ups per wait on the way to
// a verdict.
func TestWaitLeavesTheThreadToOthers(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	b := For(time.Hour, time.Now().Add(time.Hour))
	stop := b.Start()
	defer stop()
	before := syscall.Gettid()
	var ran int
	b.Wait(func(time.Time) bool {
		// With one slot, the goroutine readied here runs on the thread
		// that parks the waiting one, unless that thread is locked to it.
		other := make(chan int)
		go func() { other <- syscall.Gettid() }()
		ran = <-other
		return true
	})
	assert.Equal(t, before, ran, "the work waited for ran on the waiting check's thread")

}
