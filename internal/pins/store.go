package pins

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/flowd-dev/flowd/internal/boltfile"
)

var (
	serversBucket = []byte("servers") // identity → Server
	metaBucket    = []byte("meta")
	untrustedKey  = []byte("untrusted") // → Untrusted, once pins were lost
)

// Server is what is pinned for one server identity.
type Server struct {
	Name    string   `json:"name"`
	Command []string `json:"command"`
	// Pinned are the approved definitions, by tool name.
	Pinned map[string]Tool `json:"pinned"`
	// Pending are definitions seen but not approved: new tools, and tools
	// that differ from their pin. They are hidden until approved.
	Pending map[string]Tool `json:"pending,omitempty"`
	// Withheld are the tools whose definition flowd's scan found poisoned
	// when last listed, with why: hidden from the model whatever their
	// pin says.
	Withheld map[string]string `json:"withheld,omitempty"`
	Since    time.Time         `json:"since"` // first seen
	// Unreadable says why the server's stored pins could not be decoded:
	// it is known, so not trusted on first use, with nothing pinned.
	Unreadable string `json:"unreadable,omitempty"`
}

// Untrusted records that pins were lost with a damaged file: from then
// on no server is trusted on first use, since flowd can no longer tell a
// server it pinned before (whose tools may have changed since) from a new
// one.
type Untrusted struct {
	Since   time.Time `json:"since"`
	MovedTo string    `json:"moved_to"` // where the damaged file went
}

// Identity is how a server is told apart: its name and its command.
func Identity(name string, command []string) string {
	return name + "\x00" + strings.Join(command, "\x00")
}

// ErrNotFound is returned by Approve when there is nothing to approve.
var ErrNotFound = errors.New("nothing to approve")

// Store holds the pins. Its methods are safe for concurrent use.
type Store struct {
	db   *bolt.DB
	path string

	mu        sync.Mutex
	servers   map[string]*Server // every server, read on each tool call
	untrusted *Untrusted
	damage    *boltfile.Damage
}

// Options tune Open. Zero fields take the defaults.
type Options struct {
	// Timeout is how long Open waits for another process to release the
	// file. Default 1s.
	Timeout time.Duration
	// Recover moves a damaged file aside and starts a fresh one that
	// trusts no server on first use (see Untrusted); without it Open
	// reports the damage and changes nothing (a reader).
	Recover bool
}

// Open opens (creating it if needed) the pins file at path.
func Open(path string, o Options) (*Store, error) {
	s := &Store{path: path, servers: map[string]*Server{}}
	var err error
	s.db, s.damage, err = boltfile.Open(path, boltfile.Options{What: "pins store", Timeout: o.Timeout,
		Buckets: [][]byte{serversBucket, metaBucket}, Recover: o.Recover, Init: s.load})
	if err != nil {
		return nil, err
	}
	if s.damage != nil && s.untrusted == nil {
		u := Untrusted{Since: s.damage.Time, MovedTo: s.damage.MovedTo}
		if err := s.setUntrusted(u); err != nil {
			return nil, errors.Join(err, s.db.Close())
		}
	}
	return s, nil
}

// load reads every server into memory. A server whose record cannot be
// decoded stays known with nothing pinned: forgetting it would trust its
// tools anew on first use.
func (s *Store) load(tx *bolt.Tx) error {
	if v := tx.Bucket(metaBucket).Get(untrustedKey); v != nil {
		s.untrusted = &Untrusted{}
		// Undecodable, it still says pins were lost.
		_ = json.Unmarshal(v, s.untrusted)
	}
	return tx.Bucket(serversBucket).ForEach(func(k, v []byte) error {
		var srv Server
		if err := json.Unmarshal(v, &srv); err != nil {
			parts := strings.Split(string(k), "\x00")
			srv = Server{Name: parts[0], Command: parts[1:], Unreadable: err.Error()}
		}
		if srv.Pinned == nil {
			srv.Pinned = map[string]Tool{}
		}
		s.servers[string(k)] = &srv
		return nil
	})
}

func (s *Store) setUntrusted(u Untrusted) error {
	v, err := json.Marshal(u)
	if err != nil {
		return fmt.Errorf("encode untrusted mark: %w", err)
	}
	if err := boltfile.Update(s.db, func(tx *bolt.Tx) error { return tx.Bucket(metaBucket).Put(untrustedKey, v) }); err != nil {
		return fmt.Errorf("mark tool pins %s as lost: %w", s.path, err)
	}
	s.untrusted = &u
	return nil
}

// Damage is the damaged file Open moved aside, or nil.
func (s *Store) Damage() *boltfile.Damage { return s.damage }

// Untrusted says since when no server is trusted on first use because
// pins were lost, or nil.
func (s *Store) Untrusted() *Untrusted {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.untrusted == nil {
		return nil
	}
	u := *s.untrusted
	return &u
}

// Close closes the file.
func (s *Store) Close() error { return s.db.Close() }

// Known reports whether the server identity has been seen before.
func (s *Store) Known(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.servers[id] != nil
}

// Observe checks the tools a server listed against its pins and returns
// the ones to hide. trust pins tools that have no pin yet instead of
// holding them back: the server is being trusted on first use, unless
// pins were lost (Untrusted). A tool that matches its pin again loses its
// pending change.
func (s *Store) Observe(name string, command []string, tools []Tool, trust bool) (map[string]Change, error) {
	id := Identity(name, command)
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	trust = trust && s.untrusted == nil
	old := s.servers[id]
	srv := &Server{Name: name, Command: command, Pinned: map[string]Tool{}, Pending: map[string]Tool{}, Since: now}
	if old != nil {
		srv = clone(old)
	}
	hidden := map[string]Change{}
	for _, t := range tools {
		var pin *Tool
		if p, ok := srv.Pinned[t.Name]; ok {
			pin = &p
		}
		ch, differs := compare(pin, t)
		switch {
		case !differs:
			delete(srv.Pending, t.Name)
		case pin == nil && trust:
			t.Time = now
			srv.Pinned[t.Name] = t
		default:
			if p, ok := srv.Pending[t.Name]; ok && p.Hash == t.Hash {
				t.Time = p.Time
			} else {
				t.Time = now
			}
			srv.Pending[t.Name] = t
			hidden[t.Name] = ch
		}
	}
	if old != nil && equal(old, srv) {
		return hidden, nil
	}
	if err := s.put(id, srv); err != nil {
		return nil, err
	}
	return hidden, nil
}

// Withhold records which of the tools a server just listed its
// definition scan withholds, and why (reasons, by tool); the listed tools
// without a reason are no longer withheld. A server not seen yet is
// recorded by Observe first.
func (s *Store) Withhold(name string, command []string, listed []string, reasons map[string]string) error {
	id := Identity(name, command)
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.servers[id]
	if old == nil {
		return nil
	}
	srv := clone(old)
	for _, t := range listed {
		if why, ok := reasons[t]; ok {
			srv.Withheld[t] = why
		} else {
			delete(srv.Withheld, t)
		}
	}
	if equal(old, srv) {
		return nil
	}
	return s.put(id, srv)
}

// Pending returns the unapproved change of one tool of a server, if any.
func (s *Store) Pending(id, tool string) (Change, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	srv := s.servers[id]
	if srv == nil {
		return Change{}, false
	}
	t, ok := srv.Pending[tool]
	if !ok {
		return Change{}, false
	}
	var pin *Tool
	if p, ok := srv.Pinned[tool]; ok {
		pin = &p
	}
	ch, _ := compare(pin, t)
	return ch, true
}

// Approve pins the pending definitions of the servers called name: one
// tool's, or all of them when tool is "". It returns the tools approved.
func (s *Store) Approve(name, tool string) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var approved []string
	found := false
	for id, old := range s.servers {
		if old.Name != name {
			continue
		}
		found = true
		srv := clone(old)
		for n, t := range srv.Pending {
			if tool != "" && n != tool {
				continue
			}
			t.Time = time.Now()
			srv.Pinned[n] = t
			delete(srv.Pending, n)
			approved = append(approved, n)
		}
		if !equal(old, srv) {
			if err := s.put(id, srv); err != nil {
				return nil, err
			}
		}
	}
	switch {
	case !found:
		return nil, fmt.Errorf("%w: no server called %q has tools pinned (flowd pins list shows the servers)", ErrNotFound, name)
	case len(approved) == 0 && tool != "":
		return nil, fmt.Errorf("%w: server %q has no pending change to tool %q (flowd pins diff %s shows what is pending)", ErrNotFound, name, tool, name)
	}
	sort.Strings(approved)
	return approved, nil
}

// List returns every server, by name then command.
func (s *Store) List() []Server {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Server, 0, len(s.servers))
	for _, srv := range s.servers {
		out = append(out, *clone(srv))
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return strings.Join(out[i].Command, " ") < strings.Join(out[j].Command, " ")
	})
	return out
}

// put writes a server and makes it the current one; s.mu is held.
func (s *Store) put(id string, srv *Server) error {
	srv.Unreadable = "" // written whole again
	v, err := json.Marshal(srv)
	if err != nil {
		return fmt.Errorf("encode pins of %s: %w", srv.Name, err)
	}
	err = boltfile.Update(s.db, func(tx *bolt.Tx) error {
		return tx.Bucket(serversBucket).Put([]byte(id), v)
	})
	if err != nil {
		return fmt.Errorf("write pins of %s to %s: %w", srv.Name, s.path, err)
	}
	s.servers[id] = srv
	return nil
}

func clone(srv *Server) *Server {
	c := *srv
	c.Pinned = make(map[string]Tool, len(srv.Pinned))
	for k, v := range srv.Pinned {
		c.Pinned[k] = v
	}
	c.Pending = make(map[string]Tool, len(srv.Pending))
	for k, v := range srv.Pending {
		c.Pending[k] = v
	}
	c.Withheld = make(map[string]string, len(srv.Withheld))
	for k, v := range srv.Withheld {
		c.Withheld[k] = v
	}
	return &c
}

func equal(a, b *Server) bool {
	same := func(x, y map[string]Tool) bool {
		if len(x) != len(y) {
			return false
		}
		for k, v := range x {
			if w, ok := y[k]; !ok || w.Hash != v.Hash {
				return false
			}
		}
		return true
	}
	if len(a.Withheld) != len(b.Withheld) {
		return false
	}
	for k, v := range a.Withheld {
		if w, ok := b.Withheld[k]; !ok || w != v {
			return false
		}
	}
	return same(a.Pinned, b.Pinned) && same(a.Pending, b.Pending)
}
