package quarantine

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/flowd-dev/flowd/internal/boltfile"
	"github.com/flowd-dev/flowd/internal/injection"
	"github.com/flowd-dev/flowd/internal/sessionid"
)

var (
	itemsBucket    = []byte("items")    // seq → Item without content
	contentBucket  = []byte("content")  // seq → the original bytes
	releasedBucket = []byte("released") // releaseKey → item ID
)

// Item is one quarantined result.
type Item struct {
	ID      string    `json:"id"`
	Time    time.Time `json:"time"`
	Session string    `json:"session,omitempty"`
	Server  string    `json:"server"`
	Tool    string    `json:"tool,omitempty"`
	// Method is what produced the content: tools/call, resources/read,
	// prompts/get, or a hook event.
	Method     string                `json:"method"`
	Score      float64               `json:"score"`
	Detections []injection.Detection `json:"detections,omitempty"`
	SHA256     string                `json:"sha256"`
	Size       int                   `json:"size"`
	Released   time.Time             `json:"released,omitzero"`
	// Content is the original result; Get fills it, List leaves it out.
	Content string `json:"content,omitempty"`
	// Unreadable says why List could not decode the item, whose other
	// fields are then empty.
	Unreadable string `json:"unreadable,omitempty"`
}

// Metadata is it without what the quarantined text says: no content and
// no detection excerpts (which quote it), for answers that a program,
// or a model reading a program's output, gets without asking to see the
// withheld text.
func (it Item) Metadata() Item {
	it.Content = ""
	it.Detections = injection.WithoutExcerpts(it.Detections)
	return it
}

// Options tune a Store. Zero fields take the defaults.
type Options struct {
	// MaxItems bounds the store: past it the oldest items are deleted
	// (their releases stay). Default 1000.
	MaxItems int
	// OpenTimeout is how long Open waits for another process to release
	// the file. Default 1s.
	OpenTimeout time.Duration
	// Recover moves a damaged file aside and starts a fresh one (the
	// daemon): its items and releases are lost, so what was released is
	// quarantined again, never let through. Without it Open reports the
	// damage and changes nothing (a reader).
	Recover bool
}

// Store is the quarantine. Its methods are safe for concurrent use.
type Store struct {
	db   *bolt.DB
	path string
	max  int

	mu           sync.Mutex
	count        int
	released     map[string]bool // by releaseKey; read on every result, so kept in memory
	releasedFrom map[string]bool // servers with anything released
	damage       *boltfile.Damage
}

// ErrNotFound is returned for an ID the store does not hold.
var ErrNotFound = errors.New("no such quarantined item")

// Open opens (creating it if needed) the quarantine at path.
func Open(path string, o Options) (*Store, error) {
	if o.MaxItems <= 0 {
		o.MaxItems = 1000
	}
	s := &Store{path: path, max: o.MaxItems, released: map[string]bool{}, releasedFrom: map[string]bool{}}
	var err error
	s.db, s.damage, err = boltfile.Open(path, boltfile.Options{What: "quarantine store", Timeout: o.OpenTimeout,
		Buckets: [][]byte{itemsBucket, contentBucket, releasedBucket}, Recover: o.Recover,
		Init: func(tx *bolt.Tx) error {
			s.count = tx.Bucket(itemsBucket).Stats().KeyN
			return tx.Bucket(releasedBucket).ForEach(func(k, _ []byte) error {
				s.released[string(k)] = true
				s.releasedFrom[strings.SplitN(string(k), "\x00", 2)[0]] = true
				return nil
			})
		}})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Damage is the damaged file Open moved aside, or nil.
func (s *Store) Damage() *boltfile.Damage { return s.damage }

// Close closes the file.
func (s *Store) Close() error { return s.db.Close() }

// Hash is the hex SHA-256 of content, by which a release is remembered.
func Hash(content []byte) string {
	h := sha256.Sum256(content)
	return hex.EncodeToString(h[:])
}

// releaseKey is what a release is remembered by: server NUL sha256, and in
// a system flowd NUL the uid of the session's owner after it, so that one
// user's release never lets content through to another. The server comes
// first: Open reads it back from there.
func releaseKey(sess, server, sha string) string {
	k := server + "\x00" + sha
	if uid, ok := sessionid.Owner(sess); ok {
		k += "\x00" + strconv.Itoa(uid)
	}
	return k
}

// ReleasedFor reports whether a human released this exact content from
// this server for the user whose session this is (in a single user's
// flowd: for that user).
func (s *Store) ReleasedFor(sess, server string, content []byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	// Hashing a 10 MB result costs milliseconds: only for servers that
	// have anything released.
	return s.releasedFrom[server] && s.released[releaseKey(sess, server, Hash(content))]
}

// Add quarantines content and returns the item as stored, with its ID.
func (s *Store) Add(it Item, content []byte) (Item, error) {
	it.SHA256, it.Size, it.Content, it.Released = Hash(content), len(content), "", time.Time{}
	if it.Time.IsZero() {
		it.Time = time.Now()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	err := boltfile.Update(s.db, func(tx *bolt.Tx) error {
		items := tx.Bucket(itemsBucket)
		seq, err := items.NextSequence()
		if err != nil {
			return err
		}
		it.ID = formatID(seq)
		meta, err := json.Marshal(it)
		if err != nil {
			return err
		}
		k := seqKey(seq)
		if err := items.Put(k, meta); err != nil {
			return err
		}
		if err := tx.Bucket(contentBucket).Put(k, content); err != nil {
			return err
		}
		return s.evict(tx, s.count+1)
	})
	if err != nil {
		return Item{}, fmt.Errorf("quarantine content from %s in %s: %w", it.Server, s.path, err)
	}
	s.count = min(s.count+1, s.max)
	return it, nil
}

// evict deletes the oldest items past the limit.
func (s *Store) evict(tx *bolt.Tx, count int) error {
	c := tx.Bucket(itemsBucket).Cursor()
	content := tx.Bucket(contentBucket)
	for k, _ := c.First(); k != nil && count > s.max; k, _ = c.First() {
		if err := c.Delete(); err != nil {
			return err
		}
		if err := content.Delete(k); err != nil {
			return err
		}
		count--
	}
	return nil
}

// List returns up to limit items, newest first, without their content.
// An item that cannot be decoded is listed by its ID alone, so that one
// bad item neither fails the list nor disappears from it.
func (s *Store) List(limit int) ([]Item, error) {
	var out []Item
	err := boltfile.View(s.db, func(tx *bolt.Tx) error {
		c := tx.Bucket(itemsBucket).Cursor()
		for k, v := c.Last(); k != nil && (limit <= 0 || len(out) < limit); k, v = c.Prev() {
			var it Item
			if err := json.Unmarshal(v, &it); err != nil {
				it = Item{ID: formatID(binary.BigEndian.Uint64(k)), Unreadable: err.Error()}
			}
			out = append(out, it)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list quarantine %s: %w", s.path, err)
	}
	return out, nil
}

// Get returns one item with its content, or ErrNotFound.
func (s *Store) Get(id string) (Item, error) {
	var it Item
	err := s.view(id, func(tx *bolt.Tx, k []byte) error {
		if err := json.Unmarshal(tx.Bucket(itemsBucket).Get(k), &it); err != nil {
			return err
		}
		it.Content = string(tx.Bucket(contentBucket).Get(k))
		return nil
	})
	return it, err
}

// Release marks an item released: the same content from the same server
// passes unscanned from now on (in a system flowd: for the item's user). Releasing twice changes nothing and
// returns the item as first released.
func (s *Store) Release(id string) (Item, error) {
	var it Item
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.update(id, func(tx *bolt.Tx, k []byte) error {
		items := tx.Bucket(itemsBucket)
		if err := json.Unmarshal(items.Get(k), &it); err != nil {
			return err
		}
		if !it.Released.IsZero() {
			return nil
		}
		it.Released = time.Now()
		meta, err := json.Marshal(it)
		if err != nil {
			return err
		}
		if err := items.Put(k, meta); err != nil {
			return err
		}
		return tx.Bucket(releasedBucket).Put([]byte(releaseKey(it.Session, it.Server, it.SHA256)), []byte(it.ID))
	})
	if err != nil {
		return Item{}, err
	}
	s.released[releaseKey(it.Session, it.Server, it.SHA256)] = true
	s.releasedFrom[it.Server] = true
	return it, nil
}

func (s *Store) view(id string, fn func(*bolt.Tx, []byte) error) error {
	return s.tx(id, false, fn)
}

func (s *Store) update(id string, fn func(*bolt.Tx, []byte) error) error {
	return s.tx(id, true, fn)
}

func (s *Store) tx(id string, write bool, fn func(*bolt.Tx, []byte) error) error {
	seq, ok := parseID(id)
	if !ok {
		return fmt.Errorf("%w: %q is not a quarantine ID (they look like q17)", ErrNotFound, id)
	}
	k := seqKey(seq)
	run := func(tx *bolt.Tx) error {
		if tx.Bucket(itemsBucket).Get(k) == nil {
			return fmt.Errorf("%w: %s (flowd quarantine list shows the items it keeps)", ErrNotFound, id)
		}
		return fn(tx, k)
	}
	var err error
	if write {
		err = boltfile.Update(s.db, run)
	} else {
		err = boltfile.View(s.db, run)
	}
	if err != nil && !errors.Is(err, ErrNotFound) {
		return fmt.Errorf("quarantine item %s in %s: %w", id, s.path, err)
	}
	return err
}

func formatID(seq uint64) string { return "q" + strconv.FormatUint(seq, 10) }

func parseID(id string) (uint64, bool) {
	n, err := strconv.ParseUint(strings.TrimPrefix(id, "q"), 10, 64)
	return n, err == nil && strings.HasPrefix(id, "q") && n > 0
}

func seqKey(seq uint64) []byte {
	return binary.BigEndian.AppendUint64(nil, seq)
}
