package flow

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"time"

	"github.com/flowd-dev/flowd/internal/fingerprint"
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
	// SweptAt: the session was dropped idle then (Tracker.Expire), and is
	// remembered until SweptMemory after it.
	SweptAt time.Time `json:"swept_at,omitzero"`
}

// SweptMemory is how long a held session dropped idle is remembered
// (Tracker.swept). maxSwept bounds how many are; past it, or past a
// sixteenth of Options.MaxBytes for their secrets, the one swept first is
// forgotten.
const (
	SweptMemory = 24 * time.Hour
	maxSwept    = 10000
	// maxEvicted bounds the hashes of sessions that had read a secret
	// and were forgotten past maxSwept (Tracker.evicted): 8 bytes and a
	// time each.
	maxEvicted = 100_000
)

// sweptSession is what is remembered of a held session dropped idle: what
// Held lists, and the secrets it read from sources that are not external
// with the origins they came from (nil after a restart: a session
// restored from the list alone comes back lost).
type sweptSession struct {
	held        Held
	secrets     *fingerprint.SecretIndex
	kept        map[uint64]*Origin
	keptOrder   []uint64
	shortest    int
	secretFiles []string
	bytes       int
	// listed: restored from the list a flowd before this one wrote (Held),
	// which holds no secrets.
	listed bool
}

// sweptTo remembers s, dropped idle at now, in t if it is held and flowd
// is not stopping (all), and reports whether it was held.
func (s *Session) sweptTo(t *Tracker, now time.Time, all bool) bool {
	s.mu.Lock()
	h, ok := s.heldLocked()
	if !ok || all {
		s.mu.Unlock()
		return ok
	}
	if h.SweptAt.IsZero() {
		h.SweptAt = now
	}
	ss := &sweptSession{held: h, shortest: s.shortest, secretFiles: s.secretFiles}
	if s.lost || s.forgotten {
		// What it read is gone already: it comes back as lost as it
		// went, not blank.
		ss = ss.stub()
	} else if s.secrets != nil {
		// What it read from outside may be sent back as it pleases.
		s.secrets.ForgetExternal()
		ss.secrets, ss.bytes = s.secrets, s.secrets.Bytes()
		ss.kept = make(map[uint64]*Origin)
		for _, ids := range [][]uint64{s.keptOrder, s.order[0]} {
			for _, id := range ids {
				o := s.kept[id]
				if o == nil {
					o = s.origins[id]
				}
				if o != nil && len(o.Secrets) > 0 && kind(o.Class) == 0 {
					ss.kept[id] = o
					ss.keptOrder = append(ss.keptOrder, id)
				}
			}
		}
	}
	s.mu.Unlock()
	t.sweep(ss, now)
	return true
}

// sweep remembers ss while it is within SweptMemory.
func (t *Tracker) sweep(ss *sweptSession, now time.Time) {
	if now.Sub(ss.held.SweptAt) >= SweptMemory {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if old := t.swept[ss.held.Session]; old != nil {
		t.sweptBytes -= old.bytes
	}
	t.swept[ss.held.Session] = ss
	t.sweptBytes += ss.bytes
	// Past the bytes, the largest index goes, not the session: it comes
	// back lost (its random-looking sends denied) rather than blank, and
	// one session that read a flood of keys cannot push out the others'
	// (red team RT9-2: a made-up session's 480 keys swept the victim's
	// one key away, and it came back knowing nothing).
	for t.sweptBytes > t.opts.MaxBytes/16 {
		largest := ""
		for k, v := range t.swept {
			if largest == "" || v.bytes > t.swept[largest].bytes {
				largest = k
			}
		}
		t.sweptBytes -= t.swept[largest].bytes
		t.swept[largest] = t.swept[largest].stub()
	}
	// Past the count, the session swept first goes. If it had read a
	// secret, its key's hash is kept (evicted), and it comes back lost;
	// past maxEvicted of those too, no session that starts while one
	// would have been remembered can be told from it: they all start
	// lost (a flood of made-up sessions buys that, and no more).
	for len(t.swept) > maxSwept {
		oldest := ""
		for k, v := range t.swept {
			if oldest == "" || v.held.SweptAt.Before(t.swept[oldest].held.SweptAt) {
				oldest = k
			}
		}
		gone := t.swept[oldest]
		t.sweptBytes -= gone.bytes
		delete(t.swept, oldest)
		if gone.held.Sensitive+gone.held.SecretResult == "" {
			continue
		}
		if len(t.evicted) < maxEvicted {
			t.evicted[keyHash(oldest)] = gone.held.SweptAt
		} else if until := gone.held.SweptAt.Add(SweptMemory); until.After(t.lostUntil) {
			t.lostUntil = until
		}
	}
}

// keyHash is a session key's hash, as evicted keeps it.
func keyHash(key string) uint64 {
	h := sha256.Sum256([]byte(key))
	return binary.LittleEndian.Uint64(h[:8])
}

// stub is what is remembered of ss once its secrets are dropped for
// room: what Held lists, as for a session a flowd before this one
// listed, which comes back lost.
func (ss *sweptSession) stub() *sweptSession {
	return &sweptSession{held: ss.held, listed: true}
}

// comeBack gives s, just started, what it held when it was dropped idle:
// the secrets it had read, where it had them from, and what made it held
// (its taint, its credential reads). Remembered only from a list a flowd
// before this one wrote, which holds no secrets, one that had read a
// credential is restored as Restore leaves a session it takes over.
func (s *Session) comeBack(ss *sweptSession) {
	if ss.listed && ss.held.Sensitive+ss.held.SecretResult != "" {
		s.restore(ss.held)
		return
	}
	s.mu.Lock()
	s.takeHeldLocked(ss.held)
	s.secrets, s.kept, s.keptOrder = ss.secrets, ss.kept, ss.keptOrder
	s.shortest, s.secretFiles = ss.shortest, ss.secretFiles
	s.mu.Unlock()
	s.hold(false)
}

// takeHeldLocked gives s what made a session held (h) where s has none of
// its own: a session's own taint and reads are newer than a list's. The
// caller holds s.mu.
func (s *Session) takeHeldLocked(h Held) {
	if s.taint == "" {
		s.taint = h.Taint
	}
	if s.sensitive == "" {
		s.sensitive, s.sensitiveAt = h.Sensitive, h.SensitiveAt
	}
	if s.secretResult == "" {
		s.secretResult, s.secretResultAt = h.SecretResult, h.SecretResultAt
	}
	if s.sweptAt.IsZero() {
		s.sweptAt = h.SweptAt
	}
}

// heldLocked is s as Held lists it, if it is held; the caller holds s.mu.
func (s *Session) heldLocked() (Held, bool) {
	if !s.held {
		return Held{}, false
	}
	return Held{Session: s.key, Taint: s.taint, Sensitive: s.sensitive, SensitiveAt: s.sensitiveAt,
		SecretResult: s.secretResult, SecretResultAt: s.secretResultAt, SweptAt: s.sweptAt}, true
}

// Held lists the held sessions, those dropped idle within SweptMemory
// too.
func (t *Tracker) Held() []Held {
	t.mu.Lock()
	all := make([]*Session, 0, len(t.sessions))
	for _, s := range t.sessions {
		all = append(all, s)
	}
	out := make([]Held, 0, len(t.swept))
	now := time.Now()
	for _, ss := range t.swept {
		if now.Sub(ss.held.SweptAt) < SweptMemory {
			out = append(out, ss.held)
		}
	}
	t.mu.Unlock()
	for _, s := range all {
		s.mu.Lock()
		if h, ok := s.heldLocked(); ok {
			out = append(out, h)
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
//
// A session the previous flowd had dropped idle (Held.SweptAt) is
// remembered as that flowd did, and starts lost only if it comes back.
func (t *Tracker) Restore(hs []Held) {
	now := time.Now()
	for _, h := range hs {
		if !h.SweptAt.IsZero() {
			t.sweep(&sweptSession{held: h, listed: true}, now)
			continue
		}
		t.Session(h.Session).restore(h)
	}
	t.heldChanged()
}

// restore makes s what Restore makes a session it takes over.
func (s *Session) restore(h Held) {
	s.forget()
	s.mu.Lock()
	s.lost = true
	s.takeHeldLocked(h)
	s.mu.Unlock()
	s.hold(false)
}

// LostSecret says what secret a session whose flow state a flowd that
// ended lost, or that flowd forgot past Options.MaxBytes, may be sending:
// the latest credential or result holding a secret it read (that flowd
// listed it, Held), or, for a session lost without a list (LoseUntil),
// that flowd cannot tell; "" when it read none, or was neither lost nor
// forgotten.
func (s *Session) LostSecret() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case !s.lost && !s.forgotten:
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
