package activity

import (
	"encoding/binary"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/flowd-dev/flowd/internal/boltfile"
)

// Query returns committed records matching f, newest first, at most f.Limit
// of them. Records still queued in memory are not included; call Flush first
// to see them. A record that cannot be decoded is skipped, logged once and
// counted in Stats.Unreadable: one bad record must not hide all the others.
func (s *Store) Query(f Filter) (out []Record, err error) {
	f, err = f.Check()
	if err != nil {
		return nil, fmt.Errorf("query activity: %w", err)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	err = boltfile.View(s.db, func(tx *bolt.Tx) error {
		var floor uint64
		if k, _ := tx.Bucket(bucketName).Cursor().First(); k != nil {
			floor = binary.BigEndian.Uint64(k)
		}
		if streams := f.plan(tx.Bucket(indexBucket), floor); streams != nil {
			out = s.queryIndexed(tx.Bucket(bucketName), f, streams, limit)
			return nil
		}
		out = s.queryScan(tx.Bucket(bucketName), f, limit)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("query activity store %s: %w", s.path, err)
	}
	return out, nil
}

// queryIndexed reads the records the index's streams name, newest first.
func (s *Store) queryIndexed(b *bolt.Bucket, f Filter, streams []idStream, limit int) (out []Record) {
	at := uint64(noBound)
	if f.Before != 0 {
		at = f.Before - 1
	}
	for at > f.After && len(out) < limit {
		id, ok := nextIn(streams, at)
		if !ok || id <= f.After {
			break
		}
		at = id - 1
		k := idKey(id)
		v := b.Get(k)
		if v == nil {
			continue // pruned by a flowd that kept no index
		}
		if r, ok := s.match(k, v, f); ok {
			out = append(out, r)
		}
	}
	return out
}

// queryScan reads the records from the newest back, skipping those the
// prefilter rules out undecoded.
func (s *Store) queryScan(b *bolt.Bucket, f Filter, limit int) (out []Record) {
	pre := f.prefilter()
	c := b.Cursor()
	k, v := c.Last()
	if f.Before != 0 {
		// Seek finds the first key at or past Before: the page starts
		// at the one before it.
		if k, _ = c.Seek(idKey(f.Before)); k == nil {
			k, v = c.Last()
		} else {
			k, v = c.Prev()
		}
	}
	for ; k != nil && len(out) < limit; k, v = c.Prev() {
		id := binary.BigEndian.Uint64(k)
		if id <= f.After {
			break
		}
		if f.Before != 0 && id >= f.Before || !pre.mayMatch(v) {
			continue
		}
		if r, ok := s.match(k, v, f); ok {
			out = append(out, r)
		}
	}
	return out
}

// match decodes the record stored under k and says whether f keeps it; a
// record that cannot be decoded is skipped, never a failed query.
func (s *Store) match(k, v []byte, f Filter) (Record, bool) {
	var r Record
	if err := decodeRecord(v, &r); err != nil {
		s.skip(k, err)
		return r, false
	}
	return r, f.Matches(r)
}

// skip notes a record Query could not decode.
func (s *Store) skip(k []byte, err error) {
	id := binary.BigEndian.Uint64(k)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.unreadable[id] || len(s.unreadable) >= maxUnreadable {
		return
	}
	s.unreadable[id] = true
	s.opts.Log.Warn("activity record cannot be decoded; queries skip it", "path", s.path, "id", id, "err", err)
}

// Get returns the committed record with the given ID; ok is false when there
// is none (never written, or pruned).
func (s *Store) Get(id uint64) (r Record, ok bool, err error) {
	err = boltfile.View(s.db, func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketName).Get(idKey(id))
		if v == nil {
			return nil
		}
		ok = true
		return decodeRecord(v, &r)
	})
	if err != nil {
		return Record{}, false, fmt.Errorf("get activity record %d from %s: %w", id, s.path, err)
	}
	return r, ok, nil
}

// Export calls each for every committed record matching f, oldest first,
// with no limit: the whole store streams through one read transaction,
// which writers do not wait for. It stops at the first error each returns.
func (s *Store) Export(f Filter, each func(Record) error) error {
	return s.scan(f, decoded, func(_, _ []byte, r *Record) error { return each(*r) })
}

// How scan hands a record over.
type scanMode int

const (
	decoded      scanMode = iota // always decoded
	rawValid                     // decoded only when the filter needs it; skipped unless JSON
	rawUnchecked                 // decoded only when the filter needs it; the caller skips what it cannot read
)

// scan calls each with the key and stored encoding of every committed
// record matching f, oldest first, and the record decoded (or nil, as
// mode says: a record is decoded when f needs its fields to match it).
// k and v are valid only during the call.
func (s *Store) scan(f Filter, mode scanMode, each func(k, v []byte, r *Record) error) error {
	f, err := f.Check()
	if err != nil {
		return fmt.Errorf("export activity: %w", err)
	}
	var stop error
	pre := f.prefilter()
	decode := mode == decoded || !f.all()
	err = boltfile.View(s.db, func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketName).Cursor()
		k, v := c.First()
		if f.After != 0 {
			k, v = c.Seek(idKey(f.After + 1))
		}
		for ; k != nil; k, v = c.Next() {
			if f.Before != 0 && binary.BigEndian.Uint64(k) >= f.Before {
				break
			}
			if !pre.mayMatch(v) {
				continue
			}
			if !decode {
				if mode == rawValid && !validJSON(v) {
					s.skip(k, errors.New("not JSON"))
					continue
				}
				if stop = each(k, v, nil); stop != nil {
					return nil
				}
				continue
			}
			var r Record
			if err := decodeRecord(v, &r); err != nil {
				s.skip(k, err)
				continue
			}
			if f.Matches(r) {
				if stop = each(k, v, &r); stop != nil {
					return nil
				}
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("export activity store %s: %w", s.path, err)
	}
	return stop
}
