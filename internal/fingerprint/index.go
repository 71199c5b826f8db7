package fingerprint

import (
	"cmp"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/maphash"
	"slices"
	"sync"

	"github.com/flowd-dev/flowd/internal/budget"
)

// Options bound an Index. A zero field takes its default.
type Options struct {
	// MaxOrigins is how many origins an index keeps from each kind of
	// source (external, and the others); adding one more evicts the oldest
	// of its kind. Default 10,000; at most 25,000.
	MaxOrigins int
	// MaxHashBytes caps how much of each origin's content is examined
	// (max_response_hash_bytes). Default 65,536.
	MaxHashBytes int
	// MinLength is the shortest string, in bytes, that can match on its own.
	// Default 20.
	MinLength int
	// K is the window length, in bytes of normalised text, of substring
	// fingerprints: the shortest shared stretch reported. Default 32.
	// Unrelated English texts share 20–30 byte stretches ("through the
	// open window,") often enough that a shorter window matches by chance.
	K int
	// W is the stride of the fingerprints kept per origin. Any stretch of
	// W+K-1 normalised bytes an origin shares with the arguments is found
	// (shorter ones with probability about (len-K+1)/W); memory per origin
	// is proportional to 1/W. Default 16.
	W int
}

const (
	defaultMaxOrigins   = 10_000
	defaultMaxHashBytes = 65_536
	defaultMinLength    = 20
	defaultK            = 32
	defaultW            = 16
	// LimitMaxOrigins is the largest MaxOrigins: slots are uint16, two
	// kinds of source with room for spares.
	LimitMaxOrigins = 25_000
	minK            = 8 // shorter windows could never be informative
	maxK            = 1024
)

func (o Options) withDefaults() (Options, error) {
	if o.MaxOrigins == 0 {
		o.MaxOrigins = defaultMaxOrigins
	}
	if o.MaxHashBytes == 0 {
		o.MaxHashBytes = defaultMaxHashBytes
	}
	if o.MinLength == 0 {
		o.MinLength = defaultMinLength
	}
	if o.K == 0 {
		o.K = defaultK
	}
	if o.W == 0 {
		o.W = defaultW
	}
	switch {
	case o.MaxOrigins < 1 || o.MaxOrigins > LimitMaxOrigins:
		return o, fmt.Errorf("fingerprint: max origins %d out of range 1..%d", o.MaxOrigins, LimitMaxOrigins)
	case o.MaxHashBytes < 1:
		return o, fmt.Errorf("fingerprint: max hash bytes %d must be positive", o.MaxHashBytes)
	case o.MinLength < 1:
		return o, fmt.Errorf("fingerprint: min length %d must be positive", o.MinLength)
	case o.K < minK || o.K > maxK:
		return o, fmt.Errorf("fingerprint: window length K %d out of range %d..%d", o.K, minK, maxK)
	case o.W < 1:
		return o, fmt.Errorf("fingerprint: stride W %d must be positive", o.W)
	}
	return o, nil
}

// Kind says how an origin's data reappeared, strongest first.
type Kind string

const (
	// KindExact: a string in the arguments (or all of them) equals the
	// origin's whole content.
	KindExact Kind = "exact"
	// KindField: a string in the arguments equals one of the origin's JSON
	// string values.
	KindField Kind = "field"
	// KindNormalized: equal after lower-casing, dropping whitespace,
	// decoding escapes and re-serialising JSON canonically.
	KindNormalized Kind = "normalized"
	// KindSubstring: a stretch of normalised text of at least K bytes
	// is shared.
	KindSubstring Kind = "substring"
)

func (k Kind) strength() int {
	switch k {
	case KindExact:
		return 3
	case KindField:
		return 2
	case KindNormalized:
		return 1
	}
	return 0
}

// Match is one origin whose data appears in the arguments, by its
// strongest evidence.
type Match struct {
	Origin uint64
	Kind   Kind
	// Hash is the hex SHA-256/128 of the argument string that matched, or
	// the 48-bit window fingerprint for KindSubstring.
	Hash string
	// Length is how many bytes matched: of the string for the exact kinds,
	// of normalised text for KindSubstring (approximate: the span between
	// the first and last shared fingerprint).
	Length int
}

// Index remembers a session's origins. It is safe for concurrent use.
//
// Two tables map hashes to origin slots. One holds unit hashes (whole
// content and each string value, raw and normalised; seeded 64-bit). The
// other holds window fingerprints: of each normalised text, the first
// informative K-byte window of every run of W windows. Match looks up every
// window of the arguments, so any W consecutive windows an origin shares
// contain one it kept. This positional sampling replaces winnowing, which
// picks windows by content so that two sparse samples still meet: with one
// side dense, the same guarantee (W+K-1 shared bytes are always found) costs
// 1/W fingerprints per byte instead of 2/(W+1).
//
// Origins from external sources are kept apart from the others: each kind
// has its own MaxOrigins and evicts only its own oldest, so a flood of
// fetched pages cannot push out what was read from the user's systems.
//
// Where origins share a hash, the newest is reported, except that an
// origin from an external source never takes a hash from a live one that
// is not: text an attacker can publish must not hide where the user's own
// data came from. Evicted slots are
// only marked dead; their entries are purged in one sweep when a table
// needs room or spare slots run out, so eviction is O(1) and purges are
// amortised over many additions.
type Index struct {
	opts Options

	mu    sync.RWMutex
	units table
	grams table
	// seen filters the lookups of windows in grams: it has the bit of
	// every key put there.
	seen keyFilter
	ids  []uint64 // by slot
	dead []bool   // by slot: evicted, entries not yet purged
	ext  []bool   // by slot: the origin came from an external source
	// live is each kind's slots (not external, external) in insertion
	// order, oldest at head.
	live   [2][]uint16
	head   [2]int
	free   []uint16 // purged slots ready for reuse
	nDead  int
	spares int
	sink   uint64 // keeps Insert's touch loads from being optimised away

	preparers sync.Pool // *extractor for Prepare
	scratch   sync.Pool // *matcher for Match
}

// NewIndex returns an empty index.
func NewIndex(opts Options) (*Index, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	seed := maphash.MakeSeed()
	x := &Index{opts: o, spares: max(16, o.MaxOrigins/4)}
	x.preparers.New = func() any {
		return &extractor{minLen: o.MinLength, maxUnit: o.MaxHashBytes, seed: seed, keepValues: true}
	}
	x.scratch.New = func() any { return &matcher{ex: extractor{minLen: o.MinLength, maxUnit: o.MaxHashBytes, seed: seed}} }
	return x, nil
}

// Len is the number of origins held.
func (x *Index) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.live[0]) - x.head[0] + len(x.live[1]) - x.head[1]
}

// Bytes is about how much memory the index holds: its tables and slots.
func (x *Index) Bytes() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.units.bytes() + x.grams.bytes() + x.seen.bytes() + 8*cap(x.ids) + cap(x.dead) + cap(x.ext) + 2*(cap(x.live[0])+cap(x.live[1])+cap(x.free))
}

// Salts keep the three kinds of unit hash apart in one table.
const (
	saltWhole uint64 = 0x9e3779b97f4a7c15
	saltField uint64 = 0xbf58476d1ce4e5b9
	saltNorm  uint64 = 0x94d049bb133111eb
)

// unitKey is the table key of a unit hash. Units are hashed with a seeded
// 64-bit hash, not SHA-256: it is many times faster and, its seed being
// private to the process, as hard to collide on purpose. SHA-256/128 is
// computed only for what Match reports.
func unitKey(sum uint64, salt uint64) uint64 { return validKey(sum ^ salt) }

// Prints are a tool result's fingerprints: Prepare computes them without
// the index's lock, Insert adds them. Values is the result's strings,
// keys too, decoded and joined by newlines, when the result is one JSON
// document within MaxHashBytes (OK true): the text its secrets are looked
// for in, which would otherwise take a second pass to decode.
type Prints struct {
	Values string
	OK     bool
	units  []uint64 // table keys of its whole values and fields
	grams  []uint64 // its kept windows
}

// Size is the memory p's fingerprints hold, in bytes.
func (p *Prints) Size() int { return 8*(len(p.units)+len(p.grams)) + len(p.Values) }

// Add records a tool result as origin id, from a source that is not
// external: Prepare, then Insert.
func (x *Index) Add(id uint64, content []byte) { x.Insert(id, x.Prepare(content), false) }

// Prepare fingerprints a tool result, its raw JSON or text; only its first
// MaxHashBytes are examined. Any number may run at once, beside Insert and
// Match.
func (x *Index) Prepare(content []byte) *Prints {
	whole := len(content) <= x.opts.MaxHashBytes
	content = content[:min(len(content), x.opts.MaxHashBytes)]
	ex := x.preparers.Get().(*extractor)
	defer func() {
		if cap(ex.dec)+cap(ex.norm)+cap(ex.values) <= maxPooledScratch {
			x.preparers.Put(ex)
		}
	}()
	ex.run(content)
	p := &Prints{units: make([]uint64, 0, 2*len(ex.units))}
	if whole && ex.parsed {
		p.Values, p.OK = string(ex.values), true
	}
	for _, u := range ex.units {
		salt := saltField
		if u.whole {
			salt = saltWhole
		}
		p.units = append(p.units, unitKey(u.rawHash, salt), unitKey(u.normHash, saltNorm))
	}
	// Keep the first informative window of each run of W: the arguments
	// are searched window by window, so any W consecutive windows of an
	// origin include a kept one.
	n := 0
	for _, t := range ex.texts {
		n += len(t)/x.opts.W + 1
	}
	p.grams = make([]uint64, 0, n)
	for _, t := range ex.texts {
		p.grams = sampleKeys(p.grams, t, x.opts.K, x.opts.W)
	}
	return p
}

// Insert adds the fingerprints p of a tool result as origin id; external
// says that it came from an external source. Origins of each kind are
// evicted in the order they were inserted.
func (x *Index) Insert(id uint64, p *Prints, external bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	slot := x.newSlot(id, external)
	put := (*table).put
	if external {
		put = x.putExternal
	}
	x.makeRoom(&x.units, len(p.units))
	for _, key := range p.units {
		put(&x.units, key, slot)
	}
	x.makeRoom(&x.grams, len(p.grams))
	x.seen.fit(&x.grams, len(p.grams))
	for b := 0; b < len(p.grams); b += touchBatch {
		batch := p.grams[b:min(b+touchBatch, len(p.grams))]
		// As in Match: the home cells of a batch are loaded together,
		// overlapping their cache misses, before the puts use them.
		x.sink += x.grams.touch(batch)
		for _, key := range batch {
			put(&x.grams, key, slot)
			x.seen.add(key)
		}
	}
}

// putExternal puts key for the slot of an external origin unless a live
// origin that is not external holds it.
func (x *Index) putExternal(t *table, key uint64, slot uint16) {
	t.putUnless(key, slot, func(old uint16) bool { return !x.dead[old] && !x.ext[old] })
}

// ForgetExternal drops the origins that came from external sources and
// hands back the memory they took.
func (x *Index) ForgetExternal() {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, s := range x.live[1][x.head[1]:] {
		x.dead[s] = true
		x.nDead++
	}
	x.live[1], x.head[1] = x.live[1][:0], 0
	if x.nDead > 0 {
		x.purge()
	}
	// purge shrinks only a mostly empty table; what the external origins
	// took is handed back whenever a rebuild gives some back.
	for _, t := range []*table{&x.units, &x.grams} {
		if t.capacity() > minTableCap && t.n*2 < t.capacity() {
			t.resize()
		}
	}
}

// makeRoom readies t for m more entries, once per origin rather than per
// entry. It purges evicted origins before it grows a table, so the dead
// never cost memory.
func (x *Index) makeRoom(t *table, m int) {
	if t.roomFor(m) {
		return
	}
	if x.nDead > 0 {
		x.purge()
	}
	if !t.roomFor(m) {
		t.rebuild(t.n + m)
	}
}

// newSlot evicts the oldest origin of id's kind if it has MaxOrigins and
// returns a slot for id.
func (x *Index) newSlot(id uint64, external bool) uint16 {
	k := 0
	if external {
		k = 1
	}
	if len(x.live[k])-x.head[k] >= x.opts.MaxOrigins {
		old := x.live[k][x.head[k]]
		x.head[k]++
		x.dead[old] = true
		x.nDead++
		if x.head[k] > len(x.live[k])/2 {
			x.live[k] = append(x.live[k][:0], x.live[k][x.head[k]:]...)
			x.head[k] = 0
		}
	}
	var slot uint16
	switch {
	case len(x.free) > 0:
		slot = x.free[len(x.free)-1]
		x.free = x.free[:len(x.free)-1]
	case len(x.ids) < 2*x.opts.MaxOrigins+x.spares:
		slot = uint16(len(x.ids))
		x.ids = append(x.ids, 0)
		x.dead = append(x.dead, false)
		x.ext = append(x.ext, false)
	default:
		x.purge()
		slot = x.free[len(x.free)-1]
		x.free = x.free[:len(x.free)-1]
	}
	x.ids[slot] = id
	x.ext[slot] = external
	x.live[k] = append(x.live[k], slot)
	return slot
}

// purge removes the entries of dead slots and frees the slots.
func (x *Index) purge() {
	x.units.purge(x.dead)
	x.grams.purge(x.dead)
	for s, d := range x.dead {
		if d {
			x.dead[s] = false
			x.free = append(x.free, uint16(s))
		}
	}
	x.nDead = 0
}

const (
	maxPooledScratch = 1 << 20
	// touchBatch windows have their home cells loaded together before they
	// are looked up: independent loads overlap their cache misses, where
	// a lookup loop waits for each in turn.
	touchBatch = 32
)

// matcher is the scratch space of one Match call. Its memory is the
// arguments' decoded and normalised text and a few bounded buffers: window
// keys are computed keyChunk at a time and hits are folded into chains as
// they are found, so neither grows with the arguments.
type matcher struct {
	ex    extractor
	keys  []uint64 // of the windows the filter lets through
	maybe []int    // the indices of those windows
	sink  uint64   // keeps touch loads from being optimised away
	best  []Match
	at    map[uint16]int   // slot → index in best
	open  map[uint16]chain // slot → the stretch being followed in the current text
}

// chain is a stretch of one origin shared with the text being matched:
// the positions of its first and last window hits.
type chain struct {
	first, last int
	key         uint64 // of the first hit
}

// keyChunk is how many windows Match hashes and looks up at a time.
const keyChunk = 4096

// Match reports the origins whose data appears in args, one Match per
// origin with its strongest evidence, strongest first. args is the
// outgoing call's raw JSON or text and is examined whole.
func (x *Index) Match(args []byte) []Match {
	m, _ := x.MatchWithin(nil, args)
	return m[0]
}

// MatchWithin is Match of each text in turn, with one scratch space: an
// outgoing call and its decoded views (unwrap.Views) cost the memory of
// the largest of them, not of all. Its work, a few units per byte of the
// texts whatever they hold, is reported to b (nil: unlimited); when b
// runs out it stops at its next look, a few thousand windows on, and
// complete is false: what it found so far is all there is.
func (x *Index) MatchWithin(b *budget.Budget, texts ...[]byte) (found [][]Match, complete bool) {
	m := x.scratch.Get().(*matcher)
	defer func() {
		// Scratch grown by unusually large arguments is left to the GC.
		if cap(m.ex.dec)+cap(m.ex.norm) <= maxPooledScratch {
			x.scratch.Put(m)
		}
	}()
	found = make([][]Match, len(texts))
	for i, t := range texts {
		if found[i], complete = x.match(m, t, b); !complete {
			return found, false
		}
	}
	return found, true
}

// Work units, besides the extractor's bytes: a window looked up, and a
// window that hits an origin (map updates, a stretch opened or closed).
const (
	windowWork = 1
	hitWork    = 4
)

func (x *Index) match(m *matcher, args []byte, b *budget.Budget) ([]Match, bool) {
	m.ex.run(args)
	m.best = m.best[:0]
	if m.at == nil {
		m.at, m.open = make(map[uint16]int), make(map[uint16]chain)
	}
	clear(m.at)
	// The extraction is linear in args (documents nested in strings are
	// read at most maxNest more times); it is not cut short, only counted.
	if !b.Spend(m.ex.work) {
		return nil, false
	}

	x.mu.RLock()
	defer x.mu.RUnlock()
	work := 0
	for i := range m.ex.units {
		u := &m.ex.units[i]
		if u.n > x.opts.MaxHashBytes {
			continue // longer than any origin string that was hashed
		}
		work += 3 * windowWork
		// Evidence kept has its string hashed with SHA-256.
		if s, ok := x.liveUnit(unitKey(u.rawHash, saltWhole)); ok && m.note(s, KindExact, u.n, u.hash) {
			work += u.n
		}
		if s, ok := x.liveUnit(unitKey(u.rawHash, saltField)); ok && m.note(s, KindField, u.n, u.hash) {
			work += u.n
		}
		if s, ok := x.liveUnit(unitKey(u.normHash, saltNorm)); ok && m.note(s, KindNormalized, u.n, u.hash) {
			work += u.n
		}
	}
	k, w := x.opts.K, x.opts.W
	for _, t := range m.ex.texts {
		clear(m.open)
		// A window's key depends on its bytes alone: chunks that overlap
		// by k-1 bytes give every window once.
		for start := 0; start+k <= len(t); start += keyChunk {
			if !b.Spend(work) {
				return nil, false
			}
			work = 0
			// Only the windows the filter lets through are looked up,
			// in order, where they were.
			chunk := t[start:min(len(t), start+keyChunk+k-1)]
			m.keys, m.maybe = gramKeys(m.keys[:0], m.maybe[:0], chunk, k, &x.seen)
			work += windowWork * (len(chunk) - k + 1)
			for at := 0; at < len(m.maybe); at += touchBatch {
				end := min(at+touchBatch, len(m.maybe))
				m.sink += x.grams.touch(m.keys[at:end])
				for n, i := range m.maybe[at:end] {
					key := m.keys[at+n]
					if s, ok := x.grams.get(key); ok && !x.dead[s] {
						work += hitWork
						m.hit(s, start+i, key, k, w, x.opts.MinLength)
					}
				}
			}
		}
		for s, c := range m.open {
			work += hitWork
			m.close(s, c, k, x.opts.MinLength)
		}
	}
	if !b.Spend(work) {
		return nil, false
	}

	out := make([]Match, len(m.best))
	for i, e := range m.best {
		out[i] = e
		out[i].Origin = x.ids[e.Origin]
	}
	slices.SortFunc(out, func(a, b Match) int {
		return cmp.Or(
			cmp.Compare(b.Kind.strength(), a.Kind.strength()),
			cmp.Compare(b.Length, a.Length),
			cmp.Compare(a.Origin, b.Origin),
		)
	})
	return out, true
}

func (x *Index) liveUnit(k uint64) (uint16, bool) {
	s, ok := x.units.get(k)
	return s, ok && !x.dead[s]
}

// note keeps the strongest evidence per slot; Origin holds the slot until
// Match resolves it to an id. hash gives Match.Hash, computed only for
// evidence kept; note reports whether it kept (and hashed) this one.
func (m *matcher) note(slot uint16, kind Kind, length int, hash func() string) bool {
	c := Match{Origin: uint64(slot), Kind: kind, Length: length}
	i, ok := m.at[slot]
	if ok {
		b := m.best[i]
		if cmp.Or(cmp.Compare(kind.strength(), b.Kind.strength()), cmp.Compare(length, b.Length)) <= 0 {
			return false
		}
	}
	c.Hash = hash()
	if ok {
		m.best[i] = c
		return true
	}
	m.at[slot] = len(m.best)
	m.best = append(m.best, c)
	return true
}

// hit turns a window hit into substring evidence. Hits of one origin in
// one text that lie at most 2W apart belong to one shared stretch (kept
// windows are at most 2W-1 apart in the origin); its length is from the
// first hit to the end of the last window. Windows come in text order, so
// a hit further on closes the origin's stretch.
func (m *matcher) hit(slot uint16, pos int, key uint64, k, w, minLen int) {
	c, ok := m.open[slot]
	if ok && pos-c.last <= 2*w {
		c.last = pos
		m.open[slot] = c
		return
	}
	if ok {
		m.close(slot, c, k, minLen)
	}
	m.open[slot] = chain{first: pos, last: pos, key: key}
}

// close notes a finished stretch long enough to count.
func (m *matcher) close(slot uint16, c chain, k, minLen int) {
	if n := c.last - c.first + k; n >= minLen {
		m.note(slot, KindSubstring, n, func() string {
			var key [8]byte
			binary.BigEndian.PutUint64(key[:], c.key)
			return hex.EncodeToString(key[2:])
		})
	}
}
