package approval

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// Errors of Gate.Check.
var (
	ErrNotSet = errors.New("no approval passphrase is set: set one at a terminal with `flowd passphrase set` (once an agent has run, it says how), then try again")
	ErrWrong  = errors.New("wrong passphrase; nothing was changed")
)

// LockedError is a check refused without trying: too many wrong guesses.
type LockedError struct{ Until time.Time }

func (e *LockedError) Error() string {
	return fmt.Sprintf("too many wrong passphrases: approvals are locked until %s", e.Until.Local().Format(time.TimeOnly))
}

// Lockout policy: free guesses, then a pause that doubles with each wrong
// guess up to a ceiling.
const (
	freeGuesses = 3
	firstPause  = 30 * time.Second
	maxPause    = time.Hour
)

// Gate checks the passphrases of the users a flowd serves, each with its
// own verifier file, and limits guessing. One check runs at a time, so
// guesses cannot be made in parallel either. The count of wrong guesses
// and the lockout are saved in the verifier file before a guess is
// checked: restarting flowd, even in the middle of a check, does not
// give fresh guesses, and a damaged file refuses every guess.
type Gate struct {
	// File is where uid's verifier lives.
	File func(uid int) string
	// Now is the clock; nil: time.Now.
	Now func() time.Time

	mu    sync.Mutex
	users map[int]*user
}

// user is one uid's verifier, read once: a file changed behind flowd's
// back while it runs is ignored until flowd restarts.
type user struct {
	path string
	v    Verifier
	set  bool
}

func (g *Gate) now() time.Time {
	if g.Now != nil {
		return g.Now()
	}
	return time.Now()
}

// load returns uid's state, reading its file the first time.
func (g *Gate) load(uid int) (*user, error) {
	if u, ok := g.users[uid]; ok {
		return u, nil
	}
	v, set, err := Load(g.File(uid))
	if err != nil {
		return nil, err
	}
	if g.users == nil {
		g.users = map[int]*user{}
	}
	u := &user{path: g.File(uid), v: v, set: set}
	g.users[uid] = u
	return u, nil
}

// Check reports whether pass is uid's passphrase: nil, ErrNotSet,
// ErrWrong, a *LockedError, or a damaged verifier.
func (g *Gate) Check(uid int, pass string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	u, err := g.load(uid)
	if err != nil {
		return err
	}
	return g.check(u, pass)
}

func (g *Gate) check(u *user, pass string) error {
	if !u.set {
		return ErrNotSet
	}
	now := g.now()
	if now.Before(u.v.LockedUntil) {
		return &LockedError{Until: u.v.LockedUntil}
	}
	// Counted as wrong, and saved, before it is checked: a guess that
	// cannot be counted is not checked.
	right := u.v
	u.v.Wrong++
	u.v.LockedUntil = lockout(u.v.Wrong, now)
	if err := Save(u.path, u.v); err != nil {
		return fmt.Errorf("passphrase not checked: %w", err)
	}
	if !u.v.Check(pass) {
		return ErrWrong
	}
	right.Wrong, right.LockedUntil = 0, time.Time{}
	u.v = right
	// Not saved, the guess stays counted: harmless for the one who knows.
	Save(u.path, u.v)
	return nil
}

// lockout is until when guessing stops after wrong guesses in a row.
func lockout(wrong int, now time.Time) time.Time {
	if wrong < freeGuesses {
		return time.Time{}
	}
	pause := maxPause
	if n := wrong - freeGuesses; n < 7 { // 30s << 7 > 1h
		pause = min(firstPause<<n, maxPause)
	}
	return now.Add(pause)
}

// Set sets uid's passphrase to pass, recording by as who set it.
// Changing one that is set needs the old one, checked as Check does;
// setting the first one needs no agent session live (CheckFirstSet),
// which around says, read when it is called.
func (g *Gate) Set(uid int, old, pass, by string, around func() Around) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	u, err := g.load(uid)
	if err != nil {
		return err
	}
	if u.set {
		if err := g.check(u, old); err != nil {
			return err
		}
	} else if err := CheckFirstSet(around()); err != nil {
		return err
	}
	v, err := New(pass, g.now())
	if err != nil {
		return err
	}
	v.By = by
	if err := Save(u.path, v); err != nil {
		return err
	}
	u.v, u.set = v, true
	return nil
}

// Status reports whether uid has a passphrase and since when.
func (g *Gate) Status(uid int) (set bool, since time.Time, err error) {
	set, since, _, err = g.Who(uid)
	return set, since, err
}

// Who is Status with who set the passphrase.
func (g *Gate) Who(uid int) (set bool, since time.Time, by string, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	u, err := g.load(uid)
	if err != nil {
		return false, time.Time{}, "", err
	}
	return u.set, u.v.Set, u.v.By, nil
}
