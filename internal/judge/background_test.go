package judge

import (
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// Jobs run one after another in the order added, and close runs every job
// queued before it returns.
func TestBackgroundRunsJobsInOrder(t *testing.T) {
	var b background
	var mu sync.Mutex
	var ran []int
	for i := range 2 * backgroundQueue { // more than the queue holds: add waits
		b.add(func() {
			mu.Lock()
			ran = append(ran, i)
			mu.Unlock()
		})
	}
	b.close()
	want := make([]int, 2*backgroundQueue)
	for i := range want {
		want[i] = i
	}
	assert.Equal(t, want, ran)
}

// A daemon that never queued anything closes without starting a worker.
func TestBackgroundCloseWithoutJobs(t *testing.T) {
	var b background
	b.close()
	assert.Nil(t, b.jobs)
}

// With one scheduler slot, as flowd runs, a goroutine that becomes ready
// while the worker has a backlog (a connection with a message to judge)
// runs after the job under way, not after the whole backlog.
func TestBackgroundLetsOthersGoBetweenJobs(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var mu sync.Mutex
	var order []string
	note := func(s string) {
		mu.Lock()
		order = append(order, s)
		mu.Unlock()
	}
	var b background
	for _, name := range []string{"job 1", "job 2", "job 3", "job 4"} {
		b.add(func() {
			note(name)
			if name == "job 1" {
				// Ready while the job keeps the slot, for 2 ms by the clock.
				time.AfterFunc(200*time.Microsecond, func() { note("verdict") })
			}
			for start := time.Now(); time.Since(start) < 2*time.Millisecond; {
			}
		})
	}
	b.close()
	mu.Lock()
	defer mu.Unlock()
	// The scheduler now and then takes the worker back first (it checks its
	// global queue every 61st turn), so the verdict may follow job 2.
	i := slices.Index(order, "verdict")
	assert.True(t, i == 1 || i == 2, "the verdict waited for the backlog: %q", order)
}
