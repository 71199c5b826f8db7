package budget

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestWorkLimit(t *testing.T) {
	b := Work(100)
	assert.True(t, b.Spend(60))
	assert.True(t, b.Spend(40))
	assert.False(t, b.Spend(1), "past the limit")
	assert.True(t, b.Exhausted())
	assert.False(t, b.Spend(0), "stays out")
	assert.EqualValues(t, 101, b.Spent())
}

func TestDeadline(t *testing.T) {
	past := Until(time.Now().Add(-time.Second))
	assert.True(t, past.Spend(1), "the clock is read only every clockEvery units")
	assert.False(t, past.Spend(clockEvery))
	assert.True(t, past.Exhausted())

	future := Until(time.Now().Add(time.Hour))
	assert.True(t, future.Spend(10*clockEvery))
	assert.False(t, future.Exhausted())

	assert.True(t, Until(time.Now().Add(-time.Second)).Exhausted(), "Exhausted reads the clock")
}

func TestNilIsUnlimited(t *testing.T) {
	var b *Budget
	assert.True(t, b.Spend(1<<40))
	assert.False(t, b.Exhausted())
	assert.Zero(t, b.Spent())
}

// A check's own time is its CPU time: waiting, it does not run out, and
// its bound on the clock ends it however little CPU it used.
func TestOwnTimeIsCPUTime(t *testing.T) {
	bound := time.Now().Add(time.Hour)
	b := For(10*time.Millisecond, bound)
	stop := b.Start()
	ok := b.Wait(func(until time.Time) bool {
		assert.Equal(t, bound, until, "the wait is handed the bound")
		time.Sleep(30 * time.Millisecond) // off the CPU, past the check's own time
		return true
	})
	assert.True(t, ok)
	assert.True(t, b.Spend(clockEvery), "a wait is not the check's own time")
	for start := time.Now(); time.Since(start) < 10*time.Second && b.Spend(clockEvery); {
	}
	assert.True(t, b.Exhausted(), "work on the CPU spends it")
	assert.False(t, b.Overdue(), "its own time ran out, not the bound")
	stop()

	assert.False(t, For(time.Hour, bound).Wait(func(time.Time) bool { return false }), "Wait says what the wait found")
}

// A wait that comes back undone, or a bound that passed, leaves the
// budget out and overdue.
func TestOverdue(t *testing.T) {
	b := For(time.Hour, time.Now().Add(time.Hour))
	b.Wait(func(time.Time) bool { return false })
	assert.True(t, b.Exhausted())
	assert.True(t, b.Overdue())

	late := For(time.Hour, time.Now().Add(-time.Second))
	assert.True(t, late.Exhausted())
	assert.True(t, late.Overdue())
}

// A check whose waits were made before it began does not wait again, and
// one whose waits came back undone is overdue as if it had waited.
func TestSettledWaitsAreNotWaitedAgain(t *testing.T) {
	b := For(time.Hour, time.Now().Add(time.Hour))
	b.Settled(true)
	assert.True(t, b.Wait(func(time.Time) bool {
		t.Error("a settled wait waited")
		return false
	}))
	assert.False(t, b.Exhausted())

	late := For(time.Hour, time.Now().Add(time.Hour))
	late.Settled(false)
	assert.False(t, late.Wait(func(time.Time) bool { return true }))
	assert.True(t, late.Exhausted())
	assert.True(t, late.Overdue())
}

// A wait that begins past the bound is not done, even with nothing left
// to wait for: the message waited its bound out before its check began
// (a long queue), and whether the check is cut short must not hang on
// whether its matchers happened to read the clock.
func TestWaitPastTheBoundIsNotDone(t *testing.T) {
	b := For(time.Hour, time.Now().Add(-time.Second))
	waited := false
	if b.Wait(func(time.Time) bool { waited = true; return true }) {
		t.Fatal("a wait begun past the bound reported done")
	}
	if waited || !b.Overdue() || !b.Exhausted() {
		t.Fatalf("waited %v, overdue %v, exhausted %v: want no wait, overdue and exhausted", waited, b.Overdue(), b.Exhausted())
	}
	if !For(time.Hour, time.Now().Add(time.Hour)).Wait(func(time.Time) bool { return true }) {
		t.Fatal("a wait within the bound with nothing to wait for is done")
	}
}
