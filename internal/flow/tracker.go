package flow

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/flowd-dev/flowd/internal/budget"
	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/fingerprint"
	"github.com/flowd-dev/flowd/internal/hostexfil"
	"github.com/flowd-dev/flowd/internal/opaque"
	"github.com/flowd-dev/flowd/internal/secrets"
	"github.com/flowd-dev/flowd/internal/urlexfil"
)

// SecretScanBytes is how much of a result's text is read for secrets
// it holds (fingerprints take only MaxHashBytes).
const SecretScanBytes = 4 << 20

// Options bound what a session keeps.
type Options struct {
	// MaxOrigins is how many results a session keeps from external
	// sources, and as many from the others: a result evicts the oldest of
	// its kind, so a flood of fetched pages never pushes out what was read
	// from the user's systems (default 10,000; at most
	// fingerprint.LimitMaxOrigins).
	MaxOrigins   int
	MaxHashBytes int           // of each result that is fingerprinted (default 65,536); secrets are looked for in SecretScanBytes
	MinLength    int           // shortest string that matches on its own (default 20)
	IdleTimeout  time.Duration // a session idle this long is summarised and dropped (default 30 min)
	// MaxBytes bounds the memory of all sessions' origins together
	// (default 256 MiB). Past it the results from external sources are
	// forgotten first, least recently active session first; only if that
	// is not enough, all of the least recently active session's origins
	// (see Session.Check), and OnForget is told.
	MaxBytes int
	OnForget func(session string, freed int)
}

func (o Options) withDefaults() Options {
	if o.MaxOrigins <= 0 {
		o.MaxOrigins = 10000
	}
	if o.MaxHashBytes <= 0 {
		o.MaxHashBytes = 65536
	}
	if o.MinLength <= 0 {
		o.MinLength = 20
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = 30 * time.Minute
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = 256 << 20
	}
	return o
}

// Origin is a tool result that data may later be copied from.
type Origin struct {
	ID      uint64         `json:"id"`
	Server  string         `json:"server"`
	Tool    string         `json:"tool,omitempty"`
	Method  string         `json:"method"`
	Class   classify.Class `json:"class"`
	Time    time.Time      `json:"time"`
	Size    int            `json:"size"`
	Secrets []string       `json:"secrets,omitempty"` // types found in it
	// Published: what the server tells about itself (a listing of its
	// tools, prompts or resources, its handshake, completions it offers).
	// Given back to the same server it is how the server is used (a URI
	// read, an enum value passed), not data leaving; to any other
	// destination it is an origin like any other.
	Published bool `json:"published,omitempty"`
	// Paths are the files the call that returned it read, as its
	// arguments named them: a call that later names one whose result
	// held a secret may be sending that secret.
	Paths []string `json:"paths,omitempty"`
	// SecretOutput: the call that returned it reads a credential, and
	// says which (a secret store's command, a credential file, a tool
	// named for secrets). Its output is the secret, often bare with no
	// name beside it (op read prints the token alone): every run of it
	// that reads as random is kept as a secret (StoredSecret).
	SecretOutput string `json:"secret_output,omitempty"`
}

// StoredSecret is the type of a secret found by where it came from (a
// result of Origin.SecretOutput) rather than by its form.
const StoredSecret = "stored_secret"

// Tracker holds the flow state of every live session.
type Tracker struct {
	opts     Options
	detector *secrets.Detector
	mu       sync.Mutex
	sessions map[string]*Session
	nextID   atomic.Uint64 // not under mu: sessions take it holding their own lock
	bytes    int           // all sessions' accounted memory
	heldCh   chan struct{} // HeldChanged
	// lostUntil: a session that starts before then starts lost (LoseUntil).
	lostUntil time.Time
	// sweptBytes: the swept sessions' secret indexes.
	sweptBytes int
	// swept are the held sessions Expire dropped idle, by key, each for
	// SweptMemory from when it was first dropped: the same session coming
	// back gets back the secrets it read and what made it held, for
	// waiting costs an agent nothing (red team RT8-7: a key read, half an
	// hour idle, then sent, passed).
	swept map[string]*sweptSession
	// evicted are the hashes of the keys of swept sessions that had
	// read a secret and were forgotten past maxSwept, with when they
	// were swept: each comes back lost within SweptMemory.
	evicted map[uint64]time.Time
}

// NewTracker returns an empty tracker.
func NewTracker(o Options, d *secrets.Detector) *Tracker {
	return &Tracker{opts: o.withDefaults(), detector: d, sessions: make(map[string]*Session), heldCh: make(chan struct{}, 1),
		swept: make(map[string]*sweptSession), evicted: make(map[uint64]time.Time)}
}

// Session returns the state of session id, creating it.
func (t *Tracker) Session(id string) *Session {
	key := Key(id)
	t.mu.Lock()
	s := t.sessions[key]
	lost := false
	var back *sweptSession
	if s == nil {
		s = newSession(id, key, t)
		t.sessions[key] = s
		if lost = time.Now().Before(t.lostUntil); lost {
			s.forgotten, s.lost, s.held, s.lostUnknown = true, true, true, true
		}
		if back = t.swept[key]; back != nil {
			delete(t.swept, key)
			t.sweptBytes -= back.bytes
			if time.Since(back.held.SweptAt) >= SweptMemory {
				back = nil // remembered past SweptMemory: Held no longer lists it either
			}
		} else if len(t.evicted) > 0 {
			h := keyHash(key)
			if at, ok := t.evicted[h]; ok {
				delete(t.evicted, h)
				if time.Since(at) < SweptMemory {
					back = &sweptSession{listed: true, held: Held{Session: key, SweptAt: at, SecretResultAt: at,
						SecretResult: "a secret it had read, forgotten since with its session for room (more than 10,000 idle sessions remembered)"}}
				}
			}
		}
	}
	t.mu.Unlock()
	switch {
	case back != nil:
		s.comeBack(back)
	case lost:
		t.heldChanged()
	}
	return s
}

func (t *Tracker) newID() uint64 { return t.nextID.Add(1) }

// Expire removes the sessions idle since before now−IdleTimeout and returns
// their summaries; all returns every session (flowd stopping).
func (t *Tracker) Expire(now time.Time, all bool) []Summary {
	t.mu.Lock()
	var gone []*Session
	for id, s := range t.sessions {
		if all || s.idleSince(now) > t.opts.IdleTimeout {
			gone = append(gone, s)
			delete(t.sessions, id)
			t.bytes -= s.bytes
		}
	}
	t.mu.Unlock()
	out := make([]Summary, 0, len(gone))
	held := false
	for _, s := range gone {
		out = append(out, s.Summary(now))
		held = s.sweptTo(t, now, all) || held
	}
	if held {
		t.heldChanged()
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Session < out[j].Session })
	return out
}

// Bytes is the memory all sessions' origins are accounted for.
func (t *Tracker) Bytes() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.bytes
}

// account updates what s is accounted for and, past MaxBytes, forgets
// what the sessions read from external sources, then, if that is not
// enough, the origins of the least recently active sessions until all
// fit: s's own last, should it alone be over. External results go first
// because a flood of them costs an attacker nothing, and must not buy
// the forgetting of what was read from the user's own systems.
func (t *Tracker) account(s *Session) {
	if !t.settle(s) {
		return
	}
	for _, v := range t.leastRecent() {
		v.forgetExternal()
		if !t.settle(v) {
			return
		}
	}
	t.mu.Lock()
	var victims []*Session
	if t.bytes > t.opts.MaxBytes {
		all := make([]*Session, 0, len(t.sessions))
		last := make(map[*Session]time.Time, len(t.sessions))
		for _, v := range t.sessions {
			if v.bytes > 0 {
				all = append(all, v)
				last[v] = v.lastActive()
			}
		}
		sort.Slice(all, func(i, j int) bool { return last[all[i]].Before(last[all[j]]) })
		for _, v := range all {
			if t.bytes <= t.opts.MaxBytes {
				break
			}
			t.bytes -= v.bytes
			v.bytes = 0
			victims = append(victims, v)
		}
	}
	t.mu.Unlock()
	for _, v := range victims {
		freed := v.forget()
		if t.opts.OnForget != nil {
			t.opts.OnForget(v.id, freed)
		}
	}
}

// settle updates what s is accounted for and reports whether all sessions
// are over MaxBytes.
func (t *Tracker) settle(s *Session) (over bool) {
	size := s.size()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.sessions[s.key] == s { // else expired meanwhile
		t.bytes += size - s.bytes
		s.bytes = size
	}
	return t.bytes > t.opts.MaxBytes
}

// leastRecent is the sessions holding results from external sources,
// least recently active first.
func (t *Tracker) leastRecent() []*Session {
	t.mu.Lock()
	defer t.mu.Unlock()
	var all []*Session
	last := make(map[*Session]time.Time)
	for _, v := range t.sessions {
		if v.hasExternal() {
			all = append(all, v)
			last[v] = v.lastActive()
		}
	}
	sort.Slice(all, func(i, j int) bool { return last[all[i]].Before(last[all[j]]) })
	return all
}

// Session is the flow state of one agent session.
type Session struct {
	id  string
	key string // in the tracker's map and in Held: Key(id)
	t   *Tracker

	mu      sync.Mutex
	cond    *sync.Cond
	pending int  // results being recorded; checks wait for them
	inserts lane // recorded results' fingerprints, added to index in order
	scans   lane // recorded results' secret scans
	index   *fingerprint.Index
	secrets *fingerprint.SecretIndex // nil until the session has a secret
	origins map[uint64]*Origin
	// order is the origin ids of each kind (not external, external),
	// oldest first: each kind evicts its own.
	order   [2][]uint64
	values  valueIndex // short values of private results
	started time.Time
	last    time.Time
	sum     counts
	taint   string // why the session is exposed to untrusted content; "" when it is not
	// downloaded are the files the agent's commands fetched from outside
	// into (NoteDownloads), by absolute path, at most maxDownloads.
	downloaded map[string]bool
	// sensitive is the latest credential the session read on purpose (a
	// secret file, the environment), and when; secretResult the latest
	// result that held a secret.
	sensitive      string
	sensitiveAt    time.Time
	secretResult   string
	secretResultAt time.Time
	// shortest is the length of the shortest secret found in a result,
	// secretFiles the files those results came from.
	shortest    int
	secretFiles []string
	// seen are the random-looking runs results brought in, by the
	// server that sent them: ids a destination gave the session are not
	// data leaving when they go back to it. payload is what went out to
	// each destination lately (Payload).
	seen    map[string]string
	payload map[string][]sentPayload
	// sent is what recent calls sent each destination (joinSent);
	// covered what they sent of each known secret (piecedTogether).
	sent    map[string]sentTail
	covered map[uint64]*coverage
	// coverCalls counts the calls to destinations that are not internal
	// checked for pieces: what they sent ages with them.
	coverCalls int
	// forgotten: origins were dropped to keep all sessions within
	// MaxBytes, so data it sends may come from one flowd no longer knows.
	forgotten bool
	// kept are origins evicted past MaxOrigins that held a secret and
	// came from a source that is not external, oldest first in keptOrder:
	// the secret index still knows their secrets, and a hit needs its
	// origin to count.
	kept      map[uint64]*Origin
	keptOrder []uint64
	// held: what the session read matters past this flowd (Held); lost:
	// it was forgotten because the flowd that held its origins ended.
	held, lost bool
	// lostUnknown: lost without a list of what it read (LoseUntil).
	lostUnknown bool
	// sweptAt: when the session was first dropped idle while held (it
	// came back since, Tracker.swept).
	sweptAt time.Time
	bytes   int // accounted by the tracker, under its lock
}

type counts struct {
	origins   int
	edges     int
	flowTypes map[string]int
	risks     map[string]int
	tools     map[string]bool
	linked    map[string]bool
}

func newSession(id, key string, t *Tracker) *Session {
	now := time.Now()
	s := &Session{id: id, key: key, t: t, index: t.newIndex(), origins: make(map[uint64]*Origin),
		started: now, last: now,
		sum: counts{flowTypes: map[string]int{}, risks: map[string]int{}, tools: map[string]bool{}, linked: map[string]bool{}}}
	s.cond = sync.NewCond(&s.mu)
	return s
}

// newIndex is an empty fingerprint index: its tables grow with use.
func (t *Tracker) newIndex() *fingerprint.Index {
	// The options were validated by withDefaults; an error here is a bug.
	idx, err := fingerprint.NewIndex(fingerprint.Options{MaxOrigins: t.opts.MaxOrigins,
		MaxHashBytes: t.opts.MaxHashBytes, MinLength: t.opts.MinLength})
	if err != nil {
		panic(fmt.Sprintf("flow: fingerprint index: %v", err))
	}
	return idx
}

// originBytes estimates the memory of an origin's record with its map
// entries, which has no size of its own.
const originBytes = 256

// size is about how much memory the session's origins hold.
func (s *Session) size() int {
	s.mu.Lock()
	idx, n, sec := s.index, len(s.origins)+len(s.kept), s.secrets
	s.mu.Unlock()
	b := idx.Bytes() + n*originBytes + s.valueBytes()
	if sec != nil {
		b += sec.Bytes()
	}
	return b
}

// valueBytes is the memory of the session's short values.
func (s *Session) valueBytes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.values.size()
}

// forget drops the session's origins and marks it forgotten; it returns
// the memory they were accounted for.
func (s *Session) forget() int {
	freed := s.size()
	idx := s.t.newIndex()
	s.mu.Lock()
	s.index, s.secrets, s.forgotten = idx, nil, true
	s.origins, s.order = make(map[uint64]*Origin), [2][]uint64{}
	s.kept, s.keptOrder = nil, nil
	s.values.forget()
	s.seen = nil // what it sends back now counts as payload: stricter, not laxer
	s.mu.Unlock()
	return freed
}

// evict drops origin id, the oldest of its kind past MaxOrigins; the
// caller holds s.mu. One that held a secret and came from a source that is
// not external is kept aside (at most MaxOrigins of them): a flood of
// small results of the same kind, cheap for an agent reading local files,
// must not turn a known secret's leaving into nothing (red team RT6: the
// secret index still found it, encoded, but its hit named an origin no
// longer there and was dropped).
func (s *Session) evict(id uint64) {
	o := s.origins[id]
	delete(s.origins, id)
	if o == nil || len(o.Secrets) == 0 || kind(o.Class) != 0 {
		return
	}
	if s.kept == nil {
		s.kept = make(map[uint64]*Origin)
	}
	s.kept[id] = o
	s.keptOrder = append(s.keptOrder, id)
	if len(s.keptOrder) > s.t.opts.MaxOrigins {
		delete(s.kept, s.keptOrder[0])
		s.keptOrder = s.keptOrder[1:]
	}
}

// failSafe, deferred by a job that records a result on a lane's
// goroutine, turns a panic there (a bug) into what flowd does when it no
// longer knows what a session read: the session is forgotten, and every
// call it makes to an external destination is judged as carrying
// internal data (its flow_summary says "forgotten"). Uncaught, the panic
// would end flowd, and every shim would fail open.
func (s *Session) failSafe() {
	if recover() != nil {
		s.forget()
	}
}

// forgetExternal drops the origins from external sources. Unlike forget,
// it leaves the session knowing where its internal data is: what it sends
// is judged as before.
func (s *Session) forgetExternal() {
	s.mu.Lock()
	idx, sec := s.index, s.secrets
	for _, id := range s.order[1] {
		delete(s.origins, id)
	}
	s.order[1] = nil
	s.mu.Unlock()
	idx.ForgetExternal()
	if sec != nil {
		sec.ForgetExternal()
	}
}

func (s *Session) hasExternal() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.order[1]) > 0
}

// kind is the eviction kind of an origin of class c: external sources
// apart from all others, which may hold the user's data.
func kind(c classify.Class) int {
	if c == classify.External {
		return 1
	}
	return 0
}

func (s *Session) lastActive() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last
}

func (s *Session) idleSince(now time.Time) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return now.Sub(s.last)
}

// Begin announces a result that Record will add: checks of this session
// wait for it, so a call racing the result it copies is still caught.
func (s *Session) Begin() {
	s.mu.Lock()
	s.pending++
	s.mu.Unlock()
}

// Record adds a result as an origin and returns its id. content is the
// raw result (JSON); it is fingerprinted and scanned for secrets up to
// MaxHashBytes. Each Record must follow a Begin. The caller computes the
// fingerprints; adding them to the index and the secret scan each run on
// a lane of their own, beside the next result's fingerprinting (on other
// cores where there are some), and the result stays pending until both
// are done.
func (s *Session) Record(o Origin, content []byte) uint64 {
	limit := s.t.opts.MaxHashBytes
	o.ID = s.t.newID()
	o.Size = len(content)
	if o.Time.IsZero() {
		o.Time = time.Now()
	}
	s.mu.Lock()
	idx := s.index
	s.mu.Unlock()
	// The fingerprint parse gives the decoded text secrets are looked for
	// in, unless the content is not JSON read whole.
	p := idx.Prepare(content)
	text := p.Values
	if !p.OK && s.t.detector != nil {
		// Secrets are looked for well past what is fingerprinted: a key
		// on line 2,000 of a log is as much the user's as one on line 2,
		// and scanning is linear work off the verdict's path.
		text = Text(content, max(limit, SecretScanBytes))
	}
	origin := &o
	k := kind(o.Class)
	s.mu.Lock()
	s.origins[o.ID] = origin
	s.order[k] = append(s.order[k], o.ID)
	if len(s.order[k]) > s.t.opts.MaxOrigins {
		s.evict(s.order[k][0])
		s.order[k] = s.order[k][1:]
	}
	s.last = time.Now()
	s.sum.origins++
	s.sum.tools[o.Server+"/"+o.Tool] = true
	s.mu.Unlock()
	if k == 0 && !o.Published {
		s.hold(false)
	}

	var left atomic.Int32
	left.Store(1)
	if s.t.detector != nil {
		left.Store(2)
	}
	done := func() {
		if left.Add(-1) == 0 {
			s.t.account(s)
			s.mu.Lock()
			s.pending--
			s.cond.Broadcast()
			s.mu.Unlock()
		}
	}
	s.inserts.add(p.Size(), func() {
		defer done()
		defer s.failSafe()
		// Into the index Prepare read: if the session's origins were
		// forgotten meanwhile, this one goes with them.
		idx.Insert(origin.ID, p, k == 1)
	})
	if s.t.detector != nil {
		s.scans.add(len(text), func() {
			defer done()
			defer s.failSafe()
			s.scan(origin, text)
		})
	}
	return o.ID
}

// scan finds the secrets of one recorded result and indexes them for
// matching.
func (s *Session) scan(o *Origin, text string) {
	if o.Class == classify.Internal || o.Class == classify.Hybrid {
		vs := append(shortValues(text, false), birthDates(text, true)...)
		s.mu.Lock()
		s.values.addRead(o.ID, vs)
		s.mu.Unlock()
	}
	// Ids a destination hands out come in short results: the runs of the
	// first 64 KiB are enough, and cost no more than the scan.
	runs := opaque.Find(text[:min(len(text), 64<<10)])
	// A public identifier (a wallet address) in what arrives is no secret
	// read: only its leaving counts.
	found := s.t.detector.Scan(text)
	var public []string
	found = slices.DeleteFunc(found, func(f secrets.Finding) bool {
		if f.Public {
			public = append(public, f.Value)
		}
		return f.Public
	})
	if o.Class != classify.External || o.SecretOutput != "" {
		// A credential's output is the secret whatever else the call
		// reached (op read …; curl …: a line that also fetches is
		// external, red team review of RT9's fixes).
		found = append(found, unnamedSecrets(o, text, runs, found, public)...)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range runs {
		if s.seen == nil {
			s.seen = make(map[string]string)
		}
		if len(s.seen) < maxSeen && len(r.Text) <= 256 {
			s.seen[r.Text] = o.Server
		}
	}
	if len(found) == 0 {
		return
	}
	s.secretResult, s.secretResultAt = fmt.Sprintf("a result of %s/%s holding a secret (%s)", o.Server, o.Tool, found[0].Type), time.Now()
	s.held = true
	s.t.heldChanged()
	for _, p := range o.Paths {
		if !slices.Contains(s.secretFiles, p) && len(s.secretFiles) < maxSecretFiles {
			s.secretFiles = append(s.secretFiles, p)
		}
	}
	if s.secrets == nil {
		sec, err := fingerprint.NewSecretIndex(s.t.opts.MaxOrigins)
		if err != nil {
			panic(fmt.Sprintf("flow: secret index: %v", err)) // MaxOrigins was validated
		}
		s.secrets = sec
	}
	for _, f := range found {
		if !slices.Contains(o.Secrets, f.Type) {
			o.Secrets = append(o.Secrets, f.Type)
		}
		if n := utf8.RuneCountInString(f.Value); s.shortest == 0 || n < s.shortest {
			s.shortest = n
		}
		for _, v := range secretParts(f) {
			s.secrets.Add(o.ID, f.Type, v, o.Class == classify.External)
			// Its canonical form too, found in the arguments' canonical
			// views whatever case, separators or spacing it is sent in.
			if c := fingerprint.Canonical([]byte(v)); len(c) >= minCanonical && string(c) != v {
				s.secrets.Add(o.ID, f.Type, string(c), o.Class == classify.External)
			}
		}
	}
}

// unnamedSecrets are the secrets of a result from inside that have no
// name beside them for Scan to read, found: typed tokens (sk-…-api03-…,
// a prefix and a long random body: a key of whatever provider, of
// whatever length), which Scan leaves to what is sent since an id in a
// page read is no event, but which from inside are worth protecting;
// and, in the output of a call that reads a credential (SecretOutput),
// every run that reads as random (runs: opaque.Find's). Those found
// already are not found twice.
func unnamedSecrets(o *Origin, text string, runs []opaque.Run, found []secrets.Finding, public []string) []secrets.Finding {
	var out []secrets.Finding
	// have: v is a secret found already, or a public value (a
	// publishable key Scan judged public, found again by its form). A
	// bounded number of each are compared, so that a file of thousands
	// of tokens costs no more than its scan (what this finds is bounded
	// below maxCompared already).
	overlaps := func(w, v string) bool { return strings.Contains(w, v) || strings.Contains(v, w) }
	have := func(v string) bool {
		for _, w := range public[:min(len(public), maxCompared)] {
			if overlaps(w, v) {
				return true
			}
		}
		for _, fs := range [2][]secrets.Finding{found, out} {
			for _, f := range fs[:min(len(fs), maxCompared)] {
				if overlaps(f.Value, v) {
					return true
				}
			}
		}
		return false
	}
	if o.Class != classify.External {
		for _, f := range secrets.ScanBare([]byte(text[:min(len(text), canonicalLimit)]), false) {
			if len(out) == maxStoredSecrets {
				break
			}
			if !f.Example && !have(f.Value) {
				out = append(out, f)
			}
		}
	}
	if o.SecretOutput == "" {
		return out
	}
	pem := armoured(text[:min(len(text), 64<<10)]) // runs come from there
	kept := 0
	for _, r := range runs {
		if kept == maxStoredSecrets {
			break
		}
		if r.Len >= minStoredSecret && len(r.Text) <= maxStoredSecret && !have(r.Text) && !pem(r.Text) {
			out = append(out, secrets.Finding{Type: StoredSecret, Rule: "secret-output", Value: r.Text})
			kept++
		}
	}
	// A store's answer of a few short lines is the secret whole, random
	// or not: a password of words (vessel-cobalt-frisky-plume), one
	// shorter than a random run must be (Tr0ub4dor&3xQ).
	if answer := strings.TrimSpace(text); strings.Count(answer, "\n") < maxSecretLines {
		for _, l := range strings.Split(answer, "\n") {
			l = strings.TrimSpace(l)
			if len(l) >= minStoredLine && len(l) <= maxStoredSecret && !strings.HasPrefix(l, "$ ") && !strings.HasPrefix(l, "-----") && !strings.ContainsAny(l, " \t") && !have(l) && !pem(l) {
				out = append(out, secrets.Finding{Type: StoredSecret, Rule: "secret-output-line", Value: l})
			}
		}
	}
	return out
}

// armoured returns whether a run lies inside one of text's PEM blocks:
// Scan reads a private key's by its form, and a certificate's or a
// public key's are public, from whatever file (a TLS certificate read
// beside its key).
func armoured(text string) func(run string) bool {
	var blocks []string
	for rest := text; ; {
		i := strings.Index(rest, "-----BEGIN ")
		if i < 0 {
			break
		}
		j := strings.Index(rest[i:], "-----END ")
		if j < 0 {
			blocks = append(blocks, rest[i:])
			break
		}
		blocks = append(blocks, rest[i:i+j])
		rest = rest[i+j+len("-----END "):]
	}
	return func(run string) bool {
		for _, b := range blocks {
			if strings.Contains(b, run) {
				return true
			}
		}
		return false
	}
}

// minStoredSecret and maxStoredSecret bound the random runs of a
// credential's output kept as secrets: shorter ones are told from ids
// and words by their statistics no better than by chance; longer ones
// are blobs, found by their fingerprints. maxStoredSecrets bounds how
// many one result gives: a store's answer holds a few.
// A credential's output of at most maxSecretLines lines has each line
// of minStoredLine characters or more, with no blank, kept whole.
// maxCompared bounds the secrets a new one is compared with.
const (
	minStoredSecret  = 16
	maxStoredSecret  = 512
	maxStoredSecrets = 64
	maxSecretLines   = 4
	minStoredLine    = 6
	maxCompared      = 256
)

// Wait returns once every result announced with Begin is recorded: its
// fingerprints in the index, its secrets found and indexed.
func (s *Session) Wait() { s.WaitUntil(time.Time{}) }

// WaitUntil is Wait that gives up at until (zero: never), and reports
// whether every result was recorded by then.
func (s *Session) WaitUntil(until time.Time) bool {
	s.mu.Lock()
	idle := s.pending == 0
	s.mu.Unlock()
	if idle {
		// As a rule, as for a granted call and most checks: no timer to
		// make and stop, for nothing to wait for.
		return true
	}
	if !until.IsZero() {
		// The cond has no timeout of its own: a broadcast at until wakes
		// the loop below to look at the clock.
		t := time.AfterFunc(time.Until(until), func() {
			s.mu.Lock()
			s.cond.Broadcast()
			s.mu.Unlock()
		})
		defer t.Stop()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.pending > 0 {
		if !until.IsZero() && !time.Now().Before(until) {
			return false
		}
		s.cond.Wait()
	}
	return true
}

// Taint marks the session as exposed to untrusted content that tries to
// steer the model; reason says which (the first reason is kept). Data the
// session sends out afterwards may be what that content asked for.
func (s *Session) Taint(reason string) {
	s.mu.Lock()
	first := s.taint == ""
	if first {
		s.taint = reason
	}
	s.mu.Unlock()
	s.hold(first)
}

// maxDownloads bounds the files a session remembers as fetched.
const maxDownloads = 256

// NoteDownloads remembers files the agent's commands fetched from
// outside into: what a tool reads from them later is external content,
// whatever the reading tool is (found by a red team, RT7-17: a page
// fetched with curl -o and read with Read did not taint the session).
// Past maxDownloads the oldest are forgotten in no order.
func (s *Session) NoteDownloads(paths []string) {
	if len(paths) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.downloaded == nil {
		s.downloaded = map[string]bool{}
	}
	for _, p := range paths {
		if len(s.downloaded) >= maxDownloads {
			for k := range s.downloaded {
				delete(s.downloaded, k)
				break
			}
		}
		s.downloaded[p] = true
	}
}

// Downloaded reports whether NoteDownloads noted path.
func (s *Session) Downloaded(path string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.downloaded[path]
}

// Tainted reports whether Taint was called, and why.
func (s *Session) Tainted() (reason string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.taint, s.taint != ""
}

// ReadSensitive notes that the session read a credential (what says
// which): a call that reaches the network after it may be carrying it in
// a form no matcher recognises.
func (s *Session) ReadSensitive(what string) {
	s.mu.Lock()
	s.sensitive, s.sensitiveAt = what, time.Now()
	s.mu.Unlock()
	s.hold(true)
}

// SensitiveRead returns the latest credential the session read on
// purpose (ReadSensitive: a secret file, the environment) and when; ok is
// false when it read none.
func (s *Session) SensitiveRead() (what string, at time.Time, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sensitive, s.sensitiveAt, s.sensitive != ""
}

// SecretResult returns the latest recorded result that held a secret and
// when: a weaker sign than SensitiveRead, since documentation and code
// hold key-shaped strings too. A check (Check, Wait) sees the results
// recorded before it.
func (s *Session) SecretResult() (what string, at time.Time, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.secretResult, s.secretResultAt, s.secretResult != ""
}

// maxSeen bounds the runs remembered from results, maxSecretFiles the
// files remembered as holding secrets, per session.
const (
	maxSeen        = 4096
	maxSecretFiles = 32
)

// KnownSecrets returns the length of the shortest secret found in a
// result (0: none) and the files the results holding secrets came from.
func (s *Session) KnownSecrets() (shortest int, files []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shortest, slices.Clone(s.secretFiles)
}

type sentPayload struct {
	n  int
	at time.Time
}

// Payload adds the random-looking runs of a call to server, less those
// that server sent the session earlier, to what went there since
// now-window, and returns that call's part and the total: a secret cut
// into pieces over several calls adds up.
func (s *Session) Payload(server string, runs []opaque.Run, now time.Time, window time.Duration) (call, total int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range runs {
		if from, ok := s.seen[r.Text]; !ok || from != server {
			call += r.Len
		}
	}
	kept := s.payload[server][:0]
	for _, p := range s.payload[server] {
		if now.Sub(p.at) < window {
			kept = append(kept, p)
			total += p.n
		}
	}
	if call > 0 {
		if s.payload == nil {
			s.payload = make(map[string][]sentPayload)
		}
		if len(kept) < 64 {
			kept = append(kept, sentPayload{n: call, at: now})
		}
		total += call
	}
	if len(kept) > 0 || s.payload[server] != nil {
		s.payload[server] = kept
	}
	return call, total
}

// Link notes that another session ID was joined to this one.
func (s *Session) Link(other string) {
	s.mu.Lock()
	s.sum.linked[other] = true
	s.mu.Unlock()
}

// Edge is data of one origin found in an outgoing call.
type Edge struct {
	From     Origin `json:"from"`
	Kind     string `json:"kind"` // exact, field, normalized, substring, secret
	Hash     string `json:"hash,omitempty"`
	Length   int    `json:"length,omitempty"`
	Secret   string `json:"secret,omitempty"`   // type, when the edge is a secret
	Encoding string `json:"encoding,omitempty"` // how the secret was written
	Value    string `json:"value,omitempty"`    // kind of a short value (Kind "value"): code, number, id, email, phone
	FlowType string `json:"flow_type"`
	Risk     string `json:"risk"`
}

// Analysis is what a check found about one outgoing call.
type Analysis struct {
	Edges    []Edge   `json:"edges,omitempty"`
	Secrets  []string `json:"secrets,omitempty"` // secret types in the arguments, from origins or not
	FlowType string   `json:"flow_type,omitempty"`
	Risk     string   `json:"risk"`
	Sources  []string `json:"sources,omitempty"` // servers the data came from
	// SourceClass is the class of the riskiest edge's origin.
	SourceClass classify.Class `json:"source_class,omitempty"`
	// Hosts are host names and URLs in the arguments that carry encoded
	// data, and why (EncodedHostname or EncodedURL among Secrets).
	Hosts []string `json:"hosts,omitempty"`
	// Unfinished: the check ran out of its budget before it read all of
	// the arguments; what it found is all there is.
	Unfinished bool `json:"unfinished,omitempty"`
	// Overdue: the check was unfinished because the call waited too long
	// in all, from its arrival (flow.wait_budget): for its turn, for the
	// session's earlier results to be recorded, or for the CPU.
	Overdue bool `json:"overdue,omitempty"`
	// Forgotten: the session's origins were dropped to keep within
	// flow.max_memory_bytes, so the call is rated as carrying internal data.
	Forgotten bool `json:"forgotten,omitempty"`
	// Lost: they were dropped because the flowd that held them ended
	// (Restore); Forgotten is set too.
	Lost bool `json:"lost,omitempty"`
}

// EncCanonical names a known secret found in canonical form: letters and
// digits only, lower-cased, so in any case and with any separators.
const EncCanonical fingerprint.Encoding = "canonical"

// canonicalLimit is how much of each view the known-secret index reads,
// as it is and in canonical form.
const canonicalLimit = 256 << 10

// keyedLimit is how much of each text is compared, token by token, with
// the known secrets under a key (fingerprint.FindKeyed): the linear read
// of the arguments, as far as the detector reads them.
const keyedLimit = 1 << 20

// minCanonical is the shortest canonical secret looked for: shorter ones
// turn up in the letters of ordinary text by chance.
const minCanonical = 16

// EncodedHostname is the secret type of data encoded into the labels of a
// host name (hostexfil).
const EncodedHostname = "encoded_hostname"

// EncodedURL is the secret type of data hidden in a URL's nested escapes
// or in a random path segment (urlexfil).
const EncodedURL = "encoded_url"

// AssumeInternal judges what a call sends to a destination of class dest
// as internal data, for a call whose session's reads flowd cannot tell
// (source, among the analysis' sources, says why). An analysis that
// found internal data already is left as it is.
func (a *Analysis) AssumeInternal(dest classify.Class, source string) {
	if a.SourceClass == classify.Internal {
		return
	}
	a.FlowType = FlowType(classify.Internal, dest)
	a.SourceClass = classify.Internal
	a.Risk = MaxRisk(a.Risk, edgeRisk(a.FlowType, len(a.Secrets) > 0))
	a.Sources = append(a.Sources, source)
}

// ForgottenSource names, among an analysis' sources, the results flowd
// forgot to stay within its memory budget.
const ForgottenSource = "results forgotten past flow.max_memory_bytes"

// Check matches an outgoing call's arguments against the session's
// origins. dest is the destination's classification; server and tool name
// it for the summary; views are the arguments' decoded forms
// (unwrap.Views), matched too. The work is reported to b (nil: unlimited);
// when b runs out, Check stops and says so in Analysis.Unfinished.
func (s *Session) Check(server, tool string, dest classify.Result, args []byte, views [][]byte, b *budget.Budget) Analysis {
	return s.CheckWith(server, tool, dest, args, nil, views, b)
}

// CheckWith is Check of a message whose arguments come with extra: the
// rest of what the server reads (a tools/call's name and _meta), checked
// for secrets and flows as the arguments are, but apart from them, so that
// the arguments still match an origin whole.
func (s *Session) CheckWith(server, tool string, dest classify.Result, args, extra []byte, views [][]byte, b *budget.Budget) Analysis {
	return s.CheckUntil(server, tool, dest, args, extra, func() [][]byte { return views }, b, nil)
}

// CheckUntil is CheckWith that stops early once settled, told the types
// of the secrets the detector found in the message, says they decide the
// call (policy denies it whatever else the check would find): the known
// secrets are still looked for in the arguments and extra as they are,
// which names the secrets' origins, but not in the views, nor in
// canonical form, nor pieced together, and the arguments are not matched
// against the origins. Text made to be slow costs the check no more than
// the verdict needs.
//
// The views are asked of decode (unwrap.Views of args and extra) once
// the detector has read the message as it is, and only when that read
// neither settled the call nor gave up: building them costs as much as
// any matcher that reads them, and no reader of them could change such
// a verdict.
func (s *Session) CheckUntil(server, tool string, dest classify.Result, args, extra []byte, decode func() [][]byte, b *budget.Budget, settled func(secrets []string) bool) Analysis {
	var argSecrets []string // types
	var argValues []shortValue
	var argWhole map[string]bool // of argValues, those that are a member's whole value
	var argText string           // the arguments' text, for their dates
	complete := true
	var scanBuf textBuf // the detector's, for one text after another
	// A secret flowd never saw arrive is found in whatever encoding it
	// is sent: the detector reads the decoded views too, and the rest of
	// the message (extra) as the arguments, all of each.
	scan := func(parts [][]byte) {
		for _, part := range parts {
			if len(part) == 0 || !complete {
				continue
			}
			var found []string
			found, complete = scanText(s.t.detector, part, b, &scanBuf)
			argSecrets = append(argSecrets, found...)
		}
	}
	if s.t.detector != nil {
		if len(args) > 0 {
			argText = Text(args, 1<<20)
			argValues, argWhole = shortValuesWhole(argText, true)
		}
		scan([][]byte{args, extra})
	}
	early := complete && len(argSecrets) > 0 && settled != nil && settled(argSecrets)
	var views [][]byte
	if complete && !early {
		// Building them does not look at the budget: a check past it
		// goes no further.
		views = decode()
		complete = !b.Exhausted()
	}
	if s.t.detector != nil {
		scan(views)
		// Keys with no name beside them, by form (typed tokens; in a
		// view, a token inside binary data), where the rules found none.
		for i, part := range append([][]byte{args, extra}, views...) {
			if len(argSecrets) > 0 || !complete {
				break
			}
			for _, f := range secrets.ScanBare(part[:min(len(part), canonicalLimit)], i >= 2) {
				if !slices.Contains(argSecrets, f.Type) {
					argSecrets = append(argSecrets, f.Type)
				}
			}
		}
	}
	// A secret sent a piece per call is read in the join of the pieces
	// sent the same destination lately.
	var joined [][]byte
	if dest.Class != classify.Internal {
		joined = withViews(s.joinSent(server, args))
	}
	if s.t.detector != nil && !early {
		for _, j := range joined {
			if !complete {
				break
			}
			var found []string
			found, complete = scanText(s.t.detector, j, b, &scanBuf)
			argSecrets = append(argSecrets, found...)
		}
	}
	// The results the session received before this call are waited for,
	// outside the check's own time and within the budget's bound: a check
	// that could not wait for them all is unfinished.
	if complete {
		complete = b.Wait(s.WaitUntil)
	}
	// Asked again with what the views and joins added, before the
	// costlier matchers.
	decided := complete && len(argSecrets) > 0 && settled != nil && (early || settled(argSecrets))
	s.mu.Lock()
	idx, sec := s.index, s.secrets
	s.mu.Unlock()
	var secretHits []fingerprint.SecretMatch
	// Known secrets sent a few characters per call, in any order, each
	// piece in any encoding the views undo (reversed, base64, character
	// codes): the runs of each in the canonical forms of args, extra and
	// the views.
	var covers []fingerprint.Cover
	coverOn := dest.Class != classify.Internal
	if complete && sec != nil {
		secretHits, complete = sec.Find(args, b)
		if complete && len(extra) > 0 {
			var more []fingerprint.SecretMatch
			more, complete = sec.Find(extra, b)
			secretHits = append(secretHits, more...)
		}
		for _, v := range views {
			if !complete || decided {
				break
			}
			// The arguments are searched whole, their views as far as the
			// detector reads: Find copies what it reads.
			var hits []fingerprint.SecretMatch
			hits, complete = sec.Find(v[:min(len(v), canonicalLimit)], b)
			secretHits = append(secretHits, hits...)
		}
		for _, j := range joined {
			if !complete || decided {
				break
			}
			var hits []fingerprint.SecretMatch
			hits, complete = sec.Find(j, b)
			secretHits = append(secretHits, hits...)
		}
		var c []byte // each text's canonical form in turn, in one buffer
		for i, v := range append(append([][]byte{args, extra}, views...), joined...) {
			if decided {
				break
			}
			// As far as the detector reads (Text's limit): the canonical
			// copies stay within a constant, whatever the message.
			c = fingerprint.AppendCanonical(c[:0], v[:min(len(v), canonicalLimit)])
			if coverOn && complete && i < 2+len(views) {
				var cv, pieces []fingerprint.Cover
				if i < 2 {
					cv, complete = sec.Cover(c, b)
				} else {
					cv, complete = sec.CoverDecoded(c, b)
				}
				covers = fingerprint.MergeCovers(covers, cv)
				if complete {
					pieces, complete = sec.CoverPieces(v[:min(len(v), canonicalLimit)], b)
					covers = fingerprint.MergeCovers(covers, pieces)
				}
			}
			if !complete || len(c) < minCanonical {
				continue
			}
			var hits []fingerprint.SecretMatch
			hits, complete = sec.FindCanonical(c, b)
			for _, h := range hits {
				h.Encoding = EncCanonical
				secretHits = append(secretHits, h)
			}
		}
	}
	if complete && sec != nil && coverOn && !decided {
		// A known secret under a key, substituted or reordered: its
		// tokens of a secret's length compared with the secret itself.
		texts := make([][]byte, 0, 2+len(views))
		for _, v := range append([][]byte{args, extra}, views...) {
			texts = append(texts, v[:min(len(v), keyedLimit)])
		}
		var hits []fingerprint.SecretMatch
		hits, complete = sec.FindKeyed(b, texts...)
		secretHits = append(secretHits, hits...)
		if complete && len(joined) > 0 {
			hits, complete = sec.FindKeyedJoined(b, joined...)
			secretHits = append(secretHits, hits...)
		}
	}
	if complete && sec != nil && coverOn && !decided {
		// A secret the call carries whole is judged for that: its runs
		// are not added up, since a call stopped for it sent nothing,
		// and counting them would make every later call holding a few
		// of its characters (a word the key shares) carry it.
		covers = slices.DeleteFunc(covers, func(cv fingerprint.Cover) bool {
			return slices.ContainsFunc(secretHits, func(h fingerprint.SecretMatch) bool {
				return h.Secret == cv.Secret && h.Encoding != fingerprint.EncFragment
			})
		})
		secretHits = append(secretHits, s.piecedTogether(covers)...)
	}
	// Data sent URL-, base64- or hex-encoded is matched decoded too.
	var matches []fingerprint.Match
	all := append([][]byte{args}, views...)
	if len(extra) > 0 {
		all = append(all, extra)
	}
	if complete && !decided {
		var each [][]fingerprint.Match
		each, complete = idx.MatchWithin(b, all...)
		for _, m := range each {
			matches = append(matches, m...)
		}
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	s.last = time.Now()
	s.sum.tools[server+"/"+tool] = true
	var a Analysis
	a.Risk = RiskNone
	a.Unfinished = !complete
	a.Overdue = !complete && b.Overdue()
	seen := map[uint64]bool{}
	for _, h := range secretHits {
		o := s.origins[h.Secret]
		if o == nil {
			o = s.kept[h.Secret]
		}
		if o == nil || o.Published && o.Server == server {
			continue
		}
		a.add(Edge{From: *o, Kind: "secret", Secret: h.Label, Encoding: string(h.Encoding)}, dest.Class)
		seen[o.ID] = true
	}
	for _, m := range matches {
		o := s.origins[m.Origin]
		if o == nil || seen[o.ID] || o.Published && o.Server == server {
			continue
		}
		a.add(Edge{From: *o, Kind: string(m.Kind), Hash: m.Hash, Length: m.Length}, dest.Class)
	}
	if s.values.births {
		argValues = append(argValues, birthDates(argText, false)...)
	}
	for _, v := range s.values.sent(argValues, argWhole) {
		if o := s.origins[v.origin]; o != nil {
			a.addValue(Edge{From: *o, Kind: "value", Value: v.kind, Length: len(v.canon)}, dest.Class)
		}
	}
	for _, typ := range argSecrets {
		if !slices.Contains(a.Secrets, typ) {
			a.Secrets = append(a.Secrets, typ)
		}
	}
	if complete {
		// Data encoded into a host name leaves with the name's lookup,
		// whatever the rest of the call says.
		for _, v := range all {
			if h, ok := hostexfil.Find(v); ok {
				a.Secrets = append(a.Secrets, EncodedHostname)
				a.Hosts = append(a.Hosts, h.Host+" ("+h.Why+")")
				break
			}
		}
		// Data hidden in a URL's escapes or path, as written (the views
		// undo the escapes). A random segment that is a piece of something
		// the session read is an id it was given, and a flow if anything.
		for _, v := range [][]byte{args, extra} {
			if u, ok := urlexfil.Find(v); ok && (u.Escaped || len(a.Edges) == 0) {
				a.Secrets = append(a.Secrets, EncodedURL)
				a.Hosts = append(a.Hosts, u.URL+" ("+u.Why+")")
				break
			}
		}
	}
	if len(a.Edges) == 0 && len(a.Secrets) > 0 {
		// A secret with no known origin still leaves: rate it as coming
		// from inside, where secrets live.
		a.FlowType = FlowType(classify.Internal, dest.Class)
		a.SourceClass = classify.Internal
		a.Risk = edgeRisk(a.FlowType, true)
	}
	if s.forgotten && a.SourceClass != classify.Internal {
		// flowd no longer knows what this session read: whatever it
		// sends may be internal data, and is judged as such.
		a.Forgotten, a.Lost = true, s.lost
		if s.lost {
			a.AssumeInternal(dest.Class, LostSource)
		} else {
			a.AssumeInternal(dest.Class, ForgottenSource)
		}
	}
	if len(a.Secrets) > 0 || len(secretHits) > 0 {
		// A secret is reported once: the pieces that made it are not
		// joined again with the calls that follow.
		delete(s.sent, server)
	}
	for _, e := range a.Edges {
		s.sum.edges++
		s.sum.flowTypes[e.FlowType]++
	}
	s.sum.risks[a.Risk]++
	return a
}

// Text is scanned for secrets scanChunk bytes at a time, each piece
// beginning with the last scanOverlap bytes of the one before: more than
// any secret and the context its rule reads (secrets.maxMultiWindow), so
// a secret cut by a piece's end is whole in the next.
const (
	scanChunk   = 512 << 10
	scanOverlap = 64 << 10
)

// SecretShapes returns the types of the secrets texts hold by their form
// alone, whatever the session has seen, with no budget: for a message
// small enough to read whole when its session's check was cut short.
// complete is false when the scan gave up on text made to be slow.
func (t *Tracker) SecretShapes(texts ...[]byte) (types []string, complete bool) {
	if t.detector == nil {
		return nil, true
	}
	var buf textBuf
	complete = true
	for _, text := range texts {
		found, ok := scanText(t.detector, text, nil, &buf)
		complete = complete && ok
		for _, f := range found {
			if !slices.Contains(types, f) {
				types = append(types, f)
			}
		}
	}
	return types, complete
}

// scanText returns the types of the secrets in the text of a call's
// arguments, all of it, holding at most scanChunk bytes of it decoded, in
// buf, which the caller passes from one text to the next: a secret past
// the first megabyte leaves as surely. The work is reported to b;
// complete is false when the scan stopped (b ran out, or text made to be
// slow).
func scanText(d *secrets.Detector, raw []byte, b *budget.Budget, buf *textBuf) (types []string, complete bool) {
	r := newTextReader(raw)
	// The findings' values point into what was read, which is read
	// again: only their types are kept.
	scan := func(text []byte) bool {
		found, ok := d.ScanWithin(unsafe.String(&text[0], len(text)), b)
		for _, f := range found {
			if !slices.Contains(types, f.Type) {
				types = append(types, f.Type)
			}
		}
		return ok
	}
	if !r.json {
		// Text that is not JSON is its own text: read in place, in the
		// same pieces, rather than copied a piece at a time.
		text := r.raw
		for start := 0; start < len(text); start += scanChunk - scanOverlap {
			end := min(len(text), start+scanChunk)
			if !scan(text[start:end]) {
				return types, false
			}
			if end == len(text) {
				break
			}
		}
		return types, true
	}
	*buf = (*buf)[:0]
	for {
		r.read(buf, scanChunk)
		if len(*buf) == 0 {
			return types, true
		}
		if ok := scan(*buf); !ok || r.done() {
			return types, ok
		}
		*buf = (*buf)[:copy(*buf, (*buf)[max(0, len(*buf)-scanOverlap):])]
	}
}

// add records an edge and keeps the analysis' worst flow.
func (a *Analysis) add(e Edge, to classify.Class) {
	e.FlowType = FlowType(e.From.Class, to)
	e.Risk = edgeRisk(e.FlowType, e.Secret != "")
	a.Edges = append(a.Edges, e)
	if e.Secret != "" && !slices.Contains(a.Secrets, e.Secret) {
		a.Secrets = append(a.Secrets, e.Secret)
	}
	if !slices.Contains(a.Sources, e.From.Server) {
		a.Sources = append(a.Sources, e.From.Server)
	}
	if riskRank[e.Risk] > riskRank[a.Risk] || a.FlowType == "" {
		a.Risk, a.FlowType, a.SourceClass = MaxRisk(a.Risk, e.Risk), e.FlowType, e.From.Class
	}
}

// addValue records the edge of a short value: its risk says how sure the
// match is (valueRisk), below that of a secret.
func (a *Analysis) addValue(e Edge, to classify.Class) {
	e.FlowType = FlowType(e.From.Class, to)
	e.Risk = edgeRisk(e.FlowType, false)
	if e.FlowType == "internal→external" {
		e.Risk = valueRisk[e.Value]
		if e.Value == ValueOneTime {
			e.Secret = ValueOneTime
			if !slices.Contains(a.Secrets, e.Secret) {
				a.Secrets = append(a.Secrets, e.Secret)
			}
		}
	}
	a.Edges = append(a.Edges, e)
	if !slices.Contains(a.Sources, e.From.Server) {
		a.Sources = append(a.Sources, e.From.Server)
	}
	if riskRank[e.Risk] > riskRank[a.Risk] || a.FlowType == "" {
		a.Risk, a.FlowType, a.SourceClass = MaxRisk(a.Risk, e.Risk), e.FlowType, e.From.Class
	}
}

// Summary describes a session when it ends.
type Summary struct {
	Session   string         `json:"session"`
	Started   time.Time      `json:"started"`
	Duration  float64        `json:"duration_seconds"`
	Origins   int            `json:"origins"`
	Edges     int            `json:"edges"`
	FlowTypes map[string]int `json:"flow_types"`
	Risks     map[string]int `json:"risks"`
	Tools     []string       `json:"tools"`
	Linked    []string       `json:"linked_sessions,omitempty"`
	Tainted   string         `json:"tainted,omitempty"` // why the session was exposed to untrusted content
	// Forgotten: its origins were dropped to keep within flow.max_memory_bytes,
	// or (Lost) lost with the flowd that held them.
	Forgotten bool `json:"forgotten,omitempty"`
	Lost      bool `json:"lost,omitempty"`
}

// Summary reports the session so far.
func (s *Session) Summary(now time.Time) Summary {
	s.mu.Lock()
	defer s.mu.Unlock()
	sum := Summary{Session: s.id, Started: s.started, Duration: now.Sub(s.started).Seconds(),
		Origins: s.sum.origins, Edges: s.sum.edges, FlowTypes: maps.Clone(s.sum.flowTypes), Risks: maps.Clone(s.sum.risks),
		Tainted: s.taint, Forgotten: s.forgotten, Lost: s.lost}
	for t := range s.sum.tools {
		sum.Tools = append(sum.Tools, t)
	}
	for l := range s.sum.linked {
		sum.Linked = append(sum.Linked, l)
	}
	sort.Strings(sum.Tools)
	sort.Strings(sum.Linked)
	return sum
}

// secretParts is what of a finding the secret index looks for: the value,
// and for a private key also each line of its body, so that a few lines
// copied without the PEM header are still the key.
func secretParts(f secrets.Finding) []string {
	parts := []string{f.Value}
	if f.Type != "private_key" {
		return parts
	}
	for _, line := range strings.Split(f.Value, "\n") {
		if line = strings.TrimSpace(line); len(line) >= 40 && !strings.HasPrefix(line, "-----") {
			parts = append(parts, line)
		}
	}
	return parts
}
