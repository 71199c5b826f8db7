package activity

import (
	"cmp"
	"crypto/ed25519"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/flowd-dev/flowd/internal/boltfile"
)

// Problem kinds Verify reports.
const (
	ProblemChanged   = "changed"   // content differs from what its hash, or the next record or a checkpoint, recorded
	ProblemDeleted   = "deleted"   // chain positions missing
	ProblemInserted  = "inserted"  // a record the chain does not lead through
	ProblemReordered = "reordered" // stored out of chain order, or under another record's ID
	ProblemTruncated = "truncated" // the tail a checkpoint covers is gone
	ProblemForged    = "forged"    // a checkpoint whose signature the key does not verify
	ProblemHead      = "head"      // the checkpoint kept beside the store is missing or differs
)

// Problem is one sign of tampering. ID names the record (0 where none
// can be named, e.g. a checkpoint of its own); Seq its chain position.
type Problem struct {
	Kind   string `json:"kind"`
	ID     uint64 `json:"id,omitempty"`
	Seq    uint64 `json:"chain_seq,omitempty"`
	Detail string `json:"detail"`
}

// Report is what Verify found.
type Report struct {
	// From is the first record checked (VerifyOptions.From, or the last
	// checkpoint's for a tail check).
	From uint64 `json:"from,omitempty"`
	// Records counts the chained records checked; Legacy those before
	// the chain started (written before flowd kept one), which nothing
	// covers. ChainStart is the first chained record's ID.
	Records    int    `json:"records"`
	Legacy     int    `json:"legacy,omitempty"`
	ChainStart uint64 `json:"chain_start,omitempty"`
	// Checkpoints counts those whose signature verified; SignedThrough
	// is the last chain position one covers, and Unsigned the records
	// after it: chained, not yet signed (normal while flowd runs).
	Checkpoints   int         `json:"checkpoints"`
	SignedThrough uint64      `json:"signed_through,omitempty"`
	Unsigned      int         `json:"unsigned"`
	Problems      []Problem   `json:"problems,omitempty"`
	Checked       time.Time   `json:"checked"`
	Tail          bool        `json:"tail,omitempty"`
	Anchor        *Checkpoint `json:"anchor,omitempty"`
	// Holes counts the signed checkpoints that stand for records
	// retention pruned inside the chain (retention.go), and Pruned is
	// what retention says it pruned, by kind and cause.
	Holes  int         `json:"holes,omitempty"`
	Pruned PruneCounts `json:"pruned,omitzero"`
}

// OK reports whether nothing was found.
func (r Report) OK() bool { return len(r.Problems) == 0 }

// FirstBad is the earliest problem in chain order that names a record
// or position, else the first problem; nil when there is none.
func (r Report) FirstBad() *Problem {
	for i := range r.Problems {
		if r.Problems[i].Seq != 0 || r.Problems[i].ID != 0 {
			return &r.Problems[i]
		}
	}
	if len(r.Problems) == 0 {
		return nil
	}
	return &r.Problems[0]
}

// VerifyOptions choose what Verify checks.
type VerifyOptions struct {
	// From starts at this record ID, trusting the chain up to it.
	From uint64
	// Tail starts at the last checkpoint: what flowd checks as it starts.
	Tail bool
}

// entry is one stored record as the verifier sees it.
type entry struct {
	key uint64
	chainFields
	hash    string
	chained bool
	// unreadable: not JSON any more, so changed past telling what it was
	unreadable bool
	bad        bool // reported already
}

// Verify checks the audit chain against pub: every record's hash, the
// links between them, the signed checkpoints (and the one kept beside
// the store), and that no record a checkpoint covers is gone. It reads
// the store in one read transaction, which the writer does not wait for.
func (s *Store) Verify(pub ed25519.PublicKey, o VerifyOptions) (Report, error) {
	rep := Report{From: o.From, Tail: o.Tail, Checked: s.opts.Now().UTC()}
	head, herr := readHead(s.path)
	var cps []Checkpoint
	var ents []entry
	err := boltfile.View(s.db, func(tx *bolt.Tx) error {
		cb := tx.Bucket(checkpointBucket)
		if cb != nil {
			err := cb.ForEach(func(k, v []byte) error {
				var cp Checkpoint
				if err := json.Unmarshal(v, &cp); err != nil || cp.Seq != binary.BigEndian.Uint64(k) {
					rep.Problems = append(rep.Problems, Problem{Kind: ProblemForged, Seq: binary.BigEndian.Uint64(k),
						Detail: "a checkpoint cannot be decoded or sits under another position"})
					return nil
				}
				cps = append(cps, cp)
				return nil
			})
			if err != nil {
				return err
			}
		}
		rep.Pruned = loadPruned(tx)
		from := o.From
		if o.Tail {
			from = tailStart(cps, pub)
			rep.From = from
		}
		c := tx.Bucket(bucketName).Cursor()
		k, v := c.First()
		if from != 0 {
			k, v = c.Seek(idKey(from))
		}
		for ; k != nil; k, v = c.Next() {
			ents = append(ents, readEntry(binary.BigEndian.Uint64(k), v))
		}
		return nil
	})
	if err != nil {
		return rep, fmt.Errorf("verify activity store %s: %w", s.path, err)
	}
	if herr != nil {
		rep.Problems = append(rep.Problems, Problem{Kind: ProblemHead, Detail: herr.Error()})
	}
	v := verifier{rep: &rep, pub: pub, partial: o.From != 0 || o.Tail}
	v.run(ents, cps, head)
	slices.SortStableFunc(rep.Problems, func(a, b Problem) int {
		if a.Seq != b.Seq {
			return cmp.Compare(a.Seq, b.Seq)
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return rep, nil
}

// tailStart is the ID of the record the last good checkpoint covers (the
// first kept one after an anchor), where a tail check starts.
func tailStart(cps []Checkpoint, pub ed25519.PublicKey) uint64 {
	for i := len(cps) - 1; i >= 0; i-- {
		if cps[i].Valid(pub) {
			if cps[i].Kind == CheckpointAnchor || cps[i].Kind == CheckpointPruned {
				return cps[i].ID + 1
			}
			return max(cps[i].ID, 1)
		}
	}
	return 0
}

func readEntry(key uint64, v []byte) entry {
	e := entry{key: key}
	switch err := json.Unmarshal(v, &e.chainFields); {
	case err != nil:
		e.chained, e.unreadable = true, true
	case e.ChainSeq != 0:
		e.chained, e.hash = true, hashOf(v)
	}
	return e
}

type verifier struct {
	rep     *Report
	pub     ed25519.PublicKey
	partial bool // started past the chain's start: its first link is trusted
}

func (v *verifier) problem(kind string, e *entry, format string, a ...any) {
	p := Problem{Kind: kind, Detail: fmt.Sprintf(format, a...)}
	if e != nil {
		if e.bad {
			return // one problem per record: the first explains the rest
		}
		e.bad = true
		p.ID, p.Seq = e.key, e.ChainSeq
	}
	v.rep.Problems = append(v.rep.Problems, p)
}

func (v *verifier) run(ents []entry, cps []Checkpoint, head *Checkpoint) {
	// Checkpoints: a bad signature is forgery; the rest say which hash
	// each position must have.
	signed := map[uint64]Checkpoint{}
	holes := map[uint64]Checkpoint{} // by the first position each stands for
	var anchor *Checkpoint
	for _, cp := range cps {
		if !cp.Valid(v.pub) {
			v.rep.Problems = append(v.rep.Problems, Problem{Kind: ProblemForged, ID: cp.ID, Seq: cp.Seq,
				Detail: fmt.Sprintf("the %s checkpoint at chain position %d is not signed by this audit key (forged, or signed by another key)", cp.Kind, cp.Seq)})
			continue
		}
		v.rep.Checkpoints++
		signed[cp.Seq] = cp
		switch cp.Kind {
		case CheckpointAnchor:
			a := cp
			anchor = &a
		case CheckpointPruned:
			holes[cp.From] = cp
			v.rep.Holes++
		}
		v.rep.SignedThrough = max(v.rep.SignedThrough, cp.Seq)
	}
	v.rep.Anchor = anchor
	switch {
	case head == nil && len(cps) > 0:
		v.rep.Problems = append(v.rep.Problems, Problem{Kind: ProblemHead,
			Detail: "the latest checkpoint kept beside the store (" + HeadSuffix + " file) is gone, so a cut-off tail cannot be ruled out"})
	case head != nil && !head.Valid(v.pub):
		v.rep.Problems = append(v.rep.Problems, Problem{Kind: ProblemForged, ID: head.ID, Seq: head.Seq,
			Detail: fmt.Sprintf("the checkpoint kept beside the store (at chain position %d) is not signed by this audit key", head.Seq)})
	case head != nil:
		if in, ok := signed[head.Seq]; ok && in.Hash != head.Hash {
			v.rep.Problems = append(v.rep.Problems, Problem{Kind: ProblemHead, ID: head.ID, Seq: head.Seq,
				Detail: fmt.Sprintf("the checkpoint kept beside the store and the one inside it disagree on chain position %d", head.Seq)})
		} else if !ok && (anchor == nil || head.Seq > anchor.Seq) {
			signed[head.Seq] = *head
		}
		v.rep.SignedThrough = max(v.rep.SignedThrough, head.Seq)
	}

	// Records before the first chained one are from before the chain (or
	// outside a partial check's start). After it, every record must be
	// chained.
	var chain []*entry
	bySeq := map[uint64][]*entry{}
	for i := range ents {
		e := &ents[i]
		if !e.chained {
			if len(chain) == 0 {
				v.rep.Legacy++
				continue
			}
			v.problem(ProblemInserted, e, "record #%d carries no chain fields inside the chain: inserted, or its chain fields were removed", e.key)
			continue
		}
		if e.unreadable {
			v.problem(ProblemChanged, e, "record #%d was changed: it cannot be read any more", e.key)
			continue
		}
		if e.ID != e.key {
			v.problem(ProblemReordered, e, "record #%d holds record #%d: moved or swapped", e.key, e.ID)
		}
		chain = append(chain, e)
		bySeq[e.ChainSeq] = append(bySeq[e.ChainSeq], e)
	}
	v.rep.Records = len(chain)
	if len(chain) == 0 {
		if v.rep.SignedThrough > 0 && (anchor == nil || v.rep.SignedThrough > anchor.Seq) {
			v.rep.Problems = append(v.rep.Problems, Problem{Kind: ProblemTruncated, Seq: v.rep.SignedThrough,
				Detail: fmt.Sprintf("no chained record is left, yet a checkpoint covers chain position %d: the records were deleted", v.rep.SignedThrough)})
		}
		return
	}
	v.rep.ChainStart = chain[0].key
	v.duplicates(bySeq)

	// Order: in ID order, chain positions must rise.
	top := chain[0]
	for _, e := range chain[1:] {
		if e.bad {
			continue
		}
		if e.ChainSeq < top.ChainSeq {
			v.problem(ProblemReordered, top, "record #%d (chain position %d) is stored before record #%d (chain position %d): reordered", top.key, top.ChainSeq, e.key, e.ChainSeq)
			v.problem(ProblemReordered, e, "record #%d (chain position %d) is stored after chain position %d: reordered", e.key, e.ChainSeq, top.ChainSeq)
			continue
		}
		top = e
	}

	// Links and gaps, in chain order.
	seqs := make([]uint64, 0, len(bySeq))
	for s := range bySeq {
		seqs = append(seqs, s)
	}
	slices.Sort(seqs)
	first := genuine(bySeq[seqs[0]])
	v.start(first, anchor)
	for i := 1; i < len(seqs); i++ {
		e, pred := genuine(bySeq[seqs[i]]), genuine(bySeq[seqs[i-1]])
		if seqs[i] != seqs[i-1]+1 {
			if v.bridged(pred, e, holes) {
				continue
			}
			id := uint64(0)
			if e.ID-pred.ID-1 == seqs[i]-seqs[i-1]-1 {
				id = pred.ID + 1 // IDs and positions kept in step: the missing IDs are known
			}
			v.rep.Problems = append(v.rep.Problems, Problem{Kind: ProblemDeleted, ID: id, Seq: seqs[i-1] + 1,
				Detail: fmt.Sprintf("%s missing between records #%d and #%d: deleted", positions(seqs[i-1]+1, seqs[i]-1), pred.key, e.key)})
			continue
		}
		if e.PrevHash != pred.hash {
			v.problem(ProblemChanged, pred, "record #%d was changed: record #%d recorded another hash for it", pred.key, e.key)
		}
	}

	// Checkpoints: the record at each covered position must have the
	// signed hash, and none may be past the end.
	last := genuine(bySeq[seqs[len(seqs)-1]])
	var cut *Checkpoint // the furthest checkpoint past the last record
	from := uint64(0)   // the last position a checkpoint vouches for so far
	if anchor != nil {
		from = anchor.Seq
	}
	for _, seq := range slices.Sorted(maps.Keys(signed)) {
		cp := signed[seq]
		switch es, ok := bySeq[seq]; {
		case cp.Kind == CheckpointAnchor:
		case seq > last.ChainSeq:
			cut = &cp
		case !ok:
			// reported as deleted, or before a partial check's start
		case genuine(es).hash != cp.Hash:
			// Links that all hold up to here mean the chain was rewritten
			// after the change: it lies past the last position vouched for.
			e := genuine(es)
			v.problem(ProblemChanged, e, "a record from chain position %d to %d was changed and the chain rewritten after it: record #%d at %d has another hash than the %s checkpoint signed", from+1, seq, e.key, seq, cp.Kind)
		default:
			from = seq
		}
	}
	if cut != nil {
		id := uint64(0)
		if cut.ID-last.ID == cut.Seq-last.ChainSeq {
			id = last.ID + 1 // IDs and positions kept in step: the first missing ID is known
		}
		v.rep.Problems = append(v.rep.Problems, Problem{Kind: ProblemTruncated, ID: id, Seq: last.ChainSeq + 1,
			Detail: fmt.Sprintf("%s after record #%d gone, yet the %s checkpoint of %s covers them: the tail was cut off",
				positions(last.ChainSeq+1, cut.Seq), last.key, cut.Kind, cut.Time.Format(time.RFC3339))})
	}
	for _, e := range chain {
		if e.ChainSeq > v.rep.SignedThrough {
			v.rep.Unsigned++
		}
	}
}

// start checks where the chain begins: at position 1, or right after the
// signed anchor retention left.
func (v *verifier) start(first *entry, anchor *Checkpoint) {
	switch {
	case v.partial:
	case anchor != nil && first.ChainSeq == anchor.Seq+1 && first.PrevHash == anchor.Hash:
	case anchor == nil && first.ChainSeq == 1 && first.PrevHash == "":
	case anchor != nil && first.ChainSeq == anchor.Seq+1:
		v.problem(ProblemChanged, first, "record #%d does not follow the signed anchor retention left (chain position %d): changed", first.key, anchor.Seq)
	default:
		from := uint64(1)
		if anchor != nil {
			from = anchor.Seq + 1
		}
		v.rep.Problems = append(v.rep.Problems, Problem{Kind: ProblemDeleted, Seq: from,
			Detail: fmt.Sprintf("%s missing before record #%d, the first kept, and no signed anchor stands for them: deleted", positions(from, first.ChainSeq-1), first.key)})
	}
}

// bridged says whether signed checkpoints of pruned records stand for
// every position between pred and e, and checks that both link to them.
func (v *verifier) bridged(pred, e *entry, holes map[uint64]Checkpoint) bool {
	h, ok := holes[pred.ChainSeq+1]
	if !ok {
		return false
	}
	for h.Seq+1 < e.ChainSeq {
		next, ok := holes[h.Seq+1]
		if !ok || next.PrevHash != h.Hash {
			return false
		}
		h = next
	}
	if h.Seq+1 != e.ChainSeq {
		return false
	}
	if holes[pred.ChainSeq+1].PrevHash != pred.hash {
		v.problem(ProblemChanged, pred, "record #%d was changed: the signed checkpoint of the records pruned after it recorded another hash for it", pred.key)
	}
	if e.PrevHash != h.Hash {
		v.problem(ProblemChanged, e, "record #%d was changed: it does not link to the signed checkpoint of the records pruned before it", e.key)
	}
	return true
}

// duplicates reports all but the genuine record where two claim one
// chain position.
func (v *verifier) duplicates(bySeq map[uint64][]*entry) {
	for seq, es := range bySeq {
		if len(es) < 2 {
			continue
		}
		g := es[0]
		if next, ok := bySeq[seq+1]; ok {
			for _, e := range es {
				if e.hash == next[0].PrevHash {
					g = e
				}
			}
		}
		for _, e := range es {
			if e != g {
				v.problem(ProblemInserted, e, "record #%d claims chain position %d, which record #%d holds: inserted", e.key, seq, g.key)
			}
		}
		bySeq[seq] = []*entry{g}
	}
}

// positions names chain positions a to b, and says "are" or "is".
func positions(a, b uint64) string {
	if a == b {
		return fmt.Sprintf("chain position %d is", a)
	}
	return fmt.Sprintf("chain positions %d to %d are", a, b)
}

// genuine is the record that holds a chain position.
func genuine(es []*entry) *entry { return es[0] }
