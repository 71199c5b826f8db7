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
	"sync/atomic"
	"time"
)

// clockEvery is how much work passes between looks at the clock: reading
// it costs tens of nanoseconds, a unit of work one or a few.
const clockEvery = 1 << 16

// Budget is the time and work one message's checks may take. A nil
// *Budget is unlimited. It is safe for concurrent use.
type Budget struct {
	deadline time.Time // zero: no deadline
	limit    int64     // most work units; 0: no limit
	spent    atomic.Int64
	checked  atomic.Int64 // spent at the last look at the clock
	out      atomic.Bool
}

// Until returns a budget that runs out at deadline.
func Until(deadline time.Time) *Budget { return &Budget{deadline: deadline} }

// Work returns a budget that runs out after limit units of work, whatever
// the clock says; limit <= 0 never runs out. Tests use it to count.
func Work(limit int64) *Budget { return &Budget{limit: limit} }

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
	if !b.deadline.IsZero() && s-b.checked.Load() >= clockEvery {
		b.checked.Store(s)
		if !time.Now().Before(b.deadline) {
			b.out.Store(true)
			return false
		}
	}
	return true
}

// Exhausted reports whether the budget ran out, looking at the clock.
func (b *Budget) Exhausted() bool {
	if b == nil {
		return false
	}
	if !b.out.Load() && !b.deadline.IsZero() && !time.Now().Before(b.deadline) {
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
