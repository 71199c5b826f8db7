package daemon

import (
	"sync"
	"testing"

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
