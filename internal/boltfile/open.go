package boltfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// ErrDamaged is what every error about a damaged file matches.
var ErrDamaged = errors.New("damaged")

// DamagedError says which file is damaged and how it was found out.
type DamagedError struct {
	What   string // "activity store"
	Path   string
	Reason string
}

func (e *DamagedError) Error() string {
	return fmt.Sprintf("%s %s is damaged: %s", e.What, e.Path, e.Reason)
}

// Is makes errors.Is(err, ErrDamaged) true.
func (e *DamagedError) Is(target error) bool { return target == ErrDamaged }

// Options tune Open. Zero fields take the defaults.
type Options struct {
	// What names the file in messages, e.g. "activity store".
	What string
	// Timeout is how long Open waits for another process to release the
	// file. Default 1s.
	Timeout time.Duration
	// Buckets are created when missing.
	Buckets [][]byte
	// Init, if set, runs in the transaction that creates Buckets, so a
	// store can load what it keeps in memory; its error fails Open.
	Init func(*bolt.Tx) error
	// Recover moves a damaged file aside and opens a fresh one in its
	// place. Without it, Open changes nothing and returns a
	// *DamagedError.
	Recover bool
	// Now dates the name of a file moved aside. Default time.Now.
	Now func() time.Time
}

// Damage is a damaged file that Open moved aside.
type Damage struct {
	What    string    `json:"store"`
	Path    string    `json:"path"`
	MovedTo string    `json:"moved_to"`
	Reason  string    `json:"reason"`
	Time    time.Time `json:"time"`
}

// Open opens the bbolt file at path, creating it and its directory if
// needed, after checking it whole. A damaged file is moved aside to
// path.damaged-TIME and a fresh one created (Options.Recover), which the
// returned Damage describes; else it is reported as a *DamagedError. A
// file locked by another process is never judged or moved: Open fails
// after Options.Timeout instead.
func Open(path string, o Options) (*bolt.DB, *Damage, error) {
	if o.Timeout <= 0 {
		o.Timeout = time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, nil, fmt.Errorf("open %s %s: %w", o.What, path, err)
	}
	db, reason, err := open(path, o)
	if err != nil || reason == "" {
		return db, nil, err
	}
	if !o.Recover {
		return nil, nil, &DamagedError{What: o.What, Path: path, Reason: reason}
	}
	now := o.Now()
	moved, err := moveAside(path, now)
	if err != nil {
		return nil, nil, fmt.Errorf("open %s %s: it is damaged (%s) and cannot be moved aside: %w", o.What, path, reason, err)
	}
	d := &Damage{What: o.What, Path: path, MovedTo: moved, Reason: reason, Time: now}
	db, reason, err = open(path, o)
	if err == nil && reason != "" {
		err = &DamagedError{What: o.What, Path: path, Reason: "the fresh file too: " + reason}
	}
	if err != nil {
		return nil, nil, fmt.Errorf("open %s %s afresh after moving the damaged one to %s: %w", o.What, path, moved, err)
	}
	return db, d, nil
}

// open opens and checks the file; a non-empty reason says why it is
// damaged, and then the file is closed and known to be nobody else's.
func open(path string, o Options) (*bolt.DB, string, error) {
	reason, err := inspect(path)
	if err != nil {
		return nil, "", fmt.Errorf("open %s %s: %w", o.What, path, err)
	}
	if reason != "" {
		// Opening it for real would fault; a shared lock is enough to know
		// that no other flowd is using it before it is moved.
		if o.Recover {
			if err := probeLock(path, o); err != nil {
				return nil, "", err
			}
		}
		return nil, reason, nil
	}
	return openChecked(path, o)
}

// openChecked opens the file inspect passed, creates the buckets and runs
// Init.
func openChecked(path string, o Options) (*bolt.DB, string, error) {
	db, reason, err := openBolt(path, o)
	if err != nil || reason != "" {
		return nil, reason, err
	}
	// A panic from here on is not taken for damage, which would move the
	// file aside: inspect passed it, so it is more likely flowd's own bug.
	err = Update(db, func(tx *bolt.Tx) error {
		for _, name := range o.Buckets {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		if o.Init != nil {
			return o.Init(tx)
		}
		return nil
	})
	if err != nil {
		return nil, "", errors.Join(fmt.Errorf("open %s %s: %w", o.What, path, err), db.Close())
	}
	return db, "", nil
}

// openBolt is bolt.Open, where a fault or panic still means the file is
// damaged: inspect checks what bbolt reads, but should it miss something,
// a fault must not end flowd.
func openBolt(path string, o Options) (db *bolt.DB, reason string, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			// The panic leaks bolt.Open's descriptor: bbolt gives no handle
			// to close. It is once per damaged file, and the file is moved
			// aside, so nothing else waits on its lock.
			db, reason, err = nil, fmt.Sprintf("reading it failed: %v", r), nil
		}
	}()
	db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: o.Timeout})
	switch {
	case errors.Is(err, bolterrors.ErrTimeout):
		return nil, "", lockedError(path, o, err)
	case damaged(err):
		return nil, err.Error(), nil
	case err != nil:
		return nil, "", fmt.Errorf("open %s %s: %w", o.What, path, err)
	}
	return db, "", nil
}

func lockedError(path string, o Options, err error) error {
	return fmt.Errorf("open %s %s: still locked by another process after %s (flowd holds it while it runs: is another flowd running?): %w",
		o.What, path, o.Timeout, err)
}

// damaged tells bbolt's errors about the file's contents from the others
// (permissions, I/O).
func damaged(err error) bool {
	for _, e := range []error{bolterrors.ErrInvalid, bolterrors.ErrChecksum, bolterrors.ErrVersionMismatch, bolterrors.ErrInvalidMapping} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// probeLock fails when another process holds the file, without reading
// more of it than its header.
func probeLock(path string, o Options) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if recover() != nil {
			err = nil // damaged, as known already; what matters is the lock
		}
	}()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: o.Timeout, ReadOnly: true})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return lockedError(path, o, err)
	}
	if err == nil {
		db.Close()
	}
	return nil
}

// moveAside renames the damaged file to path.damaged-TIME, numbered when
// that name is taken.
func moveAside(path string, now time.Time) (string, error) {
	base := path + ".damaged-" + now.UTC().Format("20060102T150405Z")
	to := base
	for i := 2; ; i++ {
		if _, err := os.Lstat(to); errors.Is(err, fs.ErrNotExist) {
			break
		}
		if i > 100 {
			return "", fmt.Errorf("%s and 99 numbered names after it exist already", base)
		}
		to = fmt.Sprintf("%s-%d", base, i)
	}
	return to, os.Rename(path, to)
}

// Guard turns a fault or a panic while bbolt reads a mapped file into an
// error, for code that runs after Open checked the file (which another
// process could damage meanwhile), where a crash would take flowd down:
//
//	defer boltfile.Guard(&err)()
//
// Update and View are the transactions so guarded.
func Guard(err *error) func() {
	old := debug.SetPanicOnFault(true)
	return func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			*err = fmt.Errorf("reading the file failed (%v): %w", r, ErrDamaged)
		}
	}
}

// Update is db.Update, guarded.
func Update(db *bolt.DB, fn func(*bolt.Tx) error) (err error) {
	defer Guard(&err)()
	return db.Update(fn)
}

// View is db.View, guarded.
func View(db *bolt.DB, fn func(*bolt.Tx) error) (err error) {
	defer Guard(&err)()
	return db.View(fn)
}
