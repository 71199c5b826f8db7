package flow

import (
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// Held is a live session whose flow state matters beyond this flowd's
// life: it read data from inside (a result from a source that is not
// external, a credential on purpose) or was exposed to untrusted
// content. The flow state lives in memory, so a flowd that stops or is
// killed loses it; the daemon keeps the list of held sessions on disk,
// and the next flowd takes them over with Restore. Without it an agent
// that got flowd killed and started again would send what it had read
// as if it had read nothing (found with red team RT4-1's hook part).
type Held struct {
	Session string `json:"session"`
	Taint   string `json:"taint,omitempty"`
	// What the session read that makes a call to the network after it a
	// read-then-send (Session.SensitiveRead, SecretResult), and when.
	Sensitive      string    `json:"sensitive,omitempty"`
	SensitiveAt    time.Time `json:"sensitive_at,omitzero"`
	SecretResult   string    `json:"secret_result,omitempty"`
	SecretResultAt time.Time `json:"secret_result_at,omitzero"`
}

// Held lists the held sessions.
func (t *Tracker) Held() []Held {
	t.mu.Lock()
	all := make([]*Session, 0, len(t.sessions))
	for _, s := range t.sessions {
		all = append(all, s)
	}
	t.mu.Unlock()
	var out []Held
	for _, s := range all {
		s.mu.Lock()
		if s.held {
			out = append(out, Held{Session: s.key, Taint: s.taint, Sensitive: s.sensitive, SensitiveAt: s.sensitiveAt,
				SecretResult: s.secretResult, SecretResultAt: s.secretResultAt})
		}
		s.mu.Unlock()
	}
	return out
}

// MaxKey bounds a session's key. Session ids are the agents' to choose,
// and the held ones are written to disk: a longer id is known by its
// hash, so that what flowd writes of a session stays small whatever an
// agent names it.
const MaxKey = 256

// Key is the key of session id in the tracker and in Held: id itself, or
// "sha256:" and its hash when it is longer than MaxKey. Summaries keep
// the id (a session restored by its hash has only that).
func Key(id string) string {
	if len(id) <= MaxKey {
		return id
	}
	h := sha256.Sum256([]byte(id))
	return "sha256:" + hex.EncodeToString(h[:])
}

// LoseUntil makes every session that starts before until start as
// Restore leaves a session it takes over (forgotten, lost and held): for
// a flowd that cannot tell which sessions the one before it held (its
// list unreadable or damaged), so that none of them starts blank. An
// earlier until than the one set already changes nothing.
func (t *Tracker) LoseUntil(until time.Time) {
	t.mu.Lock()
	if until.After(t.lostUntil) {
		t.lostUntil = until
	}
	t.mu.Unlock()
	t.heldChanged()
}

// LostUntil is the time LoseUntil set, or zero.
func (t *Tracker) LostUntil() time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lostUntil
}

// WaitUntil waits until every session has recorded the results it was
// given (Session.WaitUntil), giving up at until: what Held lists then
// includes what they held, a secret found in a result just recorded too.
func (t *Tracker) WaitUntil(until time.Time) {
	t.mu.Lock()
	all := make([]*Session, 0, len(t.sessions))
	for _, s := range t.sessions {
		all = append(all, s)
	}
	t.mu.Unlock()
	for _, s := range all {
		s.WaitUntil(until)
	}
}

// IdleTimeout is how long a session lives idle (Options.IdleTimeout).
func (t *Tracker) IdleTimeout() time.Duration { return t.opts.IdleTimeout }

// HeldChanged receives a value, never more than one waiting, whenever
// what Held returns may have changed.
func (t *Tracker) HeldChanged() <-chan struct{} { return t.heldCh }

func (t *Tracker) heldChanged() {
	select {
	case t.heldCh <- struct{}{}:
	default:
	}
}

// Restore takes over sessions a previous flowd held. What they read was
// lost with it, so each is forgotten, as a session is past
// flow.max_memory_bytes: whatever it sends to a destination that is not
// internal is judged as carrying internal data, until the session is idle
// for flow.session_idle_timeout. A taint stays, and so do the reads that
// make a call to the network a read-then-send, with their times.
func (t *Tracker) Restore(hs []Held) {
	for _, h := range hs {
		s := t.Session(h.Session)
		s.forget()
		s.mu.Lock()
		s.lost = true
		if s.taint == "" {
			s.taint = h.Taint
		}
		if s.sensitive == "" {
			s.sensitive, s.sensitiveAt = h.Sensitive, h.SensitiveAt
		}
		if s.secretResult == "" {
			s.secretResult, s.secretResultAt = h.SecretResult, h.SecretResultAt
		}
		s.mu.Unlock()
		s.hold(false)
	}
}

// LostSecret says what secret a session whose flow state a flowd that
// ended lost may be sending: the latest credential or result holding a
// secret it read (that flowd listed it, Held), or, for a session lost
// without a list (LoseUntil), that flowd cannot tell; "" when it read
// none, or was not lost.
func (s *Session) LostSecret() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case !s.lost:
		return ""
	case s.sensitive != "":
		return s.sensitive
	case s.secretResult != "":
		return s.secretResult
	case s.lostUnknown:
		return "what it read before flowd started, which flowd could not tell"
	}
	return ""
}

// hold marks s held; changed says that what Held lists for it changed
// even if it was held already (a taint).
func (s *Session) hold(changed bool) {
	s.mu.Lock()
	changed = changed || !s.held
	s.held = true
	s.mu.Unlock()
	if changed {
		s.t.heldChanged()
	}
}

// LostSource names, among an analysis' sources, the results a flowd that
// has since ended held for the session.
const LostSource = "results held by a flowd that ended before this session did, restarted or killed"
