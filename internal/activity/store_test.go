package activity

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// quiet makes the writer commit only on Flush, Close or a full batch, so a
// test decides exactly when records reach the disk.
var quiet = Options{FlushInterval: time.Hour, BatchSize: 1 << 20}

func openStore(t *testing.T, path string, opts Options) *Store {
	t.Helper()
	s, err := Open(path, opts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func ids(rs []Record) []uint64 {
	out := make([]uint64, len(rs))
	for i, r := range rs {
		out[i] = r.ID
	}
	return out
}

func TestOpenCreatesPrivateFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", "activity.db")
	openStore(t, path, Options{})
	dir, err := os.Stat(filepath.Dir(path))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), dir.Mode().Perm())
	file, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), file.Mode().Perm())
}

func TestQueryFilters(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	opts := quiet
	opts.Now = (&clock{now: t0.Add(time.Hour)}).Now
	s := openStore(t, filepath.Join(t.TempDir(), "a.db"), opts)
	recs := []Record{
		{Time: t0, Type: "shim_connect", Session: "s1", Server: "github"},
		{Time: t0.Add(1 * time.Minute), Type: "tool_call", Session: "s1", Server: "github", Tool: "get_file",
			RiskLevel: "low", ArgsBytes: 12, ResultBytes: 3400, LatencyMicros: 850,
			Details: json.RawMessage(`{"secrets":["aws_key"]}`)},
		{Time: t0.Add(2 * time.Minute), Type: "tool_call", Session: "s1", Server: "slack", Tool: "post",
			RiskLevel: "critical", FlowType: "internal→external", Decision: "deny", Verdict: "block"},
		{Time: t0.Add(3 * time.Minute), Type: "hook_evaluation", Session: "s2", Server: "slack",
			RiskLevel: "high", FlowType: "internal→external", Decision: "ask"},
		{Time: t0.Add(4 * time.Minute), Type: "tool_call", Session: "s2", Server: "web",
			RiskLevel: "medium", FlowType: "external→internal"},
	}
	for _, r := range recs {
		s.Append(r)
	}
	require.NoError(t, s.Flush())

	all, err := s.Query(Filter{})
	require.NoError(t, err)
	require.Equal(t, []uint64{5, 4, 3, 2, 1}, ids(all), "newest first")
	got := all[3]
	want := recs[1]
	want.ID, want.ChainSeq, want.PrevHash = 2, 2, all[4].Hash
	assert.Len(t, got.Hash, 64)
	want.Hash = got.Hash
	assert.True(t, want.Time.Equal(got.Time))
	got.Time = want.Time
	assert.Equal(t, want, got, "every field survives the round trip")

	tests := []struct {
		name string
		f    Filter
		want []uint64
	}{
		{"type", Filter{Type: "tool_call"}, []uint64{5, 3, 2}},
		{"session", Filter{Session: "s2"}, []uint64{5, 4}},
		{"server", Filter{Server: "slack"}, []uint64{4, 3}},
		{"risk high includes critical", Filter{RiskLevel: "high"}, []uint64{4, 3}},
		{"risk critical", Filter{RiskLevel: "critical"}, []uint64{3}},
		{"risk low", Filter{RiskLevel: "low"}, []uint64{5, 4, 3, 2}},
		{"flow type", Filter{FlowType: "internal→external"}, []uint64{4, 3}},
		{"since", Filter{Since: t0.Add(3 * time.Minute)}, []uint64{5, 4}},
		{"until", Filter{Until: t0.Add(1 * time.Minute)}, []uint64{2, 1}},
		{"tool", Filter{Tool: "post"}, []uint64{3}},
		{"before: the next page", Filter{Before: 4, Limit: 2}, []uint64{3, 2}},
		{"before past the end", Filter{Before: 99}, []uint64{5, 4, 3, 2, 1}},
		{"before the first", Filter{Before: 1}, []uint64{}},
		{"after", Filter{After: 3}, []uint64{5, 4}},
		{"before and a filter", Filter{Before: 5, Type: "tool_call"}, []uint64{3, 2}},
		{"limit", Filter{Limit: 2}, []uint64{5, 4}},
		{"limit counts matches", Filter{Type: "tool_call", Limit: 2}, []uint64{5, 3}},
		{"combined", Filter{Type: "tool_call", Server: "slack", RiskLevel: "high"}, []uint64{3}},
		{"no match", Filter{Session: "nope"}, []uint64{}},
	}
	for _, tt := range tests {
		rs, err := s.Query(tt.f)
		require.NoError(t, err, tt.name)
		assert.Equal(t, tt.want, ids(rs), tt.name)
	}

	rs, err := s.Query(Filter{FlowType: "internal->external"})
	require.NoError(t, err)
	assert.Equal(t, []uint64{4, 3}, ids(rs), "-> stands for →")

	// A typo is an error, not an empty answer.
	for _, tt := range []struct {
		f    Filter
		want string
	}{
		{Filter{RiskLevel: "severe"}, `unknown risk level "severe"`},
		{Filter{Type: "toolcall"}, `unknown record type "toolcall"`},
		{Filter{FlowType: "internal_to_external"}, `unknown flow type "internal_to_external"`},
		{Filter{Limit: -1}, "limit -1 is negative"},
	} {
		_, err = s.Query(tt.f)
		assert.ErrorContains(t, err, tt.want)
	}
}

func TestQueryDefaultLimit(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "a.db"), quiet)
	for range DefaultLimit + 10 {
		s.Append(Record{Type: "tool_call"})
	}
	require.NoError(t, s.Flush())
	rs, err := s.Query(Filter{})
	require.NoError(t, err)
	assert.Len(t, rs, DefaultLimit)
	assert.Equal(t, uint64(DefaultLimit+10), rs[0].ID)
}

func TestGet(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "a.db"), quiet)
	s.Append(Record{Type: "tool_call", Tool: "search"})
	require.NoError(t, s.Flush())
	r, ok, err := s.Get(1)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "search", r.Tool)
	_, ok, err = s.Get(2)
	require.NoError(t, err)
	assert.False(t, ok)
}

func TestAppendStampsTime(t *testing.T) {
	c := &clock{now: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)}
	s := openStore(t, filepath.Join(t.TempDir(), "a.db"), Options{FlushInterval: time.Hour, Now: c.Now})
	given := c.Now().Add(-time.Hour)
	s.Append(Record{Type: "a"})
	s.Append(Record{Type: "b", Time: given})
	require.NoError(t, s.Flush())
	rs, err := s.Query(Filter{})
	require.NoError(t, err)
	require.Len(t, rs, 2)
	assert.True(t, rs[1].Time.Equal(c.Now()), "zero time is stamped")
	assert.True(t, rs[0].Time.Equal(given), "given time is kept")
}

func TestFlushWritesBeforeTimer(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "a.db"), quiet)
	for range 3 {
		s.Append(Record{Type: "tool_call"})
	}
	assert.Equal(t, 3, s.Stats().Pending)
	require.NoError(t, s.Flush())
	st := s.Stats()
	assert.Equal(t, 0, st.Pending)
	assert.Equal(t, uint64(3), st.Written)
	require.NoError(t, s.Flush(), "nothing pending returns at once")
}

func TestCloseFlushesPending(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	s, err := Open(path, quiet)
	require.NoError(t, err)
	const n = 5000
	for i := range n {
		s.Append(Record{Type: "tool_call", ArgsBytes: i + 1})
	}
	assert.Equal(t, n, s.Stats().Pending, "nothing written before Close")
	require.NoError(t, s.Close())
	require.NoError(t, s.Close(), "second Close is a no-op")
	assert.ErrorIs(t, s.Flush(), ErrClosed)
	s.Append(Record{Type: "late"})
	assert.Equal(t, uint64(1), s.Stats().Dropped, "append after Close is counted as dropped")

	s = openStore(t, path, quiet)
	rs, err := s.Query(Filter{Limit: 2 * n})
	require.NoError(t, err)
	require.Len(t, rs, n)
	for i, r := range rs {
		assert.Equal(t, uint64(n-i), r.ID)
		assert.Equal(t, n-i, r.ArgsBytes, "order is append order")
	}
}

func TestIDsMonotonicAcrossReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	// MaxRecords 2 prunes the oldest, so a store that derived IDs from its
	// contents would reuse them.
	opts := quiet
	opts.MaxRecords = 2
	opts.Key = testKey // retention runs only with the audit key
	var last uint64
	for round := range 3 {
		s, err := Open(path, opts)
		require.NoError(t, err)
		for range 3 {
			s.Append(Record{Type: "tool_call"})
		}
		require.NoError(t, s.Flush())
		rs, err := s.Query(Filter{})
		require.NoError(t, err)
		require.Len(t, rs, 2, "round %d", round)
		assert.Greater(t, rs[1].ID, last, "round %d", round)
		assert.Greater(t, rs[0].ID, rs[1].ID)
		last = rs[0].ID
		require.NoError(t, s.Close())
	}
	assert.Equal(t, uint64(9), last)
}

func TestRetentionByCount(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	opts := quiet
	opts.MaxRecords = 10
	opts.Key = testKey // retention runs only with the audit key
	s, err := Open(path, opts)
	require.NoError(t, err)
	for range 4 {
		s.Append(Record{Type: "tool_call"})
	}
	require.NoError(t, s.Flush())
	for range 21 {
		s.Append(Record{Type: "tool_call"})
	}
	require.NoError(t, s.Flush())
	rs, err := s.Query(Filter{Limit: 100})
	require.NoError(t, err)
	assert.Equal(t, []uint64{25, 24, 23, 22, 21, 20, 19, 18, 17, 16}, ids(rs))
	assert.Equal(t, uint64(15), s.Stats().Pruned)
	require.NoError(t, s.Close())

	// A tighter limit applies on the next Open, before any new record.
	opts.MaxRecords = 3
	s = openStore(t, path, opts)
	rs, err = s.Query(Filter{Limit: 100})
	require.NoError(t, err)
	assert.Equal(t, []uint64{25, 24, 23}, ids(rs))
	assert.Equal(t, uint64(7), s.Stats().Pruned)
}

func TestRetentionByAge(t *testing.T) {
	c := &clock{now: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)}
	opts := quiet
	opts.MaxAge = 7 * 24 * time.Hour
	opts.Key = testKey // retention runs only with the audit key
	opts.Now = c.Now
	s := openStore(t, filepath.Join(t.TempDir(), "a.db"), opts)

	for range 3 {
		s.Append(Record{Type: "old"})
	}
	require.NoError(t, s.Flush())
	c.advance(24 * time.Hour)
	s.Append(Record{Type: "day_later"})
	require.NoError(t, s.Flush())
	assert.Equal(t, uint64(0), s.Stats().Pruned)

	// Six days on, "old" is exactly MaxAge old (kept) and then one second
	// past it (pruned with the next commit).
	c.advance(6 * 24 * time.Hour)
	s.Append(Record{Type: "now"})
	require.NoError(t, s.Flush())
	assert.Equal(t, uint64(0), s.Stats().Pruned, "exactly MaxAge old is kept")
	c.advance(time.Second)
	s.Append(Record{Type: "later"})
	require.NoError(t, s.Flush())

	rs, err := s.Query(Filter{Limit: 100})
	require.NoError(t, err)
	assert.Equal(t, []uint64{6, 5, 4}, ids(rs))
	assert.Equal(t, uint64(3), s.Stats().Pruned)
}

func TestDropsWhenQueueFull(t *testing.T) {
	opts := quiet
	opts.MaxPending = 10
	s := openStore(t, filepath.Join(t.TempDir(), "a.db"), opts)
	for range 15 {
		s.Append(Record{Type: "tool_call"})
	}
	st := s.Stats()
	assert.Equal(t, 10, st.Pending)
	assert.Equal(t, uint64(5), st.Dropped)
	require.NoError(t, s.Flush())
	assert.Equal(t, uint64(10), s.Stats().Written)
	s.Append(Record{Type: "tool_call"})
	assert.Equal(t, 1, s.Stats().Pending, "room again once the writer caught up")
}

func TestBadRecordFailsAloneAndFlushReportsIt(t *testing.T) {
	s := openStore(t, filepath.Join(t.TempDir(), "a.db"), quiet)
	s.Append(Record{Type: "good"})
	s.Append(Record{Type: "bad", Details: json.RawMessage(`{not json`)})
	s.Append(Record{Type: "good"})
	err := s.Flush()
	require.ErrorContains(t, err, `encode activity record (type "bad")`)
	st := s.Stats()
	assert.Equal(t, uint64(2), st.Written)
	assert.Equal(t, uint64(1), st.Failed)
	rs, err := s.Query(Filter{})
	require.NoError(t, err)
	require.Len(t, rs, 2)
	assert.Greater(t, rs[0].ID, rs[1].ID)
	require.NoError(t, s.Flush(), "the error belongs to the flush that covered it")
}

func TestBatchSizeWakesWriter(t *testing.T) {
	// With no timer to speak of, only a full batch can get records to disk
	// before Flush; Flush then has nothing left to wait for.
	opts := Options{FlushInterval: time.Hour, BatchSize: 4}
	s := openStore(t, filepath.Join(t.TempDir(), "a.db"), opts)
	for range 4 {
		s.Append(Record{Type: "tool_call"})
	}
	require.NoError(t, s.Flush())
	assert.Equal(t, uint64(4), s.Stats().Written)
}

func TestConcurrentAppend(t *testing.T) {
	opts := Options{FlushInterval: time.Millisecond, BatchSize: 64}
	s := openStore(t, filepath.Join(t.TempDir(), "a.db"), opts)
	const writers, each = 16, 500
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				s.Append(Record{Type: "tool_call", Session: fmt.Sprint(w), ArgsBytes: i + 1})
				if i%100 == 99 {
					assert.NoError(t, s.Flush())
					_, err := s.Query(Filter{Session: fmt.Sprint(w), Limit: 5})
					assert.NoError(t, err)
				}
			}
		})
	}
	wg.Wait()
	require.NoError(t, s.Flush())

	st := s.Stats()
	assert.Equal(t, uint64(writers*each), st.Written)
	assert.Zero(t, st.Dropped+st.Failed)
	rs, err := s.Query(Filter{Limit: writers * each})
	require.NoError(t, err)
	require.Len(t, rs, writers*each)
	// Newest first: each writer's records appear in reverse append order.
	next := map[string]int{}
	for i, r := range rs {
		if i > 0 {
			require.Less(t, r.ID, rs[i-1].ID)
		}
		if n, seen := next[r.Session]; seen {
			require.Equal(t, n, r.ArgsBytes, "writer %s", r.Session)
		} else {
			require.Equal(t, each, r.ArgsBytes, "writer %s", r.Session)
		}
		next[r.Session] = r.ArgsBytes - 1
	}
	assert.Len(t, next, writers)
}

func TestSecondOpenFailsFast(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	openStore(t, path, Options{})
	start := time.Now()
	_, err := Open(path, Options{OpenTimeout: 100 * time.Millisecond})
	require.Error(t, err)
	assert.Less(t, time.Since(start), 5*time.Second)
	assert.ErrorContains(t, err, path)
	assert.ErrorContains(t, err, "locked by another process")
}

// BenchmarkAppend measures the message-path cost of Append on its accepting
// path. A tight loop outruns any disk, so the timer pauses while the writer
// catches up every `every` records (otherwise the numbers would mostly
// measure the cheaper drop path): "steady" is a writer that keeps up with
// default batches, "burst" lets half the queue limit pile up first. In
// "steady" the full batch wakes the writer inside the timed window, so its
// allocations (JSON encoding) show in allocs/op; Append itself allocates
// only when no recycled chunk is free, as in "burst".
func BenchmarkAppend(b *testing.B) {
	opts := Options{}.withDefaults()
	for _, bc := range []struct {
		name  string
		every int
	}{{"steady", opts.BatchSize}, {"burst", opts.MaxPending / 2}} {
		b.Run(bc.name, func(b *testing.B) {
			s, err := Open(filepath.Join(b.TempDir(), "a.db"), opts)
			require.NoError(b, err)
			r := Record{Type: "tool_call", Session: "s1", Server: "github", Tool: "get_file",
				Method: "tools/call", ArgsBytes: 120, Verdict: "pass", Decision: "allow"}
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				s.Append(r)
				if n++; n == bc.every {
					b.StopTimer()
					require.NoError(b, s.Flush())
					n = 0
					b.StartTimer()
				}
			}
			b.StopTimer()
			assert.Zero(b, s.Stats().Dropped)
			require.NoError(b, s.Close())
		})
	}
}

// BenchmarkWriteBatch measures what the writer sustains at steady state, with
// retention deleting a batch for every batch written: one op is a full
// default batch appended and committed.
// With "notable", one record in 100 is a denied call retention keeps
// while it prunes the allowed ones around it, leaving holes.
func BenchmarkWriteBatch(b *testing.B) {
	for _, bc := range []struct {
		name  string
		every int // one notable record in every; 0: none
	}{{"routine", 0}, {"notable", 100}} {
		b.Run(bc.name, func(b *testing.B) {
			opts := Options{MaxRecords: 10_000, Key: testKey}.withDefaults()
			s, err := Open(filepath.Join(b.TempDir(), "a.db"), opts)
			require.NoError(b, err)
			r := Record{Type: "tool_call", Session: "s1", Server: "github", Tool: "get_file",
				Method: "tools/call", ArgsBytes: 120, Verdict: "pass", Decision: "allow"}
			deny := r
			deny.Verdict, deny.Decision = "block", "deny"
			n := 0
			for b.Loop() {
				for range opts.BatchSize {
					if n++; bc.every > 0 && n%bc.every == 0 {
						s.Append(deny)
						continue
					}
					s.Append(r)
				}
				require.NoError(b, s.Flush())
			}
			b.ReportMetric(float64(b.N*opts.BatchSize)/b.Elapsed().Seconds(), "records/s")
			require.NoError(b, s.Close())
		})
	}
}

// Export streams every matching record, oldest first, past any limit; a
// Committed listener hears each record once it is on disk, with its ID.
func TestExportAndCommitted(t *testing.T) {
	heard := make(chan Record, 10)
	opts := quiet
	opts.Committed = func(r Record) { heard <- r }
	s := openStore(t, filepath.Join(t.TempDir(), "a.db"), opts)
	for i := range 5 {
		typ := TypeToolCall
		if i%2 == 1 {
			typ = TypeMessage
		}
		s.Append(Record{Type: typ, Server: "s"})
	}
	s.Append(Record{Type: TypeToolCall, Details: json.RawMessage(`{bad`)}) // unencodable: never stored, never heard
	s.Flush()
	close(heard)
	var got []uint64
	for r := range heard {
		got = append(got, r.ID)
	}
	assert.Equal(t, []uint64{1, 2, 3, 4, 5}, got)

	var exported []uint64
	collect := func(r Record) error { exported = append(exported, r.ID); return nil }
	require.NoError(t, s.Export(Filter{}, collect))
	assert.Equal(t, []uint64{1, 2, 3, 4, 5}, exported, "oldest first, no limit")
	exported = nil
	require.NoError(t, s.Export(Filter{Type: TypeToolCall, After: 1, Before: 5}, collect))
	assert.Equal(t, []uint64{3}, exported)
	stop := errors.New("reader gone")
	exported = nil
	assert.Equal(t, stop, s.Export(Filter{}, func(r Record) error { exported = append(exported, r.ID); return stop }))
	assert.Equal(t, []uint64{1}, exported, "an error from each stops the export")
	assert.ErrorContains(t, s.Export(Filter{Type: "bogus"}, collect), "unknown record type")
}
