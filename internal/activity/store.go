package activity

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
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
	// MaxAge and MaxRecords are the retention limits. Defaults 7 days and
	// 100,000 records.
	MaxAge     time.Duration
	MaxRecords int
	// OpenTimeout is how long Open waits for another process to release
	// the file lock. Default 1s.
	OpenTimeout time.Duration
	// Now stamps records and dates retention; tests replace it. Default
	// time.Now.
	Now func() time.Time
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
	if o.OpenTimeout <= 0 {
		o.OpenTimeout = time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Stats are the store's counters since Open.
type Stats struct {
	Pending int    // queued in memory, not yet committed
	Written uint64 // committed to disk
	Dropped uint64 // refused by Append: queue full or store closed
	Failed  uint64 // accepted but lost: unencodable record or failed commit
	Pruned  uint64 // deleted by retention
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

	kick     chan struct{} // wakes the writer before its tick; buffered 1
	stop     chan struct{}
	stopped  chan struct{}
	closeErr error // the final drain's error, read after stopped closes

	count int // records on disk; touched only by Open and then the writer
}

const (
	chunkSize = 256
	// maxFreeChunks keeps enough chunks for a default batch at hand; chunks
	// beyond it, grown by a burst, are left to the garbage collector.
	maxFreeChunks = 4
)

type flushWaiter struct {
	upTo   uint64
	result chan error
}

// Open opens (creating if needed) the activity log at path and starts its
// writer. A second process opening the same file fails after
// Options.OpenTimeout instead of hanging on the lock.
func Open(path string, opts Options) (*Store, error) {
	opts = opts.withDefaults()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("open activity store %s: %w", path, err)
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: opts.OpenTimeout})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("open activity store %s: still locked by another process after %s (is another flowd running?): %w",
			path, opts.OpenTimeout, err)
	}
	if err != nil {
		return nil, fmt.Errorf("open activity store %s: %w", path, err)
	}
	s := &Store{
		db:      db,
		path:    path,
		opts:    opts,
		kick:    make(chan struct{}, 1),
		stop:    make(chan struct{}),
		stopped: make(chan struct{}),
	}
	// Prune once now as well: a daemon restarted after a long stop, or with
	// tighter limits, should not serve records it no longer keeps.
	err = db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketName)
		if err != nil {
			return err
		}
		n := b.Stats().KeyN
		pruned, err := s.prune(b, n)
		s.count = n - pruned
		s.stats.Pruned = uint64(pruned)
		return err
	})
	if err != nil {
		return nil, errors.Join(fmt.Errorf("open activity store %s: %w", path, err), db.Close())
	}
	go s.run()
	return s, nil
}

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
	return st
}

func (s *Store) run() {
	defer close(s.stopped)
	tick := time.NewTicker(s.opts.FlushInterval)
	defer tick.Stop()
	for {
		select {
		case <-s.stop:
			// Close set closed before stop, so nothing can be queued after
			// this drain.
			s.closeErr = s.writePending()
			return
		case <-s.kick:
		case <-tick.C:
		}
		// Errors reach Flush callers and Stats.Failed; there is nobody else
		// to return them to.
		_ = s.writePending()
	}
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
	s.stats.Written += res.written
	s.stats.Failed += res.failed
	s.stats.Pruned += res.pruned
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
	written, failed, pruned uint64
}

// commit stores batch in one transaction and prunes in the same one, so
// retention costs no extra fsync.
func (s *Store) commit(batch [][]Record, n int) (batchResult, error) {
	var res batchResult
	var encodeErr error
	count := s.count
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketName)
		for _, chunk := range batch {
			for i := range chunk {
				r := &chunk[i]
				id, err := b.NextSequence()
				if err != nil {
					return err
				}
				r.ID = id
				v, err := json.Marshal(r)
				if err != nil {
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
				res.written++
			}
		}
		n := count + int(res.written)
		pruned, err := s.prune(b, n)
		res.pruned = uint64(pruned)
		count = n - pruned
		return err
	})
	if err != nil {
		return batchResult{failed: uint64(n)},
			fmt.Errorf("write %d activity records to %s: %w", n, s.path, err)
	}
	s.count = count
	if encodeErr != nil && res.failed > 1 {
		encodeErr = fmt.Errorf("%w (and %d more)", encodeErr, res.failed-1)
	}
	return res, encodeErr
}

// prune deletes from the oldest end while the bucket holds more than
// MaxRecords or its oldest record is older than MaxAge. IDs grow with append
// order, so the oldest records sit first and pruning stops at the first
// record it keeps. A record stamped by its caller with an older time than
// its predecessors waits behind them; that is the price of never scanning.
func (s *Store) prune(b *bolt.Bucket, count int) (int, error) {
	cutoff := s.opts.Now().Add(-s.opts.MaxAge)
	// Collect first, delete after: deleting under a cursor and re-seeking
	// walks every emptied leaf again, which is quadratic in the batch.
	var doomed [][]byte
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if count-len(doomed) <= s.opts.MaxRecords {
			var stamp struct {
				Time time.Time `json:"time"`
			}
			// An unreadable record counts as expired, so it cannot stall
			// retention forever.
			if json.Unmarshal(v, &stamp) == nil && !stamp.Time.Before(cutoff) {
				break
			}
		}
		doomed = append(doomed, k)
	}
	for i, k := range doomed {
		if err := b.Delete(k); err != nil {
			return i, err
		}
	}
	return len(doomed), nil
}

func idKey(id uint64) []byte {
	k := make([]byte, 8)
	binary.BigEndian.PutUint64(k, id)
	return k
}
