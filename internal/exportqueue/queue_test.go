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
	require.NoError(t, done())
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
	require.NoError(t, done())
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
		require.NoError(t, done())
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
	require.NoError(t, done())
	require.NoError(t, q.Spill(sp))
	recs, _, err = q.Next(sp, 5)
	require.NoError(t, err)
	assert.Equal(t, []uint64{3}, ids(recs))
}
