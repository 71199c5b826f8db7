// Package heldfile is the file in which flowd lists the sessions it holds
// (flow.Held) for the flowd that comes after it, and what that flowd
// makes of the file, whatever state it finds it in.
//
// The file is the user's to write, and so an agent's that runs as the
// user: it can delete, damage, fill or lock the file. None of that may
// make the next flowd start the sessions blank, as if they had read
// nothing: what cannot be read makes every session that starts in the
// next flow.session_idle_timeout start lost (Decide). What it cannot
// defend against: one who can write the file can also write a valid one
// that lists nothing, after a flowd that never held anything (a data dir
// wiped whole, store included, reads as a first start).
package heldfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/paths"
)

// Name is the file's name in the data dir.
const Name = paths.HeldSessions

// File is what the file holds.
type File struct {
	Sessions []flow.Held `json:"sessions"`
	// AllLostUntil: every session that starts before then starts lost
	// (flow.Tracker.LoseUntil), for Why.
	AllLostUntil time.Time `json:"all_lost_until,omitzero"`
	Why          string    `json:"why,omitempty"`
}

// Bounds on what Encode writes and Read reads. Written, a session takes
// at most maxEntry bytes (its key, at most six bytes a character as
// JSON, three texts of maxField, times), so MaxSessions of them stay far
// below MaxSize: honest data never reaches what the reader refuses.
const (
	MaxSize     = 16 << 20
	MaxSessions = 2048
	maxEntry    = 4 << 10
	maxField    = 512
)

// Encode returns f as the file holds it, bounded: each text (a path, a
// taint's reason) is cut to maxField bytes, and the sessions past
// MaxSessions, or whose entry is still over maxEntry, are left out, in
// which case every session that starts in the next idle is lost. Live
// sessions go first, then those dropped idle (Held.SweptAt), latest
// first; past MaxSessions these are left out alone: they ended, and
// remembering the latest of them is what the list can do.
func Encode(f File, now time.Time, idle time.Duration) []byte {
	out := File{Sessions: make([]flow.Held, 0, min(len(f.Sessions), MaxSessions)), AllLostUntil: f.AllLostUntil, Why: cut(f.Why)}
	sessions := slices.Clone(f.Sessions)
	slices.SortStableFunc(sessions, func(a, b flow.Held) int {
		if a.SweptAt.IsZero() != b.SweptAt.IsZero() {
			if a.SweptAt.IsZero() {
				return -1
			}
			return 1
		}
		return b.SweptAt.Compare(a.SweptAt)
	})
	left := 0
	for _, h := range sessions {
		h.Taint, h.Sensitive, h.SecretResult = cut(h.Taint), cut(h.Sensitive), cut(h.SecretResult)
		if len(out.Sessions) >= MaxSessions && !h.SweptAt.IsZero() {
			continue
		}
		if len(out.Sessions) >= MaxSessions || len(h.Session) > flow.MaxKey {
			left++
			continue
		}
		if b, err := json.Marshal(h); err != nil || len(b) > maxEntry {
			left++
			continue
		}
		out.Sessions = append(out.Sessions, h)
	}
	if left > 0 && now.Add(idle).After(out.AllLostUntil) {
		out.AllLostUntil = now.Add(idle)
		out.Why = fmt.Sprintf("flowd held %d sessions more than it could list (%d at most)", left, MaxSessions)
	}
	b, err := json.Marshal(out)
	if err != nil { // only strings and times: a bug
		panic(fmt.Sprintf("heldfile: %v", err))
	}
	return b
}

// cut cuts s so that it takes at most maxField bytes as JSON (where a
// control character takes six), on a character's boundary.
func cut(s string) string {
	cut := len(s) > maxField
	if cut { // as JSON it takes at least as many bytes
		s = s[:maxField]
	}
	for {
		b, _ := json.Marshal(s)
		if len(b) <= maxField {
			break
		}
		s, cut = s[:len(s)*maxField/len(b)], true
	}
	for cut && len(s) > 0 { // a character cut in two
		if r, size := utf8.DecodeLastRuneInString(s); r != utf8.RuneError || size > 1 {
			break
		}
		s = s[:len(s)-1]
	}
	if cut {
		s += "…"
	}
	return s
}

// Read reads the file at path. Only a regular file of at most MaxSize
// bytes is read: a FIFO would hold flowd, which reads this before it
// serves, for good.
func Read(path string) (File, error) {
	var f File
	fi, err := os.Lstat(path)
	if err != nil {
		return f, err
	}
	if !fi.Mode().IsRegular() {
		return f, fmt.Errorf("%s is not a regular file (%s)", path, fi.Mode().Type())
	}
	if fi.Size() > MaxSize {
		return f, fmt.Errorf("%s is %d bytes, more than the %d flowd writes", path, fi.Size(), MaxSize)
	}
	r, err := os.Open(path)
	if err != nil {
		return f, err
	}
	defer r.Close()
	dec := json.NewDecoder(io.LimitReader(r, MaxSize))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return File{}, fmt.Errorf("%s is damaged: %w", path, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return File{}, fmt.Errorf("%s is damaged: more after its end", path)
	}
	for _, h := range f.Sessions {
		if h.Session == "" || len(h.Session) > flow.MaxKey {
			return File{}, fmt.Errorf("%s is damaged: a session id flowd does not write (%d bytes)", path, len(h.Session))
		}
	}
	return f, nil
}

// Plan is what a starting flowd takes over from the one before it.
type Plan struct {
	Sessions []flow.Held
	// LostUntil, when not zero: every session that starts before then
	// starts lost, because of Why.
	LostUntil time.Time
	Why       string
}

// Decide is what a flowd starting at now makes of the file: read, the
// sessions it lists (and the time until which the one before it lost
// all); missing where no flowd ran before (ranBefore false), nothing; in
// any other case (missing though a flowd ran, unreadable, damaged, too
// large) every session that starts before now+idle starts lost.
func Decide(f File, readErr error, ranBefore bool, now time.Time, idle time.Duration) Plan {
	switch {
	case readErr == nil:
		p := Plan{Sessions: f.Sessions}
		if f.AllLostUntil.After(now) {
			p.LostUntil, p.Why = f.AllLostUntil, f.Why
		}
		return p
	case errors.Is(readErr, fs.ErrNotExist) && !ranBefore:
		return Plan{}
	case errors.Is(readErr, fs.ErrNotExist):
		return Plan{LostUntil: now.Add(idle), Why: "the list of sessions flowd holds (" + Name + ") is missing, though flowd has run here: removed"}
	}
	return Plan{LostUntil: now.Add(idle), Why: "the list of sessions flowd holds cannot be read: " + strings.TrimSpace(readErr.Error())}
}
