package activity

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

func TestNotable(t *testing.T) {
	for _, tc := range []struct {
		r    Record
		want bool
	}{
		{Record{Type: TypeHookEvaluation, Decision: "allow"}, false},
		{Record{Type: TypeHookEvaluation, Verdict: "allow", Decision: "allow"}, false},
		{Record{Type: TypeHookEvaluation, Verdict: "deny", Decision: "deny"}, true},
		{Record{Type: TypeToolsList, Verdict: "pass", RiskLevel: "medium"}, false},
		{Record{Type: TypeMessage, Verdict: "fail_mode_open"}, true},
		{Record{Type: TypeToolCall, Verdict: "pass", Decision: "allow"}, false},
		{Record{Type: TypeShimConnect}, false},
		{Record{Type: TypeHookEvaluation, Decision: "deny"}, true},
		{Record{Type: TypeHookEvaluation, Decision: "ask"}, true},
		{Record{Type: TypeHookEvaluation, Decision: "warn"}, true},
		{Record{Type: TypeToolCall, Verdict: "replace", Decision: "allow"}, true}, // flagged or redacted
		{Record{Type: TypeToolCall, Verdict: "block", Decision: "allow"}, true},
		{Record{Type: TypeConfigApplied}, true},
		{Record{Type: TypeConfigHeld}, true},
		{Record{Type: TypePassphraseSet}, true},
		{Record{Type: TypeUnjudged, Verdict: "pass"}, true},
	} {
		assert.Equal(t, tc.want, notable(&tc.r), "%+v", tc.r)
	}
}

// flooded writes, through a store keeping 10 routine and 3 notable
// records: 3 routine, a denied send, 5 routine, an asked one, then
// flood routine records, one batch each so that checkpoints fall
// between them; it closes the store.
func flooded(t *testing.T, path string, flood int) Stats {
	t.Helper()
	opts := quiet
	opts.Key = testKey
	opts.CheckpointEvery = 4
	opts.MaxRecords, opts.MaxNotable = 10, 3
	s, err := Open(path, opts)
	require.NoError(t, err)
	add := func(r Record) {
		s.Append(r)
		require.NoError(t, s.Flush())
	}
	routine := Record{Type: TypeHookEvaluation, Tool: "Read", Decision: "allow"}
	for range 3 {
		add(routine)
	}
	add(Record{Type: TypeHookEvaluation, Tool: "Bash", Decision: "deny", Reason: "sends .env"}) // #4
	for range 5 {
		add(routine)
	}
	add(Record{Type: TypeHookEvaluation, Tool: "Bash", Decision: "ask"}) // #10
	for range flood {
		add(routine)
	}
	st := s.Stats()
	require.NoError(t, s.Close())
	return st
}

// RT7-8: a flood of routine records prunes routine records only; the
// denied send's record stays, and the chain with the holes retention
// left around it verifies.
func TestFloodOfRoutineRecordsKeepsTheDenied(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	st := flooded(t, path, 40)
	assert.Equal(t, PruneCounts{RoutineByCount: 38}, st.Retention)

	s := openStore(t, path, quiet)
	recs, err := s.Query(Filter{Limit: 100})
	require.NoError(t, err)
	assert.Equal(t, []uint64{50, 49, 48, 47, 46, 45, 44, 43, 42, 41, 10, 4}, ids(recs))
	assert.Equal(t, PruneCounts{RoutineByCount: 38}, s.Stats().Retention, "what was pruned is kept across restarts")
	require.NoError(t, s.Close())

	rep := verify(t, path, VerifyOptions{})
	assert.True(t, rep.OK(), "%+v", rep.Problems)
	assert.Equal(t, 12, rep.Records)
	require.NotNil(t, rep.Anchor)
	assert.Equal(t, uint64(3), rep.Anchor.Seq, "the records before the denied one")
	assert.Equal(t, 2, rep.Holes, "between #4 and #10, and between #10 and #41")
	assert.Equal(t, PruneCounts{RoutineByCount: 38}, rep.Pruned)
	assert.Equal(t, uint64(50), rep.SignedThrough)
}

// A notable record past its own budget goes, oldest first, and is
// counted as such.
func TestNotableRecordsHaveTheirOwnBudget(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	opts := quiet
	opts.Key = testKey
	opts.CheckpointEvery = 4
	opts.MaxRecords, opts.MaxNotable = 3, 2
	s := openStore(t, path, opts)
	for i := range 12 {
		r := Record{Type: TypeHookEvaluation, Decision: "allow"}
		if i%3 == 0 {
			r.Decision = "deny" // #1, #4, #7, #10
		}
		s.Append(r)
		require.NoError(t, s.Flush())
	}
	recs, err := s.Query(Filter{Limit: 100})
	require.NoError(t, err)
	assert.Equal(t, []uint64{12, 11, 10, 9, 7}, ids(recs))
	assert.Equal(t, PruneCounts{RoutineByCount: 5, NotableByCount: 2}, s.Stats().Retention)
	require.NoError(t, s.Close())
	rep := verify(t, path, VerifyOptions{})
	assert.True(t, rep.OK(), "%+v", rep.Problems)
	assert.Equal(t, uint64(6), rep.Anchor.Seq)
	assert.Equal(t, 1, rep.Holes, "#8, between the kept #7 and #9")
}

// What retention leaves is as tamper-evident as the rest: a kept record
// deleted or changed between holes, a hole's checkpoint deleted or
// forged, all show.
func TestTamperingAroundPrunedHolesIsFound(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tamper func(t *testing.T, recs, cps *bolt.Bucket)
		kind   string
		seq    uint64
	}{
		{"kept record between holes deleted", func(t *testing.T, recs, _ *bolt.Bucket) {
			require.NoError(t, recs.Delete(idKey(10)))
		}, ProblemDeleted, 5},
		{"denied record deleted after the anchor", func(t *testing.T, recs, _ *bolt.Bucket) {
			require.NoError(t, recs.Delete(idKey(4)))
		}, ProblemDeleted, 4},
		{"kept record between holes changed", func(t *testing.T, recs, _ *bolt.Bucket) {
			r := decode(t, recs.Get(idKey(10)))
			r.Decision = "allow"
			v, err := seal(&r)
			require.NoError(t, err)
			require.NoError(t, recs.Put(idKey(10), v))
		}, ProblemChanged, 10},
		{"a hole's checkpoint deleted", func(t *testing.T, _, cps *bolt.Bucket) {
			require.NoError(t, cps.Delete(idKey(9)))
		}, ProblemDeleted, 5},
		{"a hole widened over a kept record", func(t *testing.T, _, cps *bolt.Bucket) {
			var cp Checkpoint
			require.NoError(t, json.Unmarshal(cps.Get(idKey(40)), &cp))
			require.Equal(t, CheckpointPruned, cp.Kind)
			cp.From = 10
			v, err := json.Marshal(cp)
			require.NoError(t, err)
			require.NoError(t, cps.Put(idKey(40), v))
		}, ProblemDeleted, 11}, // and the checkpoint is reported forged
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "a.db")
			flooded(t, path, 40)
			tamper(t, path, func(recs, cps *bolt.Bucket) { tc.tamper(t, recs, cps) })
			rep := verify(t, path, VerifyOptions{})
			p := firstBad(t, rep)
			assert.Equal(t, tc.kind, p.Kind, "%+v", rep.Problems)
			assert.Equal(t, tc.seq, p.Seq, "%+v", rep.Problems)
		})
	}
}

// A store with holes reopens and goes on: the holes grow as routine
// records keep coming, and the chain still verifies.
func TestHolesGrowAcrossRestarts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	flooded(t, path, 40)
	st := flooded(t, path, 25) // 3 routine, a denied, 5 routine, an asked, 25 routine more
	assert.Equal(t, PruneCounts{RoutineByCount: 38 + 33, NotableByCount: 1}, st.Retention)
	rep := verify(t, path, VerifyOptions{})
	assert.True(t, rep.OK(), "%+v", rep.Problems)
	assert.Equal(t, 13, rep.Records, "10 routine and 3 notable")
	assert.Equal(t, 3, rep.Holes, "around the three notable records kept")
	rep = verify(t, path, VerifyOptions{Tail: true})
	assert.True(t, rep.OK(), "%+v", rep.Problems)
}
