package activity

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/flowd-dev/flowd/internal/atomicfile"
	"github.com/flowd-dev/flowd/internal/boltfile"
)

// The audit chain. Every record the store writes carries its chain
// position and the hash of the record before it; a record's hash is the
// SHA-256 of its stored JSON, which holds its content, ID, position and
// that previous hash. The stored record does not repeat its own hash
// (readers add it: decodeRecord): anyone who can rewrite a record can
// recompute a hash stored beside it, so it would protect nothing and
// cost bytes on every write. What protects the chain is the next
// record's prev_hash and the checkpoints: hashes need no key, so anyone
// can rewrite a chain from some record on, and checkpoints, signed with
// the audit key, fix the hash at a position every CheckpointEvery
// records, every CheckpointInterval and at a clean close. The latest one
// is also kept outside the bbolt file (HeadSuffix), so a tail cut off
// together with its checkpoints shows. That file is rewritten at most
// once per CheckpointInterval (and at Close): it costs an fsync, and the
// writer must keep up with bursts. So the records of the last interval
// can be cut off together with their checkpoints unnoticed, while any
// change before the head cannot.
//
// An exported record (a JSON line with its details) is that stored JSON
// with "hash" appended as its last member: a SIEM drops the member,
// hashes the rest and links each line to the one before.

// HeadSuffix names the file beside the store that holds its latest
// checkpoint.
const HeadSuffix = ".head"

var checkpointBucket = []byte("checkpoints")

// Checkpoint kinds.
const (
	CheckpointPeriodic = "periodic" // every CheckpointEvery records or CheckpointInterval
	CheckpointClose    = "close"    // the store closed cleanly
	// CheckpointAnchor stands for records retention pruned: the position
	// and hash of the last one pruned, where the kept chain starts.
	CheckpointAnchor = "anchor"
)

// seal encodes r as stored and sets r.Hash. r's ID, ChainSeq and
// PrevHash are set already.
func seal(r *Record) ([]byte, error) {
	r.Hash = ""
	v, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	r.Hash = hashOf(v)
	return v, nil
}

// decodeRecord decodes a stored record, with its hash when it is
// chained.
func decodeRecord(v []byte, r *Record) error {
	if err := json.Unmarshal(v, r); err != nil {
		return err
	}
	r.Hash = ""
	if r.ChainSeq != 0 {
		r.Hash = hashOf(v)
	}
	return nil
}

// hashOf is a stored record's hash.
func hashOf(v []byte) string {
	sum := sha256.Sum256(v)
	var h [2 * sha256.Size]byte // on the stack: one allocation, the string
	hex.Encode(h[:], sum[:])
	return string(h[:])
}

// Checkpoint is a signed statement that the record at chain position Seq
// (activity ID ID) has hash Hash. A pruned checkpoint also says that
// positions From to Seq were pruned, the first of them linked to
// PrevHash.
type Checkpoint struct {
	Kind     string    `json:"kind"`
	Seq      uint64    `json:"chain_seq"`
	ID       uint64    `json:"id"`
	Hash     string    `json:"hash"`
	From     uint64    `json:"from,omitempty"`
	PrevHash string    `json:"prev_hash,omitempty"`
	Time     time.Time `json:"time"`
	Sig      []byte    `json:"sig"`
}

// message is what the signature covers. Other kinds keep the message
// they were first signed with.
func (c Checkpoint) message() []byte {
	m := fmt.Appendf(nil, "flowd activity checkpoint v1\nkind %s\nchain_seq %d\nid %d\nhash %s\ntime %s\n",
		c.Kind, c.Seq, c.ID, c.Hash, c.Time.UTC().Format(time.RFC3339Nano))
	if c.Kind == CheckpointPruned {
		m = fmt.Appendf(m, "from %d\nprev_hash %s\n", c.From, c.PrevHash)
	}
	return m
}

func (c *Checkpoint) sign(key ed25519.PrivateKey) {
	c.Sig = ed25519.Sign(key, c.message())
}

// Valid reports whether pub signed c.
func (c Checkpoint) Valid(pub ed25519.PublicKey) bool {
	return len(pub) == ed25519.PublicKeySize && ed25519.Verify(pub, c.message(), c.Sig)
}

// chainState is where the chain stands: touched by Open, then only by
// the writer.
type chainState struct {
	seq  uint64 // position of the last record written (0: none yet)
	hash string // its hash
	last uint64 // its ID
	// The last checkpoint written.
	cpSeq  uint64
	cpTime time.Time
}

// loadChain finds where the chain stands in a store being opened: its
// last record, or, when retention emptied the store, its anchor.
func loadChain(tx *bolt.Tx) chainState {
	var st chainState
	if k, v := tx.Bucket(checkpointBucket).Cursor().Last(); k != nil {
		var cp Checkpoint
		if json.Unmarshal(v, &cp) == nil {
			st = chainState{seq: cp.Seq, hash: cp.Hash, last: cp.ID, cpSeq: cp.Seq, cpTime: cp.Time}
		}
	}
	if k, v := tx.Bucket(bucketName).Cursor().Last(); k != nil {
		var f chainFields
		if json.Unmarshal(v, &f) == nil && f.ChainSeq != 0 && f.ChainSeq >= st.seq {
			st.seq, st.hash, st.last = f.ChainSeq, hashOf(v), f.ID
		}
		// A last record without chain fields is from before the chain
		// (or damaged): the chain starts afresh after it, and a verifier
		// says from where.
	}
	return st
}

// chainFields are the parts of a stored record the chain needs.
type chainFields struct {
	ID       uint64 `json:"id"`
	ChainSeq uint64 `json:"chain_seq"`
	PrevHash string `json:"prev_hash"`
}

// putCheckpoint signs and stores a checkpoint for the chain's current
// end, in tx.
func (s *Store) putCheckpoint(tx *bolt.Tx, kind string, st chainState) (Checkpoint, error) {
	cp := Checkpoint{Kind: kind, Seq: st.seq, ID: st.last, Hash: st.hash, Time: s.opts.Now().UTC()}
	cp.sign(s.opts.Key)
	v, err := json.Marshal(cp)
	if err != nil {
		return cp, err
	}
	return cp, tx.Bucket(checkpointBucket).Put(idKey(cp.Seq), v)
}

// writeHead keeps cp outside the bbolt file. A failure is logged, not
// returned: the records are stored, and a verifier will say the head is
// behind.
func (s *Store) writeHead(cp Checkpoint) {
	s.headTime = s.opts.Now()
	v, err := json.Marshal(cp)
	if err == nil {
		err = atomicfile.Write(s.path+HeadSuffix, v, 0o600)
	}
	if err != nil {
		s.opts.Log.Warn("cannot keep the activity log's latest checkpoint beside it; verification will report its head as behind", "path", s.path+HeadSuffix, "err", err)
	}
}

// readHead is the checkpoint kept beside the store at path; nil when
// there is none.
func readHead(path string) (*Checkpoint, error) {
	b, err := os.ReadFile(path + HeadSuffix)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the activity log's head checkpoint: %w", err)
	}
	var cp Checkpoint
	if err := json.Unmarshal(b, &cp); err != nil {
		return nil, fmt.Errorf("the activity log's head checkpoint %s cannot be decoded: %w", path+HeadSuffix, err)
	}
	return &cp, nil
}

// checkpointDue says whether the writer should sign where the chain
// stands now.
func (s *Store) checkpointDue(st chainState) bool {
	return s.opts.Key != nil && st.seq > st.cpSeq &&
		(st.seq-st.cpSeq >= uint64(s.opts.CheckpointEvery) || s.opts.Now().Sub(st.cpTime) >= s.opts.CheckpointInterval)
}

// checkpointNow signs where the chain stands in a transaction of its own
// (at a clean close, or when records stopped coming before one was due).
func (s *Store) checkpointNow(kind string) error {
	if s.opts.Key == nil || s.chain.seq <= s.chain.cpSeq {
		return nil
	}
	var cp Checkpoint
	err := boltfile.Update(s.db, func(tx *bolt.Tx) error {
		var err error
		cp, err = s.putCheckpoint(tx, kind, s.chain)
		return err
	})
	if err != nil {
		return fmt.Errorf("sign a checkpoint of activity store %s: %w", s.path, err)
	}
	s.chain.cpSeq, s.chain.cpTime = cp.Seq, cp.Time
	s.writeHead(cp)
	return nil
}
