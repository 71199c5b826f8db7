// Package exportqueue is what waits for an exporter's receiver: a
// bounded queue of activity records in memory, which the exporter spills
// to a spool on disk (internal/spool) while the receiver is away or
// slow, and from which it takes the oldest records, the spool's first.
//
// Push never waits, nor wakes the exporter for each record: a full
// queue drops its oldest record, and counts it; Ready fires only for the
// record that finds the queue empty and the one that fills a batch, so a
// busy exporter is woken twice a batch at most, not once a record (on a
// loaded machine a goroutine's wake-up costs tens of µs of CPU, which
// the verdicts pay for).
// Records are numbered as pushed, so that taking a sent batch off the
// queue takes only those records, even when a full queue dropped some
// of them while they were on their way.
package exportqueue

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/spool"
)

// Queue is safe for concurrent use; the spool given to Spill and Next is
// not, and is the exporter's goroutine's alone.
type Queue struct {
	mu      sync.Mutex
	recs    []activity.Record // oldest first, from head
	head    int
	seq     uint64 // records ever pushed
	limit   int
	wakeAt  int // the length at which Push fires Ready: a batch's
	dropped uint64
	offered uint64 // records pushed, dropped ones too
	spilled uint64 // records moved to a spool
	ready   chan struct{}
}

// New is an empty queue holding at most limit records.
func New(limit int) *Queue {
	return &Queue{limit: max(limit, 0), ready: make(chan struct{}, 1)}
}

// WakeAt makes Push fire Ready when the queue reaches n records (a full
// batch), besides when it was empty.
func (q *Queue) WakeAt(n int) {
	q.mu.Lock()
	q.wakeAt = n
	q.mu.Unlock()
}

// SetLimit bounds the queue anew, dropping the oldest records past it.
func (q *Queue) SetLimit(limit int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.limit = max(limit, 0)
	for q.len() > q.limit {
		q.dropOldest()
	}
}

// Push queues r, dropping the oldest record when the queue is full.
func (q *Queue) Push(r activity.Record) {
	q.mu.Lock()
	q.offered++
	if q.limit == 0 {
		q.dropped++
		q.mu.Unlock()
		return
	}
	if q.len() >= q.limit {
		q.dropOldest()
	}
	if q.head > 0 && len(q.recs) == cap(q.recs) {
		// Reuse the space taken records left rather than grow.
		n := copy(q.recs, q.recs[q.head:])
		clear(q.recs[n:])
		q.recs, q.head = q.recs[:n], 0
	}
	q.recs = append(q.recs, r)
	q.seq++
	n := q.len()
	wake := n == 1 || n == q.wakeAt
	q.mu.Unlock()
	if wake {
		select {
		case q.ready <- struct{}{}:
		default:
		}
	}
}

// Ready receives after a Push that found the queue empty or filled a
// batch (WakeAt); the exporter waits on it when nothing waits, and
// looks at the queue's length on its own clock meanwhile.
func (q *Queue) Ready() <-chan struct{} { return q.ready }

// Len is how many records are queued in memory.
func (q *Queue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.len()
}

// Dropped is how many records a full queue dropped.
func (q *Queue) Dropped() uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.dropped
}

// Offered is how many records were pushed, those dropped too.
func (q *Queue) Offered() uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.offered
}

// Spilled is how many records Spill moved to a spool.
func (q *Queue) Spilled() uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.spilled
}

func (q *Queue) len() int { return len(q.recs) - q.head }

// headSeq is the number of the oldest queued record.
func (q *Queue) headSeq() uint64 { return q.seq - uint64(q.len()) }

func (q *Queue) dropOldest() {
	q.recs[q.head] = activity.Record{}
	q.head++
	q.dropped++
}

// peek copies up to n of the oldest records, and the number of the first.
func (q *Queue) peek(n int) ([]activity.Record, uint64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	k := min(q.len(), n)
	return append([]activity.Record(nil), q.recs[q.head:q.head+k]...), q.headSeq()
}

// take removes the n records numbered from first on, those of them still
// queued.
func (q *Queue) take(first uint64, n int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	end, h := first+uint64(n), q.headSeq()
	k := 0
	if end > h {
		k = min(int(end-h), q.len())
	}
	clear(q.recs[q.head : q.head+k])
	q.head += k
	if q.len() == 0 {
		q.recs, q.head = q.recs[:0], 0
	}
}

// Spill moves the queued records to the end of sp, keeping their order;
// on an error they stay queued.
func (q *Queue) Spill(sp *spool.Spool) error {
	recs, first := q.peek(int(^uint(0) >> 1))
	if len(recs) == 0 {
		return nil
	}
	enc := make([][]byte, 0, len(recs))
	for i := range recs {
		b, err := json.Marshal(&recs[i])
		if err != nil { // a record that came from the store always encodes
			continue
		}
		enc = append(enc, b)
	}
	if err := sp.Append(enc); err != nil {
		return fmt.Errorf("spill the export queue to disk: %w", err)
	}
	q.take(first, len(recs))
	q.mu.Lock()
	q.spilled += uint64(len(enc))
	q.mu.Unlock()
	return nil
}

// Next returns up to n of the oldest records that wait, those of sp
// (nil: none) before the queue's, as they are older; done(k) takes the
// first k of them off once the receiver has them, so that a batch it
// took only part of is sent again from where it stopped. None: nothing
// waits.
func (q *Queue) Next(sp *spool.Spool, n int) (recs []activity.Record, done func(k int) error, err error) {
	for sp != nil && sp.Len() > 0 {
		raw, mark, err := sp.Read(n)
		if err != nil {
			return nil, nil, err
		}
		recs := make([]activity.Record, 0, len(raw))
		at := make([]int, 0, len(raw)) // each record's place in raw
		for i, b := range raw {
			var r activity.Record
			if json.Unmarshal(b, &r) == nil {
				recs, at = append(recs, r), append(at, i)
			}
		}
		done := func(k int) error {
			if k < len(at) {
				// Up to the first one not sent, past any that do not decode.
				return sp.Commit(mark.Upto(at[k]))
			}
			return sp.Commit(mark)
		}
		if len(recs) > 0 {
			return recs, done, nil
		}
		// Nothing there decodes (written by another version): past it.
		if err := done(0); err != nil {
			return nil, nil, err
		}
	}
	recs, first := q.peek(n)
	if len(recs) == 0 {
		return nil, nil, nil
	}
	return recs, func(k int) error { q.take(first, min(k, len(recs))); return nil }, nil
}
