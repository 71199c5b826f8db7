package activity

import (
	"crypto/ed25519"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

var testKey = ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))

func testPub() ed25519.PublicKey { return testKey.Public().(ed25519.PublicKey) }

// chained writes n records to a store at path through the writer, with a
// checkpoint every 4 and one at Close, and closes it.
func chained(t *testing.T, path string, n int) {
	t.Helper()
	opts := quiet
	opts.Key = testKey
	opts.CheckpointEvery = 4
	s, err := Open(path, opts)
	require.NoError(t, err)
	for i := range n {
		s.Append(Record{Type: TypeToolCall, Server: "github", Tool: "get_file", ArgsBytes: i})
		require.NoError(t, s.Flush()) // one batch each, so checkpoints fall every 4 records
	}
	require.NoError(t, s.Close())
}

// verify reopens the store as a reader (no key) and verifies it.
func verify(t *testing.T, path string, o VerifyOptions) Report {
	t.Helper()
	s, err := Open(path, quiet)
	require.NoError(t, err)
	defer s.Close()
	rep, err := s.Verify(testPub(), o)
	require.NoError(t, err)
	return rep
}

// tamper changes the bbolt file directly, as someone with write access
// to it could.
func tamper(t *testing.T, path string, fn func(records, checkpoints *bolt.Bucket)) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		fn(tx.Bucket(bucketName), tx.Bucket(checkpointBucket))
		return nil
	}))
	require.NoError(t, db.Close())
}

func firstBad(t *testing.T, rep Report) Problem {
	t.Helper()
	require.False(t, rep.OK(), "tampering went unnoticed")
	return *rep.FirstBad()
}

func TestHonestChainVerifies(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	chained(t, path, 10)
	rep := verify(t, path, VerifyOptions{})
	assert.True(t, rep.OK(), "%+v", rep.Problems)
	assert.Equal(t, 10, rep.Records)
	assert.Equal(t, uint64(10), rep.SignedThrough, "Close signs the tail")
	assert.Equal(t, 0, rep.Unsigned)
	assert.Equal(t, 3, rep.Checkpoints, "at 4 and 8, and the close at 10")
}

func TestTamperingIsFoundAndNamed(t *testing.T) {
	for _, tc := range []struct {
		name   string
		tamper func(t *testing.T, recs, cps *bolt.Bucket)
		kind   string
		id     uint64
		seq    uint64
	}{
		{"record bytes changed", func(t *testing.T, recs, _ *bolt.Bucket) {
			v := recs.Get(idKey(5))
			changed := []byte(string(v))
			require.Contains(t, string(changed), `"github"`)
			changed = []byte(replaceOnce(string(changed), `"github"`, `"gitlab"`))
			require.NoError(t, recs.Put(idKey(5), changed))
		}, ProblemChanged, 5, 5},
		{"record changed and its hash recomputed", func(t *testing.T, recs, _ *bolt.Bucket) {
			r := decode(t, recs.Get(idKey(6)))
			r.Tool = "delete_repo"
			v, err := seal(&r)
			require.NoError(t, err)
			require.NoError(t, recs.Put(idKey(6), v))
		}, ProblemChanged, 6, 6},
		{"record changed and the whole chain after it rewritten", func(t *testing.T, recs, _ *bolt.Bucket) {
			prev := decode(t, recs.Get(idKey(2))).Hash
			for id := uint64(3); id <= 10; id++ {
				r := decode(t, recs.Get(idKey(id)))
				if id == 3 {
					r.Tool = "delete_repo"
				}
				r.PrevHash = prev
				v, err := seal(&r)
				require.NoError(t, err)
				require.NoError(t, recs.Put(idKey(id), v))
				prev = r.Hash
			}
		}, ProblemChanged, 4, 4}, // the first position a checkpoint vouches for: the change lies at or before it
		{"record deleted", func(t *testing.T, recs, _ *bolt.Bucket) {
			require.NoError(t, recs.Delete(idKey(3)))
		}, ProblemDeleted, 3, 3},
		{"first record deleted", func(t *testing.T, recs, _ *bolt.Bucket) {
			require.NoError(t, recs.Delete(idKey(1)))
		}, ProblemDeleted, 0, 1},
		{"record inserted in a gap", func(t *testing.T, recs, _ *bolt.Bucket) {
			// Records 1..10 took IDs 1..10 and 12..: move 8..10 up so an
			// ID is free between 7 and 8, then insert a forged record
			// that links correctly to 7.
			for id := uint64(10); id >= 8; id-- {
				require.NoError(t, recs.Put(idKey(id+1), recs.Get(idKey(id))))
			}
			prev := decode(t, recs.Get(idKey(7)))
			forged := Record{ID: 8, Time: prev.Time, Type: TypeToolCall, Server: "evil", ChainSeq: 8, PrevHash: prev.Hash}
			v, err := seal(&forged)
			require.NoError(t, err)
			require.NoError(t, recs.Put(idKey(8), v))
		}, ProblemInserted, 8, 8},
		{"unchained record inserted", func(t *testing.T, recs, _ *bolt.Bucket) {
			require.NoError(t, recs.Put(idKey(10), []byte(`{"id":10,"type":"tool_call"}`)))
			require.NoError(t, recs.Put(idKey(11), []byte(`{"id":11,"type":"tool_call"}`)))
		}, ProblemInserted, 10, 0},
		{"two records swapped", func(t *testing.T, recs, _ *bolt.Bucket) {
			a, b := recs.Get(idKey(4)), recs.Get(idKey(7))
			a, b = append([]byte(nil), a...), append([]byte(nil), b...)
			require.NoError(t, recs.Put(idKey(4), b))
			require.NoError(t, recs.Put(idKey(7), a))
		}, ProblemReordered, 7, 4},
		{"tail and its last checkpoint dropped", func(t *testing.T, recs, cps *bolt.Bucket) {
			for id := uint64(9); id <= 10; id++ {
				require.NoError(t, recs.Delete(idKey(id)))
			}
			require.NoError(t, cps.Delete(idKey(10)))
		}, ProblemTruncated, 9, 9},
		{"checkpoint forged with another key", func(t *testing.T, recs, cps *bolt.Bucket) {
			_, other, err := ed25519.GenerateKey(nil)
			require.NoError(t, err)
			r := decode(t, recs.Get(idKey(10)))
			cp := Checkpoint{Kind: CheckpointClose, Seq: 10, ID: 10, Hash: r.Hash, Time: time.Now()}
			cp.sign(other)
			v, err := json.Marshal(cp)
			require.NoError(t, err)
			require.NoError(t, cps.Put(idKey(10), v))
		}, ProblemForged, 10, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "a.db")
			chained(t, path, 10)
			tamper(t, path, func(recs, cps *bolt.Bucket) { tc.tamper(t, recs, cps) })
			rep := verify(t, path, VerifyOptions{})
			p := firstBad(t, rep)
			assert.Equal(t, tc.kind, p.Kind, "%+v", rep.Problems)
			assert.Equal(t, tc.id, p.ID, "%+v", rep.Problems)
			assert.Equal(t, tc.seq, p.Seq, "%+v", rep.Problems)
		})
	}
}

// Cutting the tail together with every checkpoint inside the file still
// shows: the latest checkpoint is kept beside it too.
func TestTailCutWithAllCheckpointsIsFound(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	chained(t, path, 10)
	tamper(t, path, func(recs, cps *bolt.Bucket) {
		for id := uint64(7); id <= 10; id++ {
			require.NoError(t, recs.Delete(idKey(id)))
		}
		for _, seq := range []uint64{4, 8, 10} {
			require.NoError(t, cps.Delete(idKey(seq)))
		}
	})
	p := firstBad(t, verify(t, path, VerifyOptions{}))
	assert.Equal(t, ProblemTruncated, p.Kind)
	assert.Equal(t, uint64(7), p.Seq)

	require.NoError(t, os.Remove(path+HeadSuffix))
	tamper(t, path, func(_, cps *bolt.Bucket) {
		_ = cps.Delete(idKey(4))
	})
	rep := verify(t, path, VerifyOptions{})
	assert.True(t, rep.OK(), "with the head file and every checkpoint gone nothing is left to tell: %+v", rep.Problems)
	assert.Equal(t, 6, rep.Unsigned, "but none of it is signed")
}

// An honest prune leaves a signed anchor, and the kept records verify.
func TestHonestPruneVerifies(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	chained(t, path, 10)
	opts := quiet
	opts.Key = testKey
	opts.MaxRecords = 4
	opts.CheckpointEvery = 4
	s, err := Open(path, opts) // prunes 6 as it opens
	require.NoError(t, err)
	for range 3 {
		s.Append(Record{Type: TypeToolCall})
		require.NoError(t, s.Flush())
	}
	assert.Equal(t, uint64(9), s.Stats().Pruned)
	require.NoError(t, s.Close())

	rep := verify(t, path, VerifyOptions{})
	assert.True(t, rep.OK(), "%+v", rep.Problems)
	assert.Equal(t, 4, rep.Records)
	require.NotNil(t, rep.Anchor)
	assert.Equal(t, uint64(9), rep.Anchor.Seq)
	assert.Equal(t, uint64(13), rep.SignedThrough)

	// The anchor is what lets the kept chain start past position 1: delete
	// the first kept record and the gap shows.
	tamper(t, path, func(recs, _ *bolt.Bucket) { require.NoError(t, recs.Delete(idKey(10))) })
	p := firstBad(t, verify(t, path, VerifyOptions{}))
	assert.Equal(t, ProblemDeleted, p.Kind)
	assert.Equal(t, uint64(10), p.Seq)
}

// A store written before the chain existed opens, takes new chained
// records, and verification says where the chain starts.
func TestStoreFromBeforeTheChain(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	db, err := bolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucket(bucketName)
		if err != nil {
			return err
		}
		for id := uint64(1); id <= 3; id++ {
			if _, err := b.NextSequence(); err != nil {
				return err
			}
			v, err := json.Marshal(struct {
				ID   uint64    `json:"id"`
				Time time.Time `json:"time"`
				Type string    `json:"type"`
			}{id, time.Now(), TypeToolCall})
			if err != nil {
				return err
			}
			if err := b.Put(idKey(id), v); err != nil {
				return err
			}
		}
		return nil
	}))
	require.NoError(t, db.Close())

	chained(t, path, 2)
	rep := verify(t, path, VerifyOptions{})
	assert.True(t, rep.OK(), "%+v", rep.Problems)
	assert.Equal(t, 3, rep.Legacy)
	assert.Equal(t, uint64(4), rep.ChainStart)
	assert.Equal(t, 2, rep.Records)
}

// The tail check flowd runs as it starts reads from the last checkpoint
// on, and still finds a change there.
func TestTailCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	chained(t, path, 10)
	rep := verify(t, path, VerifyOptions{Tail: true})
	assert.True(t, rep.OK(), "%+v", rep.Problems)
	assert.Equal(t, uint64(10), rep.From)
	assert.Equal(t, 1, rep.Records, "only what the last checkpoint covers and after")

	tamper(t, path, func(recs, _ *bolt.Bucket) {
		v := recs.Get(idKey(10))
		require.NoError(t, recs.Put(idKey(10), []byte(replaceOnce(string(v), `"github"`, `"gitlab"`))))
	})
	p := firstBad(t, verify(t, path, VerifyOptions{Tail: true}))
	assert.Equal(t, uint64(10), p.ID)

	rep = verify(t, path, VerifyOptions{From: 3})
	assert.Equal(t, 8, rep.Records)
	assert.Equal(t, uint64(10), rep.FirstBad().ID)
}

// What a SIEM does with an exported line: drop the hash member, hash the
// rest, compare, and link to the line before.
func TestExportedRecordsVerifyOnTheirOwn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	chained(t, path, 3)
	s, err := Open(path, quiet)
	require.NoError(t, err)
	defer s.Close()
	var lines []string
	write, _, err := Exporter(writerFunc(func(b []byte) { lines = append(lines, string(b)) }), JSONL, true)
	require.NoError(t, err)
	require.NoError(t, s.Export(Filter{}, write))
	require.Len(t, lines, 3)
	prev := ""
	for _, l := range lines {
		l = strings.TrimSuffix(l, "\n")
		i := strings.LastIndex(l, `,"hash":"`)
		require.Positive(t, i, l)
		claimed := strings.TrimSuffix(l[i+len(`,"hash":"`):], `"}`)
		body := []byte(l[:i] + "}")
		assert.Equal(t, claimed, hashOf(body))
		var f chainFields
		require.NoError(t, json.Unmarshal(body, &f))
		assert.Equal(t, prev, f.PrevHash)
		prev = claimed
	}
}

type writerFunc func([]byte)

func (w writerFunc) Write(b []byte) (int, error) { w(append([]byte(nil), b...)); return len(b), nil }

func decode(t *testing.T, v []byte) Record {
	t.Helper()
	var r Record
	require.NoError(t, decodeRecord(v, &r))
	return r
}

func replaceOnce(s, old, new string) string {
	i := strings.Index(s, old)
	if i < 0 {
		return s
	}
	return s[:i] + new + s[i+len(old):]
}
