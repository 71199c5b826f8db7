package flow

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// A lane runs its jobs in the order added, also when add has to wait for
// room, and a job larger than the bound still runs.
func TestLaneKeepsOrderUnderBackpressure(t *testing.T) {
	var l lane
	var mu sync.Mutex
	var ran []int
	var wg sync.WaitGroup
	sizes := []int{1, maxLaneBytes / 2, maxLaneBytes, 3 * maxLaneBytes, 10, maxLaneBytes / 3}
	for round := range 20 {
		for i, size := range sizes {
			n := round*len(sizes) + i
			wg.Add(1)
			l.add(size, func() {
				mu.Lock()
				ran = append(ran, n)
				mu.Unlock()
				wg.Done()
			})
		}
	}
	wg.Wait()
	want := make([]int, 20*len(sizes))
	for i := range want {
		want[i] = i
	}
	assert.Equal(t, want, ran)
}

// A panic while a result is recorded, on a lane's goroutine, would end
// flowd; it forgets the session instead, which then judges its calls to
// external destinations as carrying internal data.
func TestPanicWhileRecordingForgetsTheSession(t *testing.T) {
	tr := NewTracker(Options{}, nil)
	s := tr.Session("s")
	assert.NotPanics(t, func() {
		defer s.failSafe()
		panic("a bug")
	})
	assert.True(t, s.Summary(time.Now()).Forgotten)
}
