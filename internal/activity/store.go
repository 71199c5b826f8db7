package activity

import (
	"crypto/ed25519"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/flowd-dev/flowd/internal/boltfile"
)

// ErrClosed is returned by Flush after Close.
var ErrClosed = errors.New("activity store is closed")

var bucketName = []byte("activity")

// Options tunes a Store. Zero fields take the documented defaults.
type Options struct {
	// FlushInterval is the longest a record waits in memory before the
	// writer commits it. Default 100ms.
	FlushInterval time.Duration
	// BatchSize wakes the writer early once this many records are pending.
	// Default 512.
	BatchSize int
	// MaxPending bounds the in-memory queue; beyond it Append drops records
	// and counts them in Stats.Dropped. Default 100,000.
	MaxPending int
	// MaxAge, MaxRecords and MaxNotable are the retention limits:
	// records older than MaxAge go, the oldest routine records past
	// MaxRecords and the oldest notable ones past MaxNotable
	// (retention.go). Defaults 7 days, 100,000 and 100,000.
	MaxAge     time.Duration
	MaxRecords int
	MaxNotable int
	// PruneInterval is how often retention runs while no records come:
	// MaxAge holds on an idle daemon too. Default 1 minute.
	PruneInterval time.Duration
	// OpenTimeout is how long Open waits for another process to release
	// the file lock. Default 1s.
	OpenTimeout time.Duration
	// Recover moves a damaged file aside and starts a fresh one (the
	// daemon); without it Open reports the damage and changes nothing
	// (a reader).
	Recover bool
	// Log hears when writes start failing and when they work again.
	// Default: discarded.
	Log *slog.Logger
	// Now stamps records and dates retention; tests replace it. Default
	// time.Now.
	Now func() time.Time
	// Committed, when set, hears each record once it is on disk, with its
	// ID, on the writer's goroutine: it must not block (live event
	// streams hand records on without waiting for their readers).
	Committed func(Record)

	// Key signs the audit chain's checkpoints (package comment in
	// chain.go). Without it records are still chained, nothing is signed,
	// and retention does not run: pruning must leave a signed anchor, and
	// the readers that open the store without the key must not delete
	// what the daemon keeps.
	Key ed25519.PrivateKey
	// CheckpointEvery and CheckpointInterval say how often the writer
	// signs a checkpoint: after this many records or this long,
	// whichever comes first (and at Close). Defaults 1,000 and 1 minute.
	CheckpointEvery    int
	CheckpointInterval time.Duration

	// pruneTick replaces the PruneInterval ticker in tests.
	pruneTick <-chan time.Time
}

func (o Options) withDefaults() Options {
	if o.FlushInterval <= 0 {
		o.FlushInterval = 100 * time.Millisecond
	}
	if o.BatchSize <= 0 {
		o.BatchSize = 512
	}
	if o.MaxPending <= 0 {
		o.MaxPending = 100_000
	}
	if o.MaxAge <= 0 {
		o.MaxAge = 7 * 24 * time.Hour
	}
	if o.MaxRecords <= 0 {
		o.MaxRecords = 100_000
	}
	if o.MaxNotable <= 0 {
		o.MaxNotable = 100_000
	}
	if o.PruneInterval <= 0 {
		o.PruneInterval = time.Minute
	}
	if o.CheckpointEvery <= 0 {
		o.CheckpointEvery = 1000
	}
	if o.CheckpointInterval <= 0 {
		o.CheckpointInterval = time.Minute
	}
	if o.OpenTimeout <= 0 {
		o.OpenTimeout = time.Second
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Stats are the store's counters since Open.
type Stats struct {
	Pending int    `json:"pending"` // queued in memory, not yet committed
	Written uint64 `json:"written"` // committed to disk
	Dropped uint64 `json:"dropped"` // refused by Append: queue full or store closed
	Failed  uint64 `json:"failed"`  // accepted but lost: unencodable record or failed commit
	Pruned  uint64 `json:"pruned"`  // deleted by retention
	// Retention is what retention deleted since the store began, by
	// kind and cause: records pruned by count went before max_age.
	Retention PruneCounts `json:"retention,omitzero"`
	// Unreadable counts the records queries skipped because they could
	// not be decoded (up to 1,024 of them).
	Unreadable uint64 `json:"unreadable"`
	// WriteError is why writing fails, while it does ("" once it works
	// again), and FailingSince when it started.
	WriteError   string    `json:"write_error,omitempty"`
	FailingSince time.Time `json:"failing_since,omitzero"`
}

// Store is the activity log. Append, Flush, Query, Get and Stats are safe
// for concurrent use.
type Store struct {
	db   *bolt.DB
	path string
	opts Options

	mu sync.Mutex
	// The queue is a list of fixed-size chunks rather than one slice, so
	// Append never copies what is already queued when it grows, and the
	// writer can hand emptied chunks back for reuse.
	pending  [][]Record
	npending int
	free     [][]Record // emptied chunks, at most maxFreeChunks
	accepted uint64     // records ever queued; Flush waits for this mark
	done     uint64     // records the writer has finished with (stored or failed)
	waiters  []flushWaiter
	closed   bool
	stats    Stats

	failing episode
	// unreadable are the IDs of records queries skipped, each logged
	// once; at most maxUnreadable are remembered.
	unreadable map[uint64]bool

	kick     chan struct{} // wakes the writer before its tick; buffered 1
	stop     chan struct{}
	stopped  chan struct{}
	closeErr error // the final drain's error, read after stopped closes

	held  held // what is on disk; touched only by Open and then the writer
	chain chainState
	// headTime is when the writer last kept a checkpoint beside the file.
	headTime time.Time
	damage   *boltfile.Damage
}

const (
	chunkSize = 256
	// maxFreeChunks keeps enough chunks for a default batch at hand; chunks
	// beyond it, grown by a burst, are left to the garbage collector.
	maxFreeChunks = 4
	maxUnreadable = 1024
)

type flushWaiter struct {
	upTo   uint64
	result chan error
}

// Open opens (creating if needed) the activity log at path and starts its
// writer. A second process opening the same file fails after
// Options.OpenTimeout instead of hanging on the lock. A damaged file is
// moved aside for a fresh one (Options.Recover; Damage says so) or
// reported as boltfile.ErrDamaged.
func Open(path string, opts Options) (*Store, error) {
	opts = opts.withDefaults()
	s := &Store{
		path:       path,
		opts:       opts,
		unreadable: map[uint64]bool{},
		kick:       make(chan struct{}, 1),
		stop:       make(chan struct{}),
		stopped:    make(chan struct{}),
	}
	var err error
	s.db, s.damage, err = boltfile.Open(path, boltfile.Options{What: "activity store", Timeout: opts.OpenTimeout,
		Buckets: [][]byte{bucketName, checkpointBucket, indexBucket, notableBucket, retentionBucket}, Recover: opts.Recover, Now: opts.Now,
		// Prune once now as well: a daemon restarted after a long stop, or
		// with tighter limits, should not serve records it no longer keeps.
		Init: func(tx *bolt.Tx) error {
			s.chain = loadChain(tx)
			if s.chain.cpTime.IsZero() {
				s.chain.cpTime = opts.Now() // the first checkpoint is due an interval from now
			}
			var pruned PruneCounts
			var err error
			s.held, pruned, err = s.prune(tx, loadHeld(tx))
			s.stats.Pruned = pruned.Total()
			s.stats.Retention = loadPruned(tx)
			return err
		}})
	if err != nil {
		return nil, err
	}
	if err := catchUpIndex(s.db); err != nil {
		s.db.Close()
		return nil, fmt.Errorf("index the records of activity store %s: %w", path, err)
	}
	if s.damage != nil {
		// The checkpoint kept beside the store belongs to the chain moved
		// aside; the fresh store starts a new one.
		if err := os.Rename(path+HeadSuffix, s.damage.MovedTo+HeadSuffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			s.db.Close()
			return nil, fmt.Errorf("move the activity log's head checkpoint aside with its damaged store: %w", err)
		}
	}
	go s.run()
	return s, nil
}

// Damage is the damaged file Open moved aside, or nil.
func (s *Store) Damage() *boltfile.Damage { return s.damage }

// Append queues r for the writer and returns at once; it never touches the
// disk. It stamps r.Time with the current time when zero. Past MaxPending
// queued records the record is dropped and counted instead: losing log lines
// when the disk cannot keep up beats growing memory without bound or
// slowing the message path.
func (s *Store) Append(r Record) {
	if r.Time.IsZero() {
		r.Time = s.opts.Now()
	}
	s.mu.Lock()
	if s.closed || s.npending >= s.opts.MaxPending {
		s.stats.Dropped++
		s.mu.Unlock()
		return
	}
	if n := len(s.pending); n == 0 || len(s.pending[n-1]) == chunkSize {
		s.pending = append(s.pending, s.newChunk())
	}
	last := &s.pending[len(s.pending)-1]
	*last = append(*last, r)
	s.npending++
	s.accepted++
	full := s.npending >= s.opts.BatchSize
	s.mu.Unlock()
	if full {
		s.wake()
	}
}

// newChunk must be called with mu held.
func (s *Store) newChunk() []Record {
	if n := len(s.free); n > 0 {
		c := s.free[n-1]
		s.free = s.free[:n-1]
		return c
	}
	return make([]Record, 0, chunkSize)
}

func (s *Store) wake() {
	select {
	case s.kick <- struct{}{}:
	default: // a wake-up is already queued
	}
}

// Flush returns once every record appended before the call has been
// committed, or with the error that lost some of them.
func (s *Store) Flush() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	if s.done >= s.accepted {
		s.mu.Unlock()
		return nil
	}
	w := flushWaiter{upTo: s.accepted, result: make(chan error, 1)}
	s.waiters = append(s.waiters, w)
	s.mu.Unlock()
	s.wake()
	return <-w.result
}

// Close commits everything still queued, stops the writer and closes the
// file. Records appended after Close are dropped. Calling Close again is a
// no-op.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	close(s.stop)
	<-s.stopped
	if err := s.db.Close(); err != nil {
		return errors.Join(s.closeErr, fmt.Errorf("close activity store %s: %w", s.path, err))
	}
	return s.closeErr
}

// Stats returns a snapshot of the store's counters.
func (s *Store) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stats
	st.Pending = s.npending
	st.Unreadable = uint64(len(s.unreadable))
	if s.failing.on {
		st.WriteError, st.FailingSince = s.failing.err.Error(), s.failing.since
	}
	return st
}

func (s *Store) run() {
	defer close(s.stopped)
	tick := time.NewTicker(s.opts.FlushInterval)
	defer tick.Stop()
	pruneTick := s.opts.pruneTick
	if pruneTick == nil {
		t := time.NewTicker(s.opts.PruneInterval)
		defer t.Stop()
		pruneTick = t.C
	}
	for {
		select {
		case <-s.stop:
			// Close set closed before stop, so nothing can be queued after
			// this drain.
			s.closeErr = errors.Join(s.writePending(), s.checkpointNow(CheckpointClose))
			return
		case <-s.kick:
		case <-tick.C:
		case <-pruneTick:
			s.pruneIdle()
			continue
		}
		// Errors reach Flush callers, Stats and the log (once per
		// episode); there is nobody else to return them to.
		_ = s.writePending()
	}
}

// pruneIdle applies retention when no records come to do it. A failure
// belongs to the episode of failing writes (a full disk fails both).
func (s *Store) pruneIdle() {
	wrote, err := s.pruneDue()
	if err == nil && s.checkpointDue(s.chain) {
		wrote, err = true, s.checkpointNow(CheckpointPeriodic)
	}
	if wrote || err != nil {
		s.mu.Lock()
		s.noteWrite(err, 0)
		s.mu.Unlock()
	}
}

// pruneDue prunes if anything is due; wrote says it tried a write.
func (s *Store) pruneDue() (wrote bool, err error) {
	// Look first: a write transaction costs an fsync even when it deletes
	// nothing, and this runs every PruneInterval.
	if s.opts.Key == nil {
		return false, nil
	}
	due := s.overBudget(s.held)
	if !due {
		cutoff := s.opts.Now().Add(-s.opts.MaxAge)
		err = boltfile.View(s.db, func(tx *bolt.Tx) error {
			k, v := tx.Bucket(bucketName).Cursor().First()
			due = k != nil && expired(v, cutoff)
			return nil
		})
	}
	if err != nil || !due {
		return false, err
	}
	var pruned PruneCounts
	h := s.held
	err = boltfile.Update(s.db, func(tx *bolt.Tx) error {
		var err error
		h, pruned, err = s.prune(tx, s.held)
		return err
	})
	if err != nil {
		return true, fmt.Errorf("prune activity store %s: %w", s.path, err)
	}
	s.held = h
	s.mu.Lock()
	s.stats.Pruned += pruned.Total()
	s.stats.Retention.add(pruned)
	s.mu.Unlock()
	return true, nil
}

// writePending commits everything queued so far in one transaction and
// answers the Flush calls it satisfies.
func (s *Store) writePending() error {
	s.mu.Lock()
	batch, n := s.pending, s.npending
	s.pending, s.npending = nil, 0
	upTo := s.accepted
	s.mu.Unlock()

	var res batchResult
	var err error
	if n > 0 {
		res, err = s.commit(batch, n)
	}
	if tell := s.opts.Committed; tell != nil && res.written > 0 {
		for _, c := range batch {
			for i := range c {
				if c[i].ID != 0 {
					tell(c[i])
				}
			}
		}
	}

	// Clear outside the lock so Append never waits on it; clearing also
	// releases strings and Details while a chunk waits for reuse.
	reuse := batch[:min(len(batch), maxFreeChunks)]
	for _, c := range reuse {
		clear(c)
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range reuse {
		if len(s.free) == maxFreeChunks {
			break
		}
		s.free = append(s.free, c[:0])
	}
	s.done = upTo
	if n > 0 { // an empty tick writes nothing, so it proves nothing
		s.noteWrite(err, res.failed)
	}
	s.stats.Written += res.written
	s.stats.Failed += res.failed
	s.stats.Pruned += res.pruned.Total()
	s.stats.Retention.add(res.pruned)
	// Every waiter still here waits for a record past the previous batch,
	// so its range includes this batch: on error, all of them get it.
	kept := s.waiters[:0]
	for _, w := range s.waiters {
		if err != nil || w.upTo <= upTo {
			w.result <- err
			continue
		}
		kept = append(kept, w)
	}
	clear(s.waiters[len(kept):])
	s.waiters = kept
	return err
}

type batchResult struct {
	written, failed uint64
	pruned          PruneCounts
}

// noteWrite logs the start and the end of an episode of failing writes,
// not each failure: on a full disk every batch fails. mu is held.
func (s *Store) noteWrite(err error, lost uint64) {
	now := s.opts.Now()
	if err == nil {
		if e, ended := s.failing.ok(); ended {
			s.opts.Log.Warn("activity log writes again", "path", s.path,
				"lost", e.lost, "failing_for", now.Sub(e.since).Round(time.Second).String())
		}
		return
	}
	if s.failing.fail(now, err, lost) {
		s.opts.Log.Error("activity log cannot write: records are lost until it can (flowd status counts them)",
			"path", s.path, "err", err)
	}
}

// commit stores batch in one transaction and prunes in the same one, so
// retention costs no extra fsync.
func (s *Store) commit(batch [][]Record, n int) (batchResult, error) {
	var res batchResult
	var encodeErr error
	h := s.held
	chain := s.chain
	var cp *Checkpoint
	err := boltfile.Update(s.db, func(tx *bolt.Tx) error {
		b, nb, ix := tx.Bucket(bucketName), tx.Bucket(notableBucket), indexer{top: tx.Bucket(indexBucket)}
		chain, h = s.chain, s.held // a retried transaction starts over
		for _, chunk := range batch {
			for i := range chunk {
				r := &chunk[i]
				id, err := b.NextSequence()
				if err != nil {
					return err
				}
				r.ID, r.ChainSeq, r.PrevHash = id, chain.seq+1, chain.hash
				v, err := seal(r)
				if err != nil {
					// not stored: no one hears of it, and the chain goes on
					// from the record before
					r.ID, r.ChainSeq, r.PrevHash = 0, 0, ""
					// One bad record (say, invalid Details) must not cost
					// the rest of the batch; its ID is simply never used.
					res.failed++
					if encodeErr == nil {
						encodeErr = fmt.Errorf("encode activity record (type %q): %w", r.Type, err)
					}
					continue
				}
				if err := b.Put(idKey(id), v); err != nil {
					return err
				}
				if err := ix.add(indexedOf(r).stored(), id); err != nil {
					return err
				}
				if notable(r) {
					if err := nb.Put(idKey(id), nil); err != nil {
						return err
					}
					h.notable++
				}
				h.total++
				chain.seq, chain.hash, chain.last = r.ChainSeq, r.Hash, id
				res.written++
			}
		}
		if res.written > 0 {
			if err := setThrough(ix.top, chain.last); err != nil {
				return err
			}
		}
		if s.checkpointDue(chain) {
			c, err := s.putCheckpoint(tx, CheckpointPeriodic, chain)
			if err != nil {
				return err
			}
			cp = &c
			chain.cpSeq, chain.cpTime = c.Seq, c.Time
		}
		var err error
		h, res.pruned, err = s.prune(tx, h)
		return err
	})
	if err != nil {
		return batchResult{failed: uint64(n)},
			fmt.Errorf("write %d activity records to %s: %w", n, s.path, err)
	}
	s.held = h
	s.chain = chain
	// The head file costs an fsync of its own: keep it once an interval,
	// not at every checkpoint (chain.go says what that leaves open).
	if cp != nil && s.opts.Now().Sub(s.headTime) >= s.opts.CheckpointInterval {
		s.writeHead(*cp)
	}
	if encodeErr != nil && res.failed > 1 {
		encodeErr = fmt.Errorf("%w (and %d more)", encodeErr, res.failed-1)
	}
	return res, encodeErr
}

// putAnchor replaces the checkpoints before the kept records with a
// signed anchor where they start.
func (s *Store) putAnchor(tx *bolt.Tx, at chainState) error {
	c := tx.Bucket(checkpointBucket).Cursor()
	var old [][]byte
	for k, _ := c.First(); k != nil && binary.BigEndian.Uint64(k) <= at.seq; k, _ = c.Next() {
		old = append(old, k)
	}
	for _, k := range old {
		if err := tx.Bucket(checkpointBucket).Delete(k); err != nil {
			return err
		}
	}
	_, err := s.putCheckpoint(tx, CheckpointAnchor, at)
	return err
}

func idKey(id uint64) []byte {
	k := make([]byte, 8)
	binary.BigEndian.PutUint64(k, id)
	return k
}
