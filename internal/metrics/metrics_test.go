package metrics

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
)

// What a message pays: go test ./internal/metrics -bench . -benchtime 1000000x
func BenchmarkObserve(b *testing.B) {
	m := New(Sources{Shims: func() int { return 0 }, Sessions: func() int { return 0 }, Activity: func() activity.Stats { return activity.Stats{} }})
	r := activity.Record{Type: activity.TypeToolCall, Decision: "allow", Verdict: "pass"}
	b.Run("record", func(b *testing.B) {
		for b.Loop() {
			m.Observe(r)
		}
	})
	b.Run("verdict", func(b *testing.B) {
		for b.Loop() {
			start := time.Now()
			m.ObserveVerdict(time.Since(start))
		}
	})
}

// The floor on this machine, for comparison: one atomic increment.
func BenchmarkAtomicFloor(b *testing.B) {
	var n atomic.Uint64
	for b.Loop() {
		n.Add(1)
	}
}
