package exportqueue

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/spool"
)

func ids(recs []activity.Record) []uint64 {
	out := make([]uint64, 0, len(recs))
	for _, r := range recs {
		out = append(out, r.ID)
	}
	return out
}

func push(q *Queue, from, to uint64) {
	for i := from; i <= to; i++ {
		q.Push(activity.Record{ID: i})
	}
}

func TestFullQueueDropsOldest(t *testing.T) {
	q := New(3)
	push(q, 1, 5)
	assert.Equal(t, 3, q.Len())
	assert.Equal(t, uint64(2), q.Dropped())
	recs, done, err := q.Next(nil, 10)
	require.NoError(t, err)
	assert.Equal(t, []uint64{3, 4, 5}, ids(recs))
	require.NoError(t, done(len(recs)))
	assert.Zero(t, q.Len())

	q.SetLimit(1)
	push(q, 6, 7)
	assert.Equal(t, uint64(3), q.Dropped())
	q.SetLimit(0)
	assert.Zero(t, q.Len())
	push(q, 8, 8)
	assert.Zero(t, q.Len())
	assert.Equal(t, uint64(5), q.Dropped())
}

// A batch taken off after it was sent takes only its own records, when a
// full queue dropped part of it on the way and newer records came.
func TestDoneTakesOnlyTheBatch(t *testing.T) {
	q := New(4)
	push(q, 1, 4)
	recs, done, err := q.Next(nil, 3)
	require.NoError(t, err)
	assert.Equal(t, []uint64{1, 2, 3}, ids(recs))
	push(q, 5, 6) // drops 1 and 2, on their way
	require.NoError(t, done(len(recs)))
	recs, _, err = q.Next(nil, 10)
	require.NoError(t, err)
	assert.Equal(t, []uint64{4, 5, 6}, ids(recs), "records pushed while a batch was out stay queued")
}

// The spool's records come before the queue's, and what was spilled
// survives reopening the spool.
func TestSpillThenNextInOrder(t *testing.T) {
	dir := t.TempDir()
	sp, err := spool.Open(dir, 1<<20)
	require.NoError(t, err)
	q := New(100)
	push(q, 1, 5)
	require.NoError(t, q.Spill(sp))
	assert.Zero(t, q.Len())
	push(q, 6, 7)
	require.NoError(t, sp.Close())

	sp, err = spool.Open(dir, 1<<20)
	require.NoError(t, err)
	defer sp.Close()
	var got []uint64
	for {
		recs, done, err := q.Next(sp, 2)
		require.NoError(t, err)
		if len(recs) == 0 {
			break
		}
		got = append(got, ids(recs)...)
		require.NoError(t, done(len(recs)))
	}
	assert.Equal(t, []uint64{1, 2, 3, 4, 5, 6, 7}, got)
	assert.Zero(t, sp.Len())

	// A batch not taken off is read again.
	push(q, 8, 8)
	require.NoError(t, q.Spill(sp))
	recs, _, err := q.Next(sp, 5)
	require.NoError(t, err)
	assert.Equal(t, []uint64{8}, ids(recs))
	recs, _, err = q.Next(sp, 5)
	require.NoError(t, err)
	assert.Equal(t, []uint64{8}, ids(recs))
}

// Records spilled while a batch from the queue was out are not sent twice.
func TestSpillWhileABatchIsOut(t *testing.T) {
	sp, err := spool.Open(t.TempDir(), 1<<20)
	require.NoError(t, err)
	defer sp.Close()
	q := New(100)
	push(q, 1, 3)
	recs, done, err := q.Next(sp, 2)
	require.NoError(t, err)
	assert.Equal(t, []uint64{1, 2}, ids(recs))
	require.NoError(t, done(len(recs)))
	require.NoError(t, q.Spill(sp))
	recs, _, err = q.Next(sp, 5)
	require.NoError(t, err)
	assert.Equal(t, []uint64{3}, ids(recs))
}

// A batch the receiver took part of: done(k) takes off only the first
// k, from the queue and from the spool (past a record that does not
// decode), and the rest comes next, nothing twice; the counters count.
func TestDonePart(t *testing.T) {
	sp, err := spool.Open(t.TempDir(), 1<<20)
	require.NoError(t, err)
	defer sp.Close()
	q := New(100)
	push(q, 1, 3)
	require.NoError(t, q.Spill(sp))
	require.NoError(t, sp.Append([][]byte{[]byte("not json")}))
	push(q, 4, 6)
	require.NoError(t, q.Spill(sp))
	push(q, 7, 9)
	assert.Equal(t, uint64(9), q.Offered())
	assert.Equal(t, uint64(6), q.Spilled())

	recs, done, err := q.Next(sp, 10)
	require.NoError(t, err)
	assert.Equal(t, []uint64{1, 2, 3, 4, 5, 6}, ids(recs))
	require.NoError(t, done(3)) // 1 to 3 and the one that does not decode
	assert.Equal(t, 3, sp.Len())
	recs, done, err = q.Next(sp, 10)
	require.NoError(t, err)
	assert.Equal(t, []uint64{4, 5, 6}, ids(recs))
	require.NoError(t, done(0))
	recs, done, err = q.Next(sp, 10)
	require.NoError(t, err)
	assert.Equal(t, []uint64{4, 5, 6}, ids(recs))
	require.NoError(t, done(3))

	recs, done, err = q.Next(sp, 10)
	require.NoError(t, err)
	assert.Equal(t, []uint64{7, 8, 9}, ids(recs))
	require.NoError(t, done(1))
	recs, _, err = q.Next(sp, 10)
	require.NoError(t, err)
	assert.Equal(t, []uint64{8, 9}, ids(recs))
}

// Push fires Ready for the record that finds the queue empty and the
// one that fills a batch, not for each: a wake-up per record costs the
// machine's CPU, which verdicts compete for.
func TestReadyOncePerBatchNotPerRecord(t *testing.T) {
	q := New(100)
	q.WakeAt(4)
	fired := func() bool {
		select {
		case <-q.Ready():
			return true
		default:
			return false
		}
	}
	var got []bool
	for i := uint64(1); i <= 9; i++ {
		q.Push(activity.Record{ID: i})
		got = append(got, fired())
	}
	assert.Equal(t, []bool{true, false, false, true, false, false, false, false, false}, got, "fired at records 1 and 4 only")

	recs, done, err := q.Next(nil, 100)
	require.NoError(t, err)
	require.NoError(t, done(len(recs)))
	q.Push(activity.Record{ID: 10})
	assert.True(t, fired(), "a record that finds the queue empty again wakes the exporter")
}
