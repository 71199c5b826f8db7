package activity

import (
	"encoding/binary"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

// reference is what Query should answer: the records Export (which
// reads every record, not the index) selects, newest first, up to the
// limit.
func reference(t *testing.T, s *Store, f Filter) []uint64 {
	t.Helper()
	var ids []uint64
	require.NoError(t, s.Export(f, func(r Record) error { ids = append(ids, r.ID); return nil }))
	slices.Reverse(ids)
	limit := f.Limit
	if limit == 0 {
		limit = DefaultLimit
	}
	return ids[:min(limit, len(ids))]
}

func queried(t *testing.T, s *Store, f Filter) []uint64 {
	t.Helper()
	recs, err := s.Query(f)
	require.NoError(t, err)
	var ids []uint64
	for _, r := range recs {
		ids = append(ids, r.ID)
	}
	return ids
}

// indexFilters are filters that the index narrows, alone and together,
// with pages, bounds and fields it does not cover.
func indexFilters(rng *rand.Rand, n int) []Filter {
	values := []string{"fs", "slack", "", "a,b", "\xff\xfe", "\ufffd\ufffd", "web", "s1", "s2", "read", "post", "\u202e", "uid1000:s1", "uid1001:s1"}
	pick := func() string { return values[rng.IntN(len(values))] }
	var fs []Filter
	for range n {
		f := Filter{Server: pick(), Tool: pick(), Session: pick(), Limit: rng.IntN(3) * rng.IntN(40)}
		if rng.IntN(3) == 0 {
			f.Type = Types[rng.IntN(len(Types))]
		}
		if rng.IntN(3) == 0 {
			f.RiskLevel = riskLevels[rng.IntN(len(riskLevels))]
		}
		if rng.IntN(4) == 0 {
			f.FlowType = FlowTypes[rng.IntN(len(FlowTypes))]
		}
		if rng.IntN(4) == 0 {
			f.Before = uint64(rng.IntN(3000))
		}
		if rng.IntN(4) == 0 {
			uid := 1000 + rng.IntN(3)
			f.Owner = &uid
		}
		if rng.IntN(4) == 0 {
			f.After = uint64(rng.IntN(2000))
		}
		fs = append(fs, f)
	}
	return fs
}

func indexRecord(rng *rand.Rand, i int) Record {
	r := variedRecord(rng, i)
	values := []string{"fs", "slack", "", "a,b", "\xff\xfe", "web", "s1", "s2", "read", "post", "\u202e", "uid1000:s1", "uid1001:s1", "uid01000:s2"}
	r.Server, r.Tool, r.Session = values[rng.IntN(len(values))], values[rng.IntN(len(values))], values[rng.IntN(len(values))]
	r.RiskLevel = []string{"", "none", "low", "High", "critical", "bogus"}[rng.IntN(6)]
	return r
}

// A filtered page read through the index is the page reading every
// record gives, for varied records and filters: with records pruned,
// one that cannot be decoded, values that are invalid UTF-8 as written
// (stored as U+FFFD), risk levels in another case, and pages before and
// after IDs.
func TestIndexedQueryIsTheScan(t *testing.T) {
	smallSpans(t)
	path := filepath.Join(t.TempDir(), "activity.db")
	opts := quiet
	opts.Key, opts.MaxRecords, opts.MaxNotable = testKey, 100, 2300
	s, err := Open(path, opts)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 3000 {
		s.Append(indexRecord(rng, i))
	}
	require.NoError(t, s.Close())
	damage(t, path, 2900)
	s = openStore(t, path, opts)

	for _, f := range indexFilters(rng, 400) {
		assert.Equal(t, reference(t, s, f), queried(t, s, f), "%+v", f)
	}
	assert.Equal(t, uint64(1), s.Stats().Unreadable, "record 2900 is skipped")
	stale, kept, want, compacted, staleKeys := staleSpans(t, s)
	assert.Zero(t, stale, "retention took the spans of the pruned records with them")
	assert.Equal(t, want, kept, "the spans of the records kept are kept")
	assert.NotZero(t, compacted, "spans kept only for notable records retention spared")
	assert.Zero(t, staleKeys, "spans kept for the notable records retention spared hold only their keys")
}

// damage overwrites record id with bytes that are not a record.
func damage(t *testing.T, path string, id uint64) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketName).Put(idKey(id), []byte(`{"server":"slack",`)) }))
	require.NoError(t, db.Close())
}

// staleSpans counts the index's spans whose records are all gone, the
// spans kept, and the spans that records are kept in; staleKeys counts
// the keys, in spans retention rebuilt, of records that are gone.
func staleSpans(t *testing.T, s *Store) (stale, kept, want, compacted, staleKeys int) {
	t.Helper()
	require.NoError(t, s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketName)
		spans := map[uint64]bool{}
		require.NoError(t, b.ForEach(func(k, _ []byte) error {
			spans[binary.BigEndian.Uint64(k)>>epochBits] = true
			return nil
		}))
		want = len(spans)
		top := tx.Bucket(indexBucket)
		return top.ForEachBucket(func(k []byte) error {
			if !spans[binary.BigEndian.Uint64(k)] {
				stale++
				return nil
			}
			kept++
			span := top.Bucket(k)
			if span.Get(compactedKey) == nil {
				return nil
			}
			compacted++
			return span.ForEach(func(k, _ []byte) error {
				if len(k) > 8 && b.Get(k[len(k)-8:]) == nil {
					staleKeys++
				}
				return nil
			})
		})
	}))
	return stale, kept, want, compacted, staleKeys
}

// smallSpans has the test's index keep 64 IDs per span, and catch up
// 100 records per transaction.
func smallSpans(t *testing.T) {
	bits, batch := epochBits, catchUpBatch
	epochBits, catchUpBatch = 6, 100
	t.Cleanup(func() { epochBits, catchUpBatch = bits, batch })
}

// A store written without the index (by a flowd before it), or with
// records an older flowd added after it, is indexed when it opens, and
// its filtered pages are whole.
func TestIndexCatchesUp(t *testing.T) {
	smallSpans(t)
	path := filepath.Join(t.TempDir(), "activity.db")
	opts := quiet
	opts.Key = testKey
	rng := rand.New(rand.NewPCG(7, 8))
	s, err := Open(path, opts)
	require.NoError(t, err)
	for i := range 1000 {
		s.Append(indexRecord(rng, i))
	}
	require.NoError(t, s.Close())
	db, err := bolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error { return tx.DeleteBucket(indexBucket) }))
	require.NoError(t, db.Close())

	s, err = Open(path, opts)
	require.NoError(t, err)
	for _, f := range indexFilters(rng, 100) {
		require.Equal(t, reference(t, s, f), queried(t, s, f), "%+v", f)
	}
	for i := range 500 {
		s.Append(indexRecord(rng, i))
	}
	require.NoError(t, s.Close())
	// An older flowd appends 200 more and moves nothing in the index.
	db, err = bolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		through := tx.Bucket(indexBucket).Get(throughKey)
		require.Equal(t, uint64(1500), binary.BigEndian.Uint64(through))
		b := tx.Bucket(bucketName)
		for i := range 200 {
			id, _ := b.NextSequence()
			r := indexRecord(rng, i)
			r.ID = id
			v, err := seal(&r)
			require.NoError(t, err)
			require.NoError(t, b.Put(idKey(id), v))
		}
		return nil
	}))
	require.NoError(t, db.Close())

	s = openStore(t, path, opts)
	for _, f := range indexFilters(rng, 200) {
		require.Equal(t, reference(t, s, f), queried(t, s, f), "%+v", f)
	}
	page := queried(t, s, Filter{Server: "slack", Limit: 1000})
	assert.NotEmpty(t, page)
	assert.Greater(t, page[0], uint64(1500), "the records the older flowd wrote are found")
}
