// Package budget bounds the work flowd spends checking one message.
//
// Every matcher is linear in its input, but a 16 MB argument on a busy
// machine can still take longer than the shim waits for a verdict; a
// verdict that comes too late is one the shim's fail mode decides instead
// of flowd. A Budget is handed to the matchers of one message: they report
// the work they do to it in batches, and stop once it runs out, so that the
// caller can give a verdict of its own (for a message leaving the machine,
// deny) before the shim gives up.
//
// The work reported is also a deterministic measure of cost: the tests
// that hold each matcher to c·n for input of n bytes read Spent, not the
// clock.
package budget

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/flowd-dev/flowd/internal/cputime"
)

// clockEvery is how much work passes between looks at the clock: reading
// it costs tens of nanoseconds, a unit of work one or a few.
const clockEvery = 1 << 16

// Budget is the time and work one message's checks may take. A nil
// *Budget is unlimited. It is safe for concurrent use.
//
// A check's time is two things. Its own work (For's own) is measured in
// CPU time of the thread the check runs on (Start), so that neither the
// waits for other work (Wait: a session's earlier results being recorded)
// nor other checks that keep the CPU busy make a check run out. And all of
// it, from the message's arrival, waits included, ends by a bound on the
// clock (For's bound, Until's deadline), however busy the machine.
type Budget struct {
	bound time.Time     // zero: none
	own   time.Duration // 0: none
	limit int64         // most work units; 0: no limit

	mu      sync.Mutex
	clock   cputime.Clock // the check's thread's clock, once Start bound it
	started time.Duration // clock at Start
	since   time.Time     // before Start: own time counts on the wall clock from here
	waited  time.Duration // waits while own time counts on a wall clock

	// settled: the check's waits were made before it began (Settled);
	// 0: not, 1: they ended in time, 2: they did not.
	settled atomic.Int32

	spent   atomic.Int64
	checked atomic.Int64 // spent at the last look at the clock
	out     atomic.Bool
	overdue atomic.Bool // it ran out at bound, or a wait came back undone
}

// Until returns a budget that runs out at deadline.
func Until(deadline time.Time) *Budget { return &Budget{bound: deadline} }

// For returns a budget for a check whose own work may take own, and which
// ends by bound, waits included. Own time is CPU time of the check's
// thread once the check calls Start, wall time until then.
func For(own time.Duration, bound time.Time) *Budget {
	return &Budget{own: own, bound: bound, since: time.Now()}
}

// Work returns a budget that runs out after limit units of work, whatever
// the clock says; limit <= 0 never runs out. Tests use it to count.
func Work(limit int64) *Budget { return &Budget{limit: limit} }

// Start binds the check's own time to the CPU time of the calling
// goroutine's thread, which it locks until the returned func is called:
// the check runs on this goroutine, and calls Spend from it. Where the OS
// cannot tell a thread's CPU time, own time stays on the wall clock,
// waits not counted.
func (b *Budget) Start() (stop func()) {
	if b == nil || b.own == 0 {
		return func() {}
	}
	clock, unlock := cputime.Lock()
	b.mu.Lock()
	defer b.mu.Unlock()
	if clock.CPU {
		b.own -= time.Since(b.since) - b.waited // what it took before, on the wall clock
		b.clock, b.started = clock, clock.Now()
	}
	return unlock
}

// Spend reports n units of work and returns whether the budget still
// holds. A matcher calls it every few thousand units at most, and stops
// when it returns false.
func (b *Budget) Spend(n int) bool {
	if b == nil {
		return true
	}
	s := b.spent.Add(int64(n))
	if b.out.Load() {
		return false
	}
	if b.limit > 0 && s > b.limit {
		b.out.Store(true)
		return false
	}
	if s-b.checked.Load() >= clockEvery && (!b.bound.IsZero() || b.own > 0) {
		b.checked.Store(s)
		if b.late() || b.ownSpent() {
			b.out.Store(true)
			return false
		}
	}
	return true
}

// late reports whether the bound has passed, and marks the budget overdue.
func (b *Budget) late() bool {
	if b.bound.IsZero() || time.Now().Before(b.bound) {
		return false
	}
	b.overdue.Store(true)
	return true
}

// ownSpent reports whether the check's own time is spent. Read on the
// check's goroutine (Spend), where the thread's clock is the check's.
func (b *Budget) ownSpent() bool {
	if b.own == 0 {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.clock.CPU {
		return b.clock.Now()-b.started >= b.own
	}
	return time.Since(b.since)-b.waited >= b.own
}

// Wait runs wait, a wait for work the check needs done by others first,
// outside the check's own time. wait is handed the budget's bound (zero:
// none), by which it must return, and reports whether what it waited for
// was done; Wait returns that. A wait that came back undone leaves the
// budget out and overdue.
func (b *Budget) Wait(wait func(until time.Time) bool) bool {
	if b == nil {
		return wait(time.Time{})
	}
	if settled := b.settled.Load(); settled != 0 {
		if settled != 1 {
			b.overdue.Store(true)
			b.out.Store(true)
		}
		return settled == 1
	}
	if b.late() {
		// Past the bound before it began (a long queue ahead of the
		// message): overdue whether or not anything is left to wait for,
		// not so only when the matchers happen to read the clock.
		b.out.Store(true)
		return false
	}
	start := time.Now()
	resume := b.release()
	done := wait(b.bound)
	resume()
	b.mu.Lock()
	b.waited += time.Since(start)
	b.mu.Unlock()
	if !done {
		b.overdue.Store(true)
		b.out.Store(true)
	}
	return done
}

// Settled says the waits the check would make (Wait) were made before it
// began, done saying whether what they waited for was done in time: Wait
// then returns done at once, as if it had waited. For a check that runs
// after other work it must not wait for has begun.
func (b *Budget) Settled(done bool) {
	if done {
		b.settled.Store(1)
	} else {
		b.settled.Store(2)
	}
}

// release lets the check's goroutine off its thread for a wait (Wait),
// and resume binds it again to whichever thread it then runs on, its own
// time going on from where it stopped. A goroutine locked to its thread
// cannot wait as others do: its thread sleeps and another must be woken
// to run the goroutines it waits for, and woken back for it after, each a
// wake-up of a thread (tens of µs on a busy machine) on the way to a
// verdict. Called on the check's goroutine, as Spend is.
func (b *Budget) release() (resume func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.clock.CPU {
		return func() {}
	}
	used := b.clock.Now() - b.started
	relock := cputime.Release()
	return func() {
		relock()
		b.mu.Lock()
		b.started = b.clock.Now() - used
		b.mu.Unlock()
	}
}

// Due is the budget's bound on the clock; zero: none.
func (b *Budget) Due() time.Time {
	if b == nil {
		return time.Time{}
	}
	return b.bound
}

// Overdue reports whether the budget ran out at its bound (or a wait came
// back undone) rather than on the check's own time or work.
func (b *Budget) Overdue() bool { return b != nil && (b.overdue.Load() || b.late()) }

// Exhausted reports whether the budget ran out, looking at the clock for
// the bound; the check's own time is looked at by Spend.
func (b *Budget) Exhausted() bool {
	if b == nil {
		return false
	}
	if !b.out.Load() && b.late() {
		b.out.Store(true)
	}
	return b.out.Load()
}

// Spent is the work reported so far.
func (b *Budget) Spent() int64 {
	if b == nil {
		return 0
	}
	return b.spent.Load()
}
