package activity

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Retention keeps two budgets. Routine records (allowed, passed) are
// kept up to MaxRecords; notable ones (anything denied, asked, warned,
// flagged, redacted, blocked, and what changes flowd itself: configs
// held or applied, the passphrase set, messages passed unjudged) up to
// MaxNotable of their own. Any same-user process can add routine records
// by posting harmless hook events, so one budget for all let a flood
// buy the eviction of a denied exfiltration's record (RT7-8): a flood of
// routine records now prunes only routine records. Both kinds go at
// MaxAge, which no flood can hasten.
//
// Pruning the routine records around a kept notable one leaves holes in
// the middle of the chain. A signed "pruned" checkpoint stands for each
// hole: the positions it covers, the hash of the last record pruned and
// the prev_hash of the first, so that the kept records on both sides
// still link through it and a record deleted without one still shows.
// Holes that meet are merged into one checkpoint, and a hole at the
// chain's start is the signed anchor retention always left.

// notableBucket holds, under each notable record's ID, nothing: which
// records retention counts against MaxNotable. Records written before
// it existed are all counted routine.
var notableBucket = []byte("notable")

// retentionBucket holds what retention pruned, by kind and cause, since
// the store began (prunedKey).
var (
	retentionBucket = []byte("retention")
	prunedKey       = []byte("pruned")
)

// CheckpointPruned stands for a hole retention left inside the chain
// (package comment above).
const CheckpointPruned = "pruned"

// PruneCounts are the records retention deleted, by kind and cause. A
// record pruned by count went before MaxAge: more came after it than the
// budget of its kind holds.
type PruneCounts struct {
	RoutineByAge   uint64 `json:"routine_by_age,omitempty"`
	RoutineByCount uint64 `json:"routine_by_count,omitempty"`
	NotableByAge   uint64 `json:"notable_by_age,omitempty"`
	NotableByCount uint64 `json:"notable_by_count,omitempty"`
}

// Total is every record counted.
func (p PruneCounts) Total() uint64 {
	return p.RoutineByAge + p.RoutineByCount + p.NotableByAge + p.NotableByCount
}

func (p *PruneCounts) add(q PruneCounts) {
	p.RoutineByAge += q.RoutineByAge
	p.RoutineByCount += q.RoutineByCount
	p.NotableByAge += q.NotableByAge
	p.NotableByCount += q.NotableByCount
}

// notable says whether r is kept under MaxNotable rather than
// MaxRecords: whatever was not simply allowed and passed.
func notable(r *Record) bool {
	switch r.Type {
	case TypeConfigHeld, TypeConfigApplied, TypePassphraseSet, TypeUnjudged:
		return true
	}
	switch r.Decision {
	case "", "allow":
	default:
		return true
	}
	switch r.Verdict {
	case "", "pass", "allow": // a hook's verdict is its decision
		return false
	}
	return true
}

// held is what retention counts on disk; touched by Open, then only by
// the writer.
type held struct {
	total, notable int
	// routineFloor is an ID no routine record below which is kept: the
	// walk for routine records starts there, past the notable ones
	// retention spared before it.
	routineFloor uint64
}

func (h held) routine() int { return h.total - h.notable }

// overBudget says whether the counts are past their budgets.
func (s *Store) overBudget(h held) bool {
	return h.routine() > s.opts.MaxRecords || h.notable > s.opts.MaxNotable
}

// loadHeld counts a store being opened.
func loadHeld(tx *bolt.Tx) held {
	return held{total: tx.Bucket(bucketName).Stats().KeyN, notable: tx.Bucket(notableBucket).Stats().KeyN}
}

// loadPruned is what retention pruned before, as stored.
func loadPruned(tx *bolt.Tx) PruneCounts {
	var p PruneCounts
	if b := tx.Bucket(retentionBucket); b != nil {
		_ = json.Unmarshal(b.Get(prunedKey), &p) // unreadable: counted from zero again
	}
	return p
}

// doomedRec is a record retention deletes.
type doomedRec struct {
	key     []byte
	notable bool
}

// prune deletes what retention no longer keeps: every record older than
// MaxAge from the oldest end, then the oldest routine records past
// MaxRecords and the oldest notable ones past MaxNotable. Only a store
// with the audit key prunes: every hole it leaves in the chain gets a
// signed checkpoint (package comment).
func (s *Store) prune(tx *bolt.Tx, h held) (held, PruneCounts, error) {
	var cnt PruneCounts
	if s.opts.Key == nil {
		return h, cnt, nil
	}
	b, nb := tx.Bucket(bucketName), tx.Bucket(notableBucket)
	cutoff := s.opts.Now().Add(-s.opts.MaxAge)
	// Collect first, delete after: deleting under a cursor and re-seeking
	// walks every emptied leaf again, which is quadratic in the batch.
	var doomed []doomedRec
	c := b.Cursor()
	var after []byte // the last record pruned by age
	for k, v := c.First(); k != nil && expired(v, cutoff); k, v = c.Next() {
		d := doomedRec{key: k, notable: nb.Get(k) != nil}
		doomed = append(doomed, d)
		if d.notable {
			cnt.NotableByAge++
		} else {
			cnt.RoutineByAge++
		}
		after = k
	}
	start := h.routineFloor
	if after != nil {
		start = max(start, binary.BigEndian.Uint64(after)+1)
	}
	var byCount []doomedRec
	if excess := h.routine() - int(cnt.RoutineByAge) - s.opts.MaxRecords; excess > 0 {
		k, _ := c.Seek(idKey(start))
		for ; k != nil && excess > 0; k, _ = c.Next() {
			if nb.Get(k) == nil {
				byCount = append(byCount, doomedRec{key: k})
				cnt.RoutineByCount++
				excess--
				h.routineFloor = binary.BigEndian.Uint64(k) + 1
			}
		}
	}
	if excess := h.notable - int(cnt.NotableByAge) - s.opts.MaxNotable; excess > 0 {
		nc := nb.Cursor()
		k, _ := nc.First()
		if after != nil {
			k, _ = nc.Seek(idKey(binary.BigEndian.Uint64(after) + 1))
		}
		for ; k != nil && excess > 0; k, _ = nc.Next() {
			byCount = append(byCount, doomedRec{key: k, notable: true})
			cnt.NotableByCount++
			excess--
		}
	}
	slices.SortFunc(byCount, func(a, b doomedRec) int { return compareKeys(a.key, b.key) })
	doomed = append(doomed, byCount...)
	if len(doomed) == 0 {
		return h, cnt, nil
	}
	if err := s.bridge(tx, runsOf(b, doomed)); err != nil {
		return h, cnt, err
	}
	for _, d := range doomed {
		if err := b.Delete(d.key); err != nil {
			return h, cnt, err
		}
		if d.notable {
			if err := nb.Delete(d.key); err != nil {
				return h, cnt, err
			}
			h.notable--
		}
		h.total--
	}
	floor := binary.BigEndian.Uint64(doomed[len(doomed)-1].key) + 1
	if k, _ := b.Cursor().First(); k != nil {
		floor = binary.BigEndian.Uint64(k)
	}
	h.routineFloor = max(h.routineFloor, floor)
	if err := pruneIndex(tx, floor, h.routineFloor); err != nil {
		return h, cnt, err
	}
	total := loadPruned(tx)
	total.add(cnt)
	v, err := json.Marshal(total)
	if err != nil {
		return h, cnt, err
	}
	return h, cnt, tx.Bucket(retentionBucket).Put(prunedKey, v)
}

func compareKeys(a, b []byte) int {
	return bytes.Compare(a, b) // big-endian IDs sort as numbers
}

// run is a stretch of records to prune with no kept record between
// them: one hole in the chain (or the start of it).
type run struct{ first, last []byte }

// runsOf cuts doomed, in ID order, into runs.
func runsOf(b *bolt.Bucket, doomed []doomedRec) []run {
	var runs []run
	c := b.Cursor()
	for i := 0; i < len(doomed); {
		r := run{first: doomed[i].key, last: doomed[i].key}
		c.Seek(doomed[i].key)
		for i++; i < len(doomed); i++ {
			if k, _ := c.Next(); k == nil || string(k) != string(doomed[i].key) {
				break
			}
			r.last = doomed[i].key
		}
		runs = append(runs, r)
	}
	return runs
}

// link is a record's place in the chain, read from its stored JSON.
type link struct {
	seq        uint64
	prev, hash string
	id         uint64
}

// linkOf reads the record stored under k; ok is false for one without
// chain fields (from before the chain).
func linkOf(b *bolt.Bucket, k []byte) (link, bool) {
	v := b.Get(k)
	var f chainFields
	if json.Unmarshal(v, &f) != nil || f.ChainSeq == 0 {
		return link{}, false
	}
	return link{seq: f.ChainSeq, prev: f.PrevHash, hash: hashOf(v), id: f.ID}, true
}

// bridge signs a checkpoint for each run about to be pruned: the anchor
// for a run at the chain's start, a pruned checkpoint, merged with the
// holes it meets, for one inside it. The records are still there.
func (s *Store) bridge(tx *bolt.Tx, runs []run) error {
	b, cb := tx.Bucket(bucketName), tx.Bucket(checkpointBucket)
	var anchor uint64 // the anchor's position; 0: none
	if k, v := cb.Cursor().First(); k != nil {
		var cp Checkpoint
		if json.Unmarshal(v, &cp) == nil && cp.Kind == CheckpointAnchor {
			anchor = cp.Seq
		}
	}
	for _, r := range runs {
		first, fok := linkOf(b, r.first)
		last, lok := s.lastChained(b, r)
		if !lok {
			continue // all from before the chain: nothing to stand for
		}
		hole := Checkpoint{Kind: CheckpointPruned, From: first.seq, PrevHash: first.prev, Seq: last.seq, ID: last.id, Hash: last.hash}
		// A hole that meets a later one takes it in.
		if k, v := cb.Cursor().Seek(idKey(hole.Seq + 1)); k != nil {
			var next Checkpoint
			if json.Unmarshal(v, &next) == nil && next.Kind == CheckpointPruned && next.From == hole.Seq+1 {
				hole.Seq, hole.ID, hole.Hash = next.Seq, next.ID, next.Hash
			}
		}
		if !fok || first.seq == 1 || first.seq == anchor+1 && anchor != 0 {
			if err := s.putAnchor(tx, chainState{seq: hole.Seq, hash: hole.Hash, last: hole.ID}); err != nil {
				return err
			}
			anchor = hole.Seq
			continue
		}
		// And one that meets an earlier one.
		if v := cb.Get(idKey(hole.From - 1)); v != nil {
			var prev Checkpoint
			if json.Unmarshal(v, &prev) == nil && prev.Kind == CheckpointPruned && prev.Seq == hole.From-1 {
				hole.From, hole.PrevHash = prev.From, prev.PrevHash
			}
		}
		if err := s.putHole(tx, hole); err != nil {
			return err
		}
	}
	return nil
}

// lastChained is the last record of r that carries chain fields.
func (s *Store) lastChained(b *bolt.Bucket, r run) (link, bool) {
	c := b.Cursor()
	for k, _ := c.Seek(r.last); k != nil && compareKeys(k, r.first) >= 0; k, _ = c.Prev() {
		if l, ok := linkOf(b, k); ok {
			return l, true
		}
	}
	return link{}, false
}

// putHole replaces the checkpoints of the positions hole covers with
// hole, signed.
func (s *Store) putHole(tx *bolt.Tx, hole Checkpoint) error {
	cb := tx.Bucket(checkpointBucket)
	var old [][]byte
	c := cb.Cursor()
	for k, _ := c.Seek(idKey(hole.From)); k != nil && binary.BigEndian.Uint64(k) <= hole.Seq; k, _ = c.Next() {
		old = append(old, k)
	}
	for _, k := range old {
		if err := cb.Delete(k); err != nil {
			return err
		}
	}
	hole.Time = s.opts.Now().UTC()
	hole.sign(s.opts.Key)
	v, err := json.Marshal(hole)
	if err != nil {
		return err
	}
	return cb.Put(idKey(hole.Seq), v)
}

// String says what p counts, for people.
func (p PruneCounts) String() string {
	return fmt.Sprintf("%d routine records by age, %d by count; %d notable records by age, %d by count",
		p.RoutineByAge, p.RoutineByCount, p.NotableByAge, p.NotableByCount)
}

// expired reports whether the record v is older than cutoff. An
// unreadable record counts as expired, so it cannot stall retention
// forever.
func expired(v []byte, cutoff time.Time) bool {
	var stamp struct {
		Time time.Time `json:"time"`
	}
	return json.Unmarshal(v, &stamp) != nil || stamp.Time.Before(cutoff)
}
