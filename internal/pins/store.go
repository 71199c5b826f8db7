package pins

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

var serversBucket = []byte("servers") // identity → Server

// Server is what is pinned for one server identity.
type Server struct {
	Name    string   `json:"name"`
	Command []string `json:"command"`
	// Pinned are the approved definitions, by tool name.
	Pinned map[string]Tool `json:"pinned"`
	// Pending are definitions seen but not approved: new tools, and tools
	// that differ from their pin. They are hidden until approved.
	Pending map[string]Tool `json:"pending,omitempty"`
	Since   time.Time       `json:"since"` // first seen
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

	mu      sync.Mutex
	servers map[string]*Server // every server, read on each tool call
}

// Open opens (creating it if needed) the pins file at path, waiting at
// most timeout (default 1s) for another process to release it.
func Open(path string, timeout time.Duration) (*Store, error) {
	if timeout <= 0 {
		timeout = time.Second
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("open tool pins %s: %w", path, err)
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: timeout})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("open tool pins %s: still locked by another process after %s (flowd holds it while it runs): %w", path, timeout, err)
	}
	if err != nil {
		return nil, fmt.Errorf("open tool pins %s: %w", path, err)
	}
	s := &Store{db: db, path: path, servers: map[string]*Server{}}
	err = db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(serversBucket)
		if err != nil {
			return err
		}
		return b.ForEach(func(k, v []byte) error {
			var srv Server
			if err := json.Unmarshal(v, &srv); err != nil {
				return fmt.Errorf("decode server %q: %w", strings.ReplaceAll(string(k), "\x00", " "), err)
			}
			s.servers[string(k)] = &srv
			return nil
		})
	})
	if err != nil {
		return nil, errors.Join(fmt.Errorf("open tool pins %s: %w", path, err), db.Close())
	}
	return s, nil
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
// holding them back: the server is being trusted on first use. A tool
// that matches its pin again loses its pending change.
func (s *Store) Observe(name string, command []string, tools []Tool, trust bool) (map[string]Change, error) {
	id := Identity(name, command)
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
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
	v, err := json.Marshal(srv)
	if err != nil {
		return fmt.Errorf("encode pins of %s: %w", srv.Name, err)
	}
	err = s.db.Update(func(tx *bolt.Tx) error {
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
	return same(a.Pinned, b.Pinned) && same(a.Pending, b.Pending)
}
