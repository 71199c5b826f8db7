package attackprint

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/flowd-dev/flowd/internal/boltfile"
)

var printsBucket = []byte("prints") // ID → Print

// DefaultMax bounds the prints a store keeps; past it the oldest go.
const DefaultMax = 10000

// Store is the prints on disk and their index in memory. Its methods are
// safe for concurrent use.
type Store struct {
	db     *bolt.DB
	path   string
	max    int
	damage *boltfile.Damage

	mu sync.RWMutex
	x  *Index
}

// Options tune Open. Zero fields take the defaults.
type Options struct {
	Max     int           // prints kept; DefaultMax
	Timeout time.Duration // waiting for another process to release the file; 1s
	// Recover moves a damaged file aside and starts a fresh one: the
	// prints are lost, and attacks are known again only as they are
	// caught again (or a feed is imported again).
	Recover bool
}

// Open opens (creating it if needed) the prints file at path.
func Open(path string, o Options) (*Store, error) {
	s := &Store{path: path, max: o.Max, x: newIndex()}
	if s.max <= 0 {
		s.max = DefaultMax
	}
	var err error
	s.db, s.damage, err = boltfile.Open(path, boltfile.Options{What: "attack prints", Timeout: o.Timeout,
		Buckets: [][]byte{printsBucket}, Recover: o.Recover, Init: s.load})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// load indexes the stored prints; one that cannot be decoded, or that is
// not shaped as Make makes prints, is skipped.
func (s *Store) load(tx *bolt.Tx) error {
	return tx.Bucket(printsBucket).ForEach(func(_, v []byte) error {
		var p Print
		if json.Unmarshal(v, &p) == nil && p.valid() {
			s.x.add(p)
		}
		return nil
	})
}

// Damage is the damaged file Open moved aside, or nil.
func (s *Store) Damage() *boltfile.Damage { return s.damage }

// Close closes the file.
func (s *Store) Close() error { return s.db.Close() }

// Match finds a known attack in text.
func (s *Store) Match(text string) (Match, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.x.Match(text)
}

// Len is how many prints the store holds.
func (s *Store) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.x.prints)
}

// All returns every print, oldest first.
func (s *Store) All() []Print {
	s.mu.RLock()
	ps := make([]Print, 0, len(s.x.prints))
	for _, p := range s.x.prints {
		ps = append(ps, p)
	}
	s.mu.RUnlock()
	sortBySeen(ps)
	return ps
}

func sortBySeen(ps []Print) {
	slices.SortFunc(ps, func(a, b Print) int {
		if c := a.Seen.Compare(b.Seen); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
}

// Add stores the prints not stored yet and reports how many were new.
// Past the store's bound the oldest prints are dropped.
func (s *Store) Add(ps ...Print) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var fresh []Print
	taken := map[string]bool{} // a feed may hold a print twice
	for _, p := range ps {
		if _, ok := s.x.prints[p.ID]; !ok && !taken[p.ID] && p.valid() {
			taken[p.ID] = true
			fresh = append(fresh, p)
		}
	}
	if len(fresh) == 0 {
		return 0, nil
	}
	var evict []string
	if over := len(s.x.prints) + len(fresh) - s.max; over > 0 {
		old := make([]Print, 0, len(s.x.prints))
		for _, p := range s.x.prints {
			old = append(old, p)
		}
		sortBySeen(old)
		for _, p := range old[:min(over, len(old))] {
			evict = append(evict, p.ID)
		}
		if over > len(old) { // more new prints than the store holds
			sortBySeen(fresh)
			fresh = fresh[over-len(old):]
		}
	}
	err := boltfile.Update(s.db, func(tx *bolt.Tx) error {
		b := tx.Bucket(printsBucket)
		for _, id := range evict {
			if err := b.Delete([]byte(id)); err != nil {
				return err
			}
		}
		for _, p := range fresh {
			v, err := json.Marshal(p)
			if err != nil {
				return err
			}
			if err := b.Put([]byte(p.ID), v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("store attack prints in %s: %w", s.path, err)
	}
	for _, id := range evict {
		s.x.remove(id)
	}
	for _, p := range fresh {
		s.x.add(p)
	}
	return len(fresh), nil
}
