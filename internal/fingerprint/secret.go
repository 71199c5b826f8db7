package fingerprint

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/flowd-dev/flowd/internal/budget"
	"github.com/flowd-dev/flowd/internal/jsontext"
	"github.com/flowd-dev/flowd/internal/unwrap"
)

// Encoding names the form in which a known secret reappeared.
type Encoding string

const (
	EncRaw       Encoding = "raw"
	EncJSON      Encoding = "json-escaped" // \uXXXX or other JSON escapes
	EncURL       Encoding = "url-encoded"  // %XX
	EncHex       Encoding = "hex"          // lower or upper case
	EncBase64    Encoding = "base64"
	EncBase64URL Encoding = "base64url"
	EncCase      Encoding = "case-changed" // a single-case secret (hex, base32) in the other case
	EncFragment  Encoding = "fragment"     // a piece of a long secret, as when it is split across fields
)

// fragmentLen is the length of the secret pieces searched for: long
// enough that a piece of a random secret does not turn up by chance. The
// pieces start every fragmentStride bytes, or further apart in a long
// secret, which has at most maxFragments of them.
const (
	fragmentLen    = 16
	fragmentStride = 4
	maxFragments   = 32
)

// SecretMatch is a known secret found in text: the id and label it was
// added with.
type SecretMatch struct {
	Secret   uint64
	Label    string
	Encoding Encoding
}

// MinSecretLength is the shortest secret a SecretIndex accepts: shorter
// strings turn up by chance, and their base64 forms even more so.
const MinSecretLength = 8

// SecretIndex recognises known secrets (found in origins by the secrets
// detector) when they reappear in text raw or re-encoded: JSON- or
// URL-escaped, hex, or base64 in either alphabet — also as part of a longer
// base64 blob, at any byte alignment, and with the blob wrapped over lines
// — in the other case (a single-case secret), or in pieces. It is safe for
// concurrent use.
//
// Find takes time linear in the text, whatever the text and the secrets:
// an attacker who knows the secrets' shapes (or planted look-alikes in an
// earlier result) can make text that nearly matches at every offset, and
// flowd must still answer before the shim gives up. So the text is not
// compared with each secret at each offset; instead it is decoded once
// into views (JSON-unescaped, URL-decoded, without white space, hex- and
// base64-decoded at every alignment, only around where a secret's hex or
// base64 may begin), and one Aho-Corasick automaton of
// all secrets, their other-case forms and their pieces reads each view in
// one pass. The automaton is rebuilt, at the next Find, when the secrets
// have changed.
//
// Secrets arrive from internal and from external sources. Those from
// external sources (a fetched page full of key-shaped strings) have their
// own, smaller pool, so that a flood of them cannot push out the secrets
// read from the user's own systems, and a value known from those keeps
// its id and label when an external source repeats it: published text
// does not change where a secret is taken to come from.
type SecretIndex struct {
	max int

	mu      sync.Mutex
	secrets []secretSlot      // by slot number
	free    []uint32          // slots to reuse
	pools   [2][]uint32       // live slots by pool (internal, external), oldest first
	byValue map[string]uint32 // value → slot
	// set finds the needles of the live secrets; needles names each
	// needle's secret and form; pieces finds the secrets' pieces. All are
	// nil when stale.
	set     *needleSet
	needles []needle
	pieces  *pieceSet
	starts  *encodedStarts // where the hex or base64 of a needle may begin
	cover   *coverSet      // the grams Cover looks for; nil when stale
	keyed   *keyedSet      // the forms FindKeyed compares; nil when stale
	// keyedScratch is FindKeyed's, kept from one call to the next.
	keyedScratch *keyedScratch
	// longest is the length of the longest needle or piece: how much
	// of a view read a chunk at a time one chunk shares with the next.
	longest int
	// cost is about what the live secrets take, their automaton built.
	cost int
}

type secretSlot struct {
	id    uint64
	label string
	value string
}

// needle is one searched form of a secret.
type needle struct {
	slot uint32
	form form
}

// form is which form of its secret a needle is.
type form uint8

const (
	formRaw  form = iota
	formCase      // a single-case secret in the other case
)

// maxExternalSecrets bounds the external pool: a secret costs about
// 1.5 KB of automaton, and one that arrived from outside matters less.
const maxExternalSecrets = 1024

// NewSecretIndex returns an index that keeps at most max secrets from
// internal sources and at most max (and maxExternalSecrets) from external
// ones, forgetting the oldest of each.
func NewSecretIndex(max int) (*SecretIndex, error) {
	if max < 1 {
		return nil, fmt.Errorf("fingerprint: secret index size %d must be positive", max)
	}
	return &SecretIndex{max: max, byValue: make(map[string]uint32)}, nil
}

// Add records secret under id and label (what Find reports: the origin it
// came from, its type); external says that it arrived from an external
// source. Adding a known value again updates its id and label, and moves
// a secret from the external pool to the internal one, except that an
// external source never takes over a secret of the internal pool.
// Secrets shorter than MinSecretLength are ignored.
func (x *SecretIndex) Add(id uint64, label, secret string, external bool) {
	if len(secret) < MinSecretLength {
		return
	}
	pool := 0
	if external {
		pool = 1
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if s, ok := x.byValue[secret]; ok {
		i := slices.Index(x.pools[1], s)
		if external && i < 0 {
			return
		}
		x.secrets[s].id, x.secrets[s].label = id, label
		if !external && i >= 0 {
			x.pools[1] = slices.Delete(x.pools[1], i, i+1)
			x.push(0, s)
			x.cover, x.keyed = nil, nil // both read the internal pool
		}
		return
	}
	var slot uint32
	if n := len(x.free); n > 0 {
		slot = x.free[n-1]
		x.free = x.free[:n-1]
	} else {
		slot = uint32(len(x.secrets))
		x.secrets = append(x.secrets, secretSlot{})
	}
	// A copy, not a window into the text the secret was found in, which
	// may be large.
	value := strings.Clone(secret)
	x.secrets[slot] = secretSlot{id: id, label: label, value: value}
	x.byValue[value] = slot
	x.cost += secretCost(value)
	x.push(pool, slot)
	x.set, x.needles, x.pieces, x.cover, x.keyed = nil, nil, nil, nil, nil
}

// push appends slot to pool, forgetting the pool's oldest when it is full.
func (x *SecretIndex) push(pool int, slot uint32) {
	limit := x.max
	if pool == 1 {
		limit = min(limit, maxExternalSecrets)
	}
	if len(x.pools[pool]) == limit {
		x.drop(x.pools[pool][0])
		x.pools[pool] = x.pools[pool][1:]
	}
	x.pools[pool] = append(x.pools[pool], slot)
}

// drop forgets the secret in slot; the caller takes it off its pool.
func (x *SecretIndex) drop(slot uint32) {
	delete(x.byValue, x.secrets[slot].value)
	x.cost -= secretCost(x.secrets[slot].value)
	x.secrets[slot] = secretSlot{}
	x.free = append(x.free, slot)
}

// ForgetExternal forgets the secrets of the external pool.
func (x *SecretIndex) ForgetExternal() {
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.pools[1]) == 0 {
		return
	}
	for _, slot := range x.pools[1] {
		x.drop(slot)
	}
	x.pools[1] = nil
	x.set, x.needles, x.pieces, x.cover, x.keyed = nil, nil, nil, nil, nil
}

// Bytes is about how much memory the index takes, its automaton built.
func (x *SecretIndex) Bytes() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.byValue) == 0 {
		return 0
	}
	return 2*startBits/8 + x.cost // the automaton's and the pieces' start filters
}

// secretCost is about what secret s takes: its value and slot, about 30
// bytes per automaton node (one a byte, twice over for a single-case
// secret, searched in the other case too), about 40 bytes a piece, about
// 1,300 bytes a character for what Cover looks for (its runs, strides and
// short pieces, each forwards and backwards, and the chains' trigrams in
// four forms: 53 KB for a 40-character key, measured; 13 KB before the
// strides and short pieces), and about 130 bytes a form for where its hex
// or base64 may begin (four keys, their bits). Measured: 1.3 KB for a
// 40-byte token, before Cover and those keys.
func secretCost(s string) int {
	nodes, forms := len(s), 1
	if up, low := strings.ToUpper(s), strings.ToLower(s); (s == up) != (s == low) {
		nodes, forms = 2*nodes, 2
	}
	pieces := 0
	if n := len(s); n >= 2*fragmentLen-8 {
		pieces = min(maxFragments, (n-fragmentLen)/fragmentStride+1)
	}
	return 96 + len(s) + 30*nodes + 40*pieces + 1300*min(len(s), coverMaxLen) + 130*forms
}

// build makes the automaton of the live secrets' needles and returns the
// work it took.
func (x *SecretIndex) build() int {
	var forms [][]byte
	pieces := newPieceSet()
	work := 0
	for _, pool := range x.pools {
		for _, slot := range pool {
			s := x.secrets[slot].value
			forms = append(forms, []byte(s))
			x.needles = append(x.needles, needle{slot, formRaw})
			// Hex and base32 secrets mean the same in either case.
			if up, low := strings.ToUpper(s), strings.ToLower(s); (s == up) != (s == low) {
				if s == up {
					forms = append(forms, []byte(low))
				} else {
					forms = append(forms, []byte(up))
				}
				x.needles = append(x.needles, needle{slot, formCase})
			}
			// Pieces let a secret cut in two (half in one field, half in
			// another) still be found: any run of fragmentLen+stride-1
			// bytes of it holds a whole piece. Short secrets have none: a
			// piece must be much shorter than the whole.
			if n := len(s); n >= 2*fragmentLen-8 {
				stride := max(fragmentStride, (n-fragmentLen)/(maxFragments-1))
				for i := 0; i+fragmentLen <= n; i += stride {
					pieces.add([fragmentLen]byte([]byte(s[i:i+fragmentLen])), slot)
					work += fragmentLen
				}
			}
		}
	}
	x.longest = fragmentLen
	for _, f := range forms {
		work += len(f)
		x.longest = max(x.longest, len(f))
	}
	x.set, x.pieces = newNeedleSet(forms), pieces
	x.starts = newEncodedStarts(forms, x.longest)
	return work + x.set.size() + len(forms)*(3*b64KeyLen+hexKeyLen)
}

// pieceSet finds the fragmentLen-byte pieces of secrets in text, one
// lookup per text position that a piece can start at. Pieces are kept
// once whatever the number of secrets they are part of (planted keys
// share theirs), and a piece is reported once per scan, so a scan costs
// its text plus the secrets it reports, like the needleSet. Pieces are
// not in the needleSet because they would be most of its nodes: a piece
// is one entry here, fragmentLen nodes there.
type pieceSet struct {
	index map[[fragmentLen]byte]uint32 // piece → entry
	first []uint32                     // by entry: a secret holding the piece
	more  map[uint32][]uint32          // by entry: the others, for a piece secrets share
	mark  []uint32                     // by entry: the scan that last reported it
	epoch uint32
	start []uint64 // a bit per hashed 4-byte start of a piece
}

func newPieceSet() *pieceSet {
	return &pieceSet{index: map[[fragmentLen]byte]uint32{}, more: map[uint32][]uint32{}, start: make([]uint64, startBits/64)}
}

func (p *pieceSet) add(piece [fragmentLen]byte, slot uint32) {
	e, ok := p.index[piece]
	switch {
	case !ok:
		p.index[piece] = uint32(len(p.first))
		p.first = append(p.first, slot)
		p.mark = append(p.mark, 0)
		b := startBit(piece[:])
		p.start[b/64] |= 1 << (b % 64)
	// A secret's pieces are added together: it can only be the last
	// one listed.
	case p.first[e] != slot && (len(p.more[e]) == 0 || p.more[e][len(p.more[e])-1] != slot):
		p.more[e] = append(p.more[e], slot)
	}
}

// scan calls found with each secret a piece of which is in text. It
// reports its work to b, and stops, returning false, when b runs out.
func (p *pieceSet) scan(text []byte, b *budget.Budget, found func(slot uint32)) bool {
	if len(p.first) == 0 {
		return true
	}
	p.begin()
	var slots []uint32
	work, next := 0, spendEvery
	for i := 0; i+fragmentLen <= len(text); i++ {
		if i >= next {
			if !b.Spend(work) {
				return false
			}
			work, next = 0, i+spendEvery
		}
		work++
		slots = p.at(text, i, slots[:0])
		for _, slot := range slots {
			found(slot)
			work++
		}
	}
	return b.Spend(work)
}

// begin starts a scan: each piece is reported once per scan.
func (p *pieceSet) begin() {
	if p.epoch++; p.epoch == 0 {
		clear(p.mark)
		p.epoch = 1
	}
}

// at appends to slots the secrets holding the piece that starts at
// text[i], unless this scan reported it already.
func (p *pieceSet) at(text []byte, i int, slots []uint32) []uint32 {
	if i+fragmentLen > len(text) {
		return slots
	}
	if b := startBit(text[i:]); p.start[b/64]&(1<<(b%64)) == 0 {
		return slots
	}
	e, ok := p.index[[fragmentLen]byte(text[i:i+fragmentLen])]
	if !ok || p.mark[e] == p.epoch {
		return slots
	}
	p.mark[e] = p.epoch
	slots = append(slots, p.first[e])
	return append(slots, p.more[e]...)
}

// view is one decoded form of the text Find reads: what a raw secret
// found in it is named, and whether pieces and raw secrets count there.
type view struct {
	text      []byte
	enc       Encoding // a raw secret found in the view was sent this way
	noRaw     bool     // raw secrets are not looked for (they were, in the views before)
	noCase    bool     // nor secrets in the other case
	fragments bool     // pieces count
}

// Find reports the known secrets in text, one SecretMatch per secret and
// encoding. Its work is reported to b (nil: unlimited); when b runs out,
// Find stops and complete is false.
func (x *SecretIndex) Find(text []byte, b *budget.Budget) (found []SecretMatch, complete bool) {
	return x.find(text, b, false)
}

// FindCanonical is Find of text in a canonical form that keeps only
// lower-case letters and digits: the base64 views are not read there,
// since lower-casing leaves nothing of what base64 encoded (hex, single
// case, survives).
func (x *SecretIndex) FindCanonical(text []byte, b *budget.Budget) (found []SecretMatch, complete bool) {
	return x.find(text, b, true)
}

func (x *SecretIndex) find(text []byte, b *budget.Budget, canonical bool) (found []SecretMatch, complete bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.byValue) == 0 {
		return nil, true
	}
	if x.set == nil && !b.Spend(x.build()) {
		return nil, false
	}
	type key struct {
		slot uint32
		enc  Encoding
	}
	seen := map[key]bool{}
	var out []SecretMatch
	var slots []uint32 // by match
	search := func(v view) bool {
		report := func(slot uint32, name Encoding) {
			// A raw secret is reported once, in the first view that has
			// it: JSON- or URL-decoded text holds the raw secrets of the
			// text too.
			k := key{slot, name}
			if plain(name) {
				k.enc = EncRaw
			}
			if !seen[k] {
				seen[k] = true
				out = append(out, SecretMatch{Secret: x.secrets[slot].id, Label: x.secrets[slot].label, Encoding: name})
				slots = append(slots, slot)
			}
		}
		pieces := func(slot uint32) { report(slot, EncFragment) }
		if !v.noRaw || !v.noCase {
			// One pass for the needles and, where they count, the pieces.
			var p *pieceSet
			if v.fragments {
				p = x.pieces
			}
			return x.set.scanWith(v.text, b, func(k uint32) {
				n := x.needles[k]
				switch {
				case n.form == formRaw && v.noRaw:
				case n.form == formCase && v.noCase:
				case n.form == formCase && v.enc == EncRaw:
					report(n.slot, EncCase)
				default:
					report(n.slot, v.enc)
				}
			}, p, pieces)
		}
		return !v.fragments || x.pieces.scan(v.text, b, pieces)
	}
	// Pieces are looked for in the last of the views below only, where
	// the text is unescaped and decoded (a piece in any view before is in
	// it too, a piece holding an escape aside): in text itself when it
	// has nothing to unescape or decode, in the same pass as its raw
	// secrets.
	plainText := bytes.IndexByte(text, '\\') < 0 && bytes.IndexByte(text, '%') < 0
	if !search(view{text: text, enc: EncRaw, fragments: plainText}) {
		return out, false
	}
	v := text
	// Text escaped more than once (a JSON string holding JSON that holds
	// the secret as \uXXXX) is unescaped up to maxUnescape times.
	for range maxUnescape {
		if bytes.IndexByte(v, '\\') < 0 {
			break
		}
		v = jsontext.Lenient(make([]byte, 0, len(v)), v)
		if !search(view{text: v, enc: EncJSON}) {
			return out, false
		}
	}
	if bytes.IndexByte(v, '%') >= 0 {
		v = unwrap.PercentDecode(v, false)
		if !search(view{text: v, enc: EncURL}) {
			return out, false
		}
	}
	if !plainText && !search(view{text: v, enc: EncRaw, noRaw: true, noCase: true, fragments: true}) {
		return out, false
	}
	// Base64 and hex blobs are often wrapped over lines; secrets are not.
	// The views made from v are read a chunk at a time (viewChunks): a
	// large message is not copied whole once more for each of them.
	overlap := x.longest - 1
	if bytes.ContainsAny(v, " \n\r\t") && !searchSqueezed(v, overlap, search) {
		return out, false
	}
	if !searchDecoded(v, !canonical, x.starts, overlap, b, search) {
		return out, false
	}
	// A piece of a secret says less than the secret: report pieces only
	// of secrets not found whole.
	whole := map[uint32]bool{}
	for i, m := range out {
		if m.Encoding != EncFragment {
			whole[slots[i]] = true
		}
	}
	kept := out[:0]
	for i, m := range out {
		if m.Encoding != EncFragment || !whole[slots[i]] {
			kept = append(kept, m)
		}
	}
	return kept, true
}

// plain reports whether enc names a secret written as it is, apart from
// escaping.
func plain(enc Encoding) bool { return enc == EncRaw || enc == EncJSON || enc == EncURL }

// viewChunks is one view made from a text (squeezed, decoded), held and
// searched a chunk at a time: once it reaches viewChunk bytes it is
// searched, and only its last overlap bytes are kept to start the next
// chunk, so that a needle of up to overlap+1 bytes lies whole in one
// chunk, and the view takes a constant whatever the text's size.
type viewChunks struct {
	view        // text is the chunk
	bound   int // the most bytes the whole view can have: the text's length
	overlap int
	fresh   bool // text holds bytes no search has read
	search  func(view) bool
	ok      *bool // false once a search ran out of budget
}

// viewChunk is the size of a chunk of a view, past its overlap.
const viewChunk = 64 << 10

// chunkPool holds the chunks of large texts' views between Finds: a
// message's arguments and each of their decoded views are searched in
// turn, each with up to eleven views of its own.
var chunkPool sync.Pool // *[]byte

func (c *viewChunks) open() {
	size := min(c.bound, viewChunk) + c.overlap
	if size >= viewChunk {
		if p, _ := chunkPool.Get().(*[]byte); p != nil && cap(*p) >= size {
			c.text = (*p)[:0]
			return
		}
	}
	c.text = make([]byte, 0, size)
}

// write appends p to the view, searching each chunk it fills.
func (c *viewChunks) write(p []byte) {
	if c.text == nil {
		c.open()
	}
	for len(p) > 0 {
		n := min(len(p), cap(c.text)-len(c.text))
		c.text, c.fresh = append(c.text, p[:n]...), true
		p = p[n:]
		if len(c.text) == cap(c.text) {
			c.flush()
		}
	}
}

func (c *viewChunks) writeByte(b byte) {
	if c.text == nil {
		c.open()
	}
	c.text, c.fresh = append(c.text, b), true
	if len(c.text) == cap(c.text) {
		c.flush()
	}
}

// flush searches what the view holds, unless a search has read it all,
// and keeps its last overlap bytes.
func (c *viewChunks) flush() {
	if c.fresh && *c.ok {
		*c.ok = c.search(c.view)
	}
	c.fresh = false
	keep := min(len(c.text), c.overlap)
	c.text = append(c.text[:0], c.text[len(c.text)-keep:]...)
}

// close searches the rest of the view and gives its chunk back.
func (c *viewChunks) close() {
	c.flush()
	if cap(c.text) >= viewChunk {
		p := c.text[:0]
		chunkPool.Put(&p)
	}
	c.text = nil
}

// searchSqueezed searches text without its white space, where no raw
// secret is looked for (text had them).
func searchSqueezed(text []byte, overlap int, search func(view) bool) bool {
	ok := true
	c := viewChunks{view: view{enc: EncRaw, noRaw: true, fragments: true}, bound: len(text), overlap: overlap, search: search, ok: &ok}
	// Squeezed a block at a time, every byte written and counted only
	// when it is not a blank: prose has one every few bytes, and a
	// branch on each mispredicted at most of them.
	var block [4 << 10]byte
	for i := 0; i < len(text) && ok; i += len(block) {
		n := 0
		for _, ch := range text[i:min(len(text), i+len(block))] {
			block[n] = ch
			n += int(notBlank[ch])
		}
		c.write(block[:n])
	}
	c.close()
	return ok
}

// notBlank is 1 for the bytes a squeezed text keeps: all but blanks and line
// breaks.
var notBlank = func() (t [256]uint8) {
	for c := range 256 {
		if !space(byte(c)) {
			t[c] = 1
		}
	}
	return t
}()

func space(c byte) bool { return c == ' ' || c == '\n' || c == '\r' || c == '\t' }

// searchDecoded searches text's hex runs decoded at both alignments and
// its base64 runs (either alphabet, or both mixed) decoded at all four: a
// secret inside an encoded blob is a substring of one of them, wherever
// it lies in the blob. A run goes on over line breaks (and the
// indentation after them): blobs are wrapped. Without b64s, only the hex
// views. Each view is searched a chunk at a time (viewChunks), so that a
// run of any length is decoded in a constant of memory.
//
// A run is decoded only around where starts says the hex or the base64
// of a secret may begin (nil: nowhere), a window reaching from the place
// (for base64, a group before it) to past the longest secret's end,
// windows that meet joined: whatever the views of the whole run hold of
// a secret, the windows' views hold, and a run that holds none is read
// once, not decoded six times and searched. A run is walked for those
// places (its characters reported to b) only when one can be in it: when
// its base64 is read, or it has hexKeyLen hex digits in a row. Canonical
// text (FindCanonical: letters and digits, one run) has few such.
func searchDecoded(text []byte, b64s bool, starts *encodedStarts, overlap int, b *budget.Budget, search func(view) bool) bool {
	ok := true
	var hexV [2]viewChunks
	var b64 [2][4]viewChunks // standard, URL alphabet; by alignment
	for a := range hexV {
		hexV[a] = viewChunks{view: view{enc: EncHex}, bound: len(text), overlap: overlap, search: search, ok: &ok}
	}
	for alpha, enc := range []Encoding{EncBase64, EncBase64URL} {
		for a := range b64[alpha] {
			b64[alpha][a] = viewChunks{view: view{enc: enc}, bound: len(text), overlap: overlap, search: search, ok: &ok}
		}
	}
	var seg []byte // a stretch of a run's characters, without line breaks
	var buf [segLen*3/4 + 3]byte
	// decode64 searches part, a stretch of a run, decoded at each
	// alignment, each apart from what came before.
	decode64 := func(part []byte, alpha int) {
		for a := range b64[alpha] {
			b64[alpha][a].writeByte(0)
		}
		// The stretch's characters go through seg, segLen of them at a
		// time and 3 more, the rest of a group that starts among them at
		// any alignment: decoded a segment at a time, the stretch's
		// groups are those it has whole.
		seg = seg[:0]
		for k := 0; k <= len(part); k++ {
			if k < len(part) {
				c := part[k]
				if b64Value[c] < 0 {
					continue // a line break or indentation
				}
				seg = append(seg, c)
				if len(seg) < segLen+3 {
					continue
				}
			}
			last := k == len(part)
			for a := range b64[alpha] {
				p := seg[min(a, len(seg)):]
				if !last {
					p = p[:segLen]
				}
				b64[alpha][a].write(appendBase64(buf[:0], p))
			}
			if last {
				break
			}
			seg = append(seg[:0], seg[segLen:]...)
		}
	}
	// decodeHex searches the runs of hex digits in part, a stretch of a
	// run, decoded at each alignment.
	decodeHex := func(part []byte) {
		var hx hexRun
		for _, c := range part {
			if b64Value[c] >= 0 {
				hx.add(c, &hexV)
			}
		}
	}
	for i := 0; i < len(text) && ok; {
		if b64Value[text[i]] < 0 {
			i++
			continue
		}
		// Where the run ends, how many characters it has, and which
		// alphabet it is in, read before it is decoded.
		j, n := i, 0
		url, hexOnly := false, true
		inRow, hexKey := 0, false // hex digits in a row; whether they reached hexKeyLen
		for j < len(text) {
			if c := text[j]; b64Value[c] >= 0 {
				url = url || c == '-' || c == '_'
				if jsontext.IsHex(c) {
					inRow++
					hexKey = hexKey || inRow >= hexKeyLen
				} else {
					hexOnly, inRow = false, 0
				}
				n++
				j++
				continue
			}
			k := j
			for k < len(text) && (text[k] == '\n' || text[k] == '\r') {
				k++
			}
			if k == j {
				break
			}
			for k < len(text) && (text[k] == ' ' || text[k] == '\t') {
				k++
			}
			if k == len(text) || b64Value[text[k]] < 0 {
				break
			}
			j = k
		}
		run := text[i:j]
		i = j
		if n < minEncodedRun {
			continue
		}
		alpha := 0
		if url {
			alpha = 1
		}
		// A run of hex digits only is hex: the base64 of a secret in
		// printable characters is not made of hex digits.
		read64 := b64s && !hexOnly && starts != nil
		if !read64 && !hexKey || starts == nil {
			continue // no key can begin a window in it
		}
		if !b.Spend(len(run)) {
			ok = false
			break
		}
		var w64, wHex window
		var at [16]int // the byte of each of the last characters, by ci%16
		var key64, keyHex uint64
		digits := 0 // hex digits in a row, up to the last character
		ci := 0
		for k, c := range run {
			v := b64Value[c]
			if v < 0 {
				continue // a line break or indentation
			}
			at[ci%16] = k
			w64.reach(ci, k)
			wHex.reach(ci, k)
			if jsontext.IsHex(c) {
				keyHex, digits = keyHex<<4|uint64(jsontext.Unhex(c)), digits+1
			} else {
				digits = 0
			}
			if digits >= hexKeyLen && starts.hex.has(keyHex) {
				// The key is the first bytes of a secret's form.
				first := ci - (hexKeyLen - 1)
				wHex.hit(first, at[first%16], first+starts.hexSpan, func(from, to int) { decodeHex(run[from:to]) })
			}
			key64 = (key64<<6 | uint64(v)) & b64KeyMask
			if read64 && ci >= b64KeyLen-1 && starts.b64.has(key64) {
				// The key's first character is the first one of the
				// base64 that only the secret's bytes make; its group
				// starts up to three before.
				first := max(0, ci-(b64KeyLen-1)-3)
				w64.hit(first, at[first%16], ci-(b64KeyLen-1)+starts.b64Span, func(from, to int) { decode64(run[from:to], alpha) })
			}
			ci++
		}
		wHex.close(len(run), func(from, to int) { decodeHex(run[from:to]) })
		w64.close(len(run), func(from, to int) { decode64(run[from:to], alpha) })
	}
	for a := range hexV {
		hexV[a].close()
	}
	for alpha := range b64 {
		for a := range b64[alpha] {
			b64[alpha][a].close()
		}
	}
	return ok
}

// window is the stretch of a run being found to decode, in the run's
// characters (counted from 0) and bytes: from (a byte; -1: none yet) to
// end (a character), and the byte of end once read (-1 before).
type window struct {
	from, end, endByte int
	open               bool
}

// reach notes that the run's character ci is at byte k.
func (w *window) reach(ci, k int) {
	if w.open && ci == w.end {
		w.endByte = k
	}
}

// hit adds the characters first (at byte firstByte) to end: joined to
// the window when they meet it, else the window is decoded and this one
// begins.
func (w *window) hit(first, firstByte, end int, decode func(from, to int)) {
	if w.open && first <= w.end {
		if end > w.end {
			w.end, w.endByte = end, -1
		}
		return
	}
	if w.open {
		decode(w.from, w.endByte)
	}
	*w = window{from: firstByte, end: end, endByte: -1, open: true}
}

// close decodes the window, the run being n bytes.
func (w *window) close(n int, decode func(from, to int)) {
	if !w.open {
		return
	}
	if w.endByte < 0 {
		w.endByte = n
	}
	decode(w.from, w.endByte)
}

// encodedStarts holds where a secret's form may begin in a run of hex
// digits or of base64: keys that a bit filter turns most text away from
// before the set is asked.
type encodedStarts struct {
	// b64 holds b64KeyLen characters' 6-bit values (either alphabet):
	// the first characters that only the form's bytes make, at each of
	// the three places in a group of three bytes the form can start at.
	b64 keySet
	// hex holds the form's first hexKeyLen/2 bytes, as the digits that
	// spell them are read (in either case).
	hex keySet
	// How many characters from a key's first one the encoding of the
	// longest form can reach.
	b64Span, hexSpan int
}

// b64KeyLen is how many characters a base64 key reads: the shortest
// secret's base64 has ten that only its bytes make, at any place in a
// group; hexKeyLen how many hex digits, the shortest secret's bytes.
const (
	b64KeyLen  = 8
	b64KeyMask = 1<<(6*b64KeyLen) - 1
	hexKeyLen  = 2 * MinSecretLength
)

// firstOwn is, by the place a form starts at in a group of three bytes,
// the first character of the group that only the form's bytes make.
var firstOwn = [3]int{0, 2, 3}

func newEncodedStarts(forms [][]byte, longest int) *encodedStarts {
	s := &encodedStarts{b64: newKeySet(3 * len(forms)), hex: newKeySet(len(forms)), b64Span: (longest+2)*4/3 + 4, hexSpan: 2 * longest}
	for _, f := range forms {
		for o := range firstOwn {
			// The bits of the form placed o bytes into a group.
			var key uint64
			for k := firstOwn[o]; k < firstOwn[o]+b64KeyLen; k++ {
				key = key<<6 | uint64(sextet(f, o, k))
			}
			s.b64.add(key)
		}
		var key uint64
		for _, c := range f[:hexKeyLen/2] {
			key = key<<8 | uint64(c)
		}
		s.hex.add(key)
	}
	return s
}

// sextet is the k-th base64 character's value of f placed o bytes into
// a group (bytes before it taken as 0).
func sextet(f []byte, o, k int) byte {
	var v byte
	for bit := 6 * k; bit < 6*k+6; bit++ {
		i := bit/8 - o
		v <<= 1
		if i >= 0 && i < len(f) {
			v |= f[i] >> (7 - bit%8) & 1
		}
	}
	return v
}

// keySet is a set of keys behind a bit filter of about 64 bits a key.
type keySet struct {
	bits  []uint64
	shift uint
	keys  map[uint64]struct{}
}

func newKeySet(n int) keySet {
	logBits := uint(12)
	for 1<<logBits < n*64 {
		logBits++
	}
	return keySet{bits: make([]uint64, 1<<logBits/64), shift: 64 - logBits, keys: make(map[uint64]struct{}, n)}
}

func (s *keySet) add(key uint64) {
	s.keys[key] = struct{}{}
	h := key * 0x9e3779b97f4a7c15 >> s.shift
	s.bits[h/64] |= 1 << (h % 64)
}

func (s *keySet) has(key uint64) bool {
	h := key * 0x9e3779b97f4a7c15 >> s.shift
	if s.bits[h/64]&(1<<(h%64)) == 0 {
		return false
	}
	_, ok := s.keys[key]
	return ok
}

// segLen is how many characters of a base64 run are decoded at a time: a
// multiple of 4, whole groups.
const segLen = 4 << 10

// hexRun decodes the runs of hex digits of at least 2*MinSecretLength
// among a run's characters, at both alignments, as they are read: the
// first ones are held until the run is known to be long enough.
type hexRun struct {
	n    int // digits in the current run
	head [2 * MinSecretLength]byte
	high [2]byte // by alignment, the first digit of a pair
}

func (h *hexRun) add(c byte, views *[2]viewChunks) {
	if !jsontext.IsHex(c) {
		h.end()
		return
	}
	if h.n < len(h.head) {
		h.head[h.n] = c
		h.n++
		if h.n == len(h.head) {
			for a := range views {
				views[a].writeByte(0)
			}
			for p, d := range h.head {
				h.step(p, d, views)
			}
		}
		return
	}
	h.step(h.n, c, views)
	h.n++
}

// step takes the run's digit d at position p, at each alignment.
func (h *hexRun) step(p int, d byte, views *[2]viewChunks) {
	for a := range views {
		switch {
		case p < a:
		case (p-a)%2 == 0:
			h.high[a] = d
		default:
			views[a].writeByte(jsontext.Unhex(h.high[a])<<4 | jsontext.Unhex(d))
		}
	}
}

func (h *hexRun) end() { h.n = 0 }

// minEncodedRun is the shortest base64 run that can hold a secret of
// MinSecretLength bytes.
const minEncodedRun = (MinSecretLength*4 + 2) / 3

// b64Value is each byte's value in base64, either alphabet; -1 for bytes
// outside both. Padding ends a run.
var b64Value = func() (t [256]int8) {
	for c := range t {
		t[c] = -1
	}
	for i, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789" {
		t[c] = int8(i)
	}
	t['+'], t['-'] = 62, 62
	t['/'], t['_'] = 63, 63
	return t
}()

// appendBase64 appends the decoding of run's whole 4-character groups and
// of a last partial group of 2 or 3.
func appendBase64(dst, run []byte) []byte {
	for len(run) >= 4 {
		v := uint32(b64Value[run[0]])<<18 | uint32(b64Value[run[1]])<<12 | uint32(b64Value[run[2]])<<6 | uint32(b64Value[run[3]])
		dst = append(dst, byte(v>>16), byte(v>>8), byte(v))
		run = run[4:]
	}
	for len(run) >= 2 {
		var v uint32
		n := min(len(run), 4)
		for k := range 4 {
			v <<= 6
			if k < n {
				v |= uint32(b64Value[run[k]])
			}
		}
		dst = append(dst, byte(v>>16), byte(v>>8), byte(v))[:len(dst)+n-1]
		run = run[n:]
	}
	return dst
}

// appendHex appends the decoding of run's whole pairs of hex digits.
func appendHex(dst, run []byte) []byte {
	for k := 0; k+1 < len(run); k += 2 {
		dst = append(dst, jsontext.Unhex(run[k])<<4|jsontext.Unhex(run[k+1]))
	}
	return dst
}

// maxUnescape bounds how many layers of JSON escaping Find undoes.
const maxUnescape = 3
