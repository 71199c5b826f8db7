// Package unwrap undoes the transformations an agent may put data through
// before it sends it, so that detectors can read what is really sent. It
// does not list encodings to look for; it applies every cheap reversible
// undoing that changes the text (URL escaping at any depth, numeric and
// named character escapes, invisible characters and look-alike letters,
// separators between characters or bytes, a value split across the fields
// of a JSON message, base64/base32/hex runs, gzip and zlib inside them,
// a run read as one number in another radix, numbers in words, Braille,
// bytes chained to the one before, uuencoded lines, Morse however its
// dots, dashes and capitals are written, halves of a value woven back,
// a run of symbols of any alphabet read as its pattern of repeats) and
// then applies them again to what
// came out, so nested encodings fall apart layer by layer. Detectors look at each view
// it returns as well as at the text itself.
//
// The work is bounded by construction: all views together are at most
// viewFactor times the text (plus a small allowance for short texts), and
// decoding stops at maxDepth layers.
package unwrap

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"hash/maphash"
	"io"
	"iter"
	"slices"
	"sync"
	"unsafe"

	"github.com/flowd-dev/flowd/internal/jsontext"
)

// minRun is the shortest encoded run worth decoding: shorter runs decode
// to a few bytes that say nothing.
const minRun = 16

// Bounds on the work: the views of a text hold at most viewFactor times its
// bytes plus viewSlack, and nest at most maxDepth layers deep.
const (
	viewFactor = 3
	viewSlack  = 4 << 10
	maxDepth   = 4
)

// Views returns text decoded in each way that applies, layer after layer.
// The original text is not among them. Past maxViews views, the small
// views are put together into bundles (bundle): text made of thousands of
// short encoded runs gives as many views, and every matcher pays a
// constant for each view it reads.
func Views(text []byte) [][]byte {
	w := startWalk(text)
	defer w.release()
	w.expand(text, 1)
	// The list is the walker's, grown view by view: the caller gets a
	// copy of its size.
	return bundle(w.out)
}

// startWalk is a pooled walker set to read text, its views' room
// bounded by its size.
func startWalk(text []byte) *walker {
	w := walkers.Get().(*walker)
	w.left, w.input = viewFactor*len(text)+viewSlack, text
	w.seen[maphash.Bytes(w.seed, text)] = -1
	return w
}

// walkers keep a walker's map and scratch buffers from one text to the
// next: a shim checks every granted call's arguments, and on its one
// scheduler slot each collection its garbage brings on delays a call.
var walkers = sync.Pool{New: func() any {
	return &walker{seen: map[uint64]int32{}, seed: maphash.MakeSeed()}
}}

// Past these, release lets a walker's map and scratch go rather than keep
// a large text's memory for small ones (clearing a map costs its size).
const (
	maxPooledSeen    = 4096
	maxPooledViews   = 4096
	maxPooledScratch = 64 << 10
)

// release forgets the text (its views now belong to the caller) and
// returns w to walkers.
func (w *walker) release() {
	if len(w.seen) > maxPooledSeen {
		w.seen = map[uint64]int32{}
	} else {
		clear(w.seen)
	}
	clear(w.out) // no pointers into the views, which are the caller's
	w.out, w.collided, w.input, w.block = w.out[:0], nil, nil, nil
	if cap(w.out) > maxPooledViews {
		w.out = nil
	}
	for d := range w.scratch {
		if cap(w.scratch[d]) > maxPooledScratch {
			w.scratch[d] = nil
		}
		clear(w.found[d][:cap(w.found[d])]) // no pointers into the last text's views
		w.found[d] = w.found[d][:0]
	}
	walkers.Put(w)
}

type walker struct {
	out [][]byte
	// seen holds the hashes of the texts already expanded, by the
	// index in out of the view hashed (-1: input, the first): looked up
	// by hash, where a scan of them all made text of many distinct runs
	// quadratic, and keyed by the hash rather than the text, which a
	// map of strings hashed twice for each view and again as it grew (a
	// megabyte of distinct short runs spent half its views' time there).
	// A text whose hash an earlier, different one has is kept in
	// collided.
	seen     map[uint64]int32
	collided map[string]struct{}
	seed     maphash.Seed
	input    []byte
	left     int // bytes views may still take
	// scratch is where encoded runs are decoded, one per depth, so a
	// run's decodings stay put while the first of them is expanded: what
	// decodes is copied out only when it is kept as a view. A run of
	// prose words glued together (a piece view) tried as every encoding,
	// and a run decoding to a view seen already, allocate nothing.
	scratch [maxDepth + 1][]byte
	found   [maxDepth + 1][][]byte // a run's decodings, in scratch
	// block holds the copies of short views (copyOf); the caller's once
	// the walk is done.
	block []byte
}

// add keeps v as a view and decodes it further.
func (w *walker) add(v []byte, depth int) {
	if w.keep(v) && depth < maxDepth {
		w.expand(v, depth+1)
	}
}

// addCopy is add for v in scratch: a copy is kept, and only when v is
// fresh.
func (w *walker) addCopy(v []byte, depth int) {
	if c, ok := w.keepCopy(v); ok && depth < maxDepth {
		w.expand(c, depth+1)
	}
}

// keep keeps v as a view, unless it is one already or there is no room.
// Each view is charged a byte more than its length: the separator it takes
// if it is bundled.
func (w *walker) keep(v []byte) bool {
	if len(v) == 0 || len(v)+1 > w.left {
		return false
	}
	h, ok, taken := w.fresh(v)
	if ok {
		w.record(h, v, taken)
	}
	return ok
}

// keepCopy is keep for v in scratch, which is copied when it is kept.
func (w *walker) keepCopy(v []byte) ([]byte, bool) {
	if len(v) == 0 || len(v)+1 > w.left {
		return nil, false
	}
	h, ok, taken := w.fresh(v)
	if !ok {
		return nil, false
	}
	c := w.copyOf(v)
	w.record(h, c, taken)
	return c, true
}

// copyBlock is the size of the blocks short views are copied into.
const copyBlock = 64 << 10

// copyOf returns a copy of v, a short one in the walk's current block:
// a text of tens of thousands of short encoded runs kept each decoding
// in an allocation of its own (a fifth of the views' time on a megabyte
// of distinct runs).
func (w *walker) copyOf(v []byte) []byte {
	if len(v) > copyBlock/16 {
		return bytes.Clone(v)
	}
	if cap(w.block)-len(w.block) < len(v) {
		w.block = make([]byte, 0, copyBlock)
	}
	n := len(w.block)
	w.block = append(w.block, v...)
	return w.block[n:len(w.block):len(w.block)]
}

// fresh reports whether v, of hash h, is none of the texts seen so far,
// and whether an earlier text has its hash (taken).
func (w *walker) fresh(v []byte) (h uint64, _, taken bool) {
	h = maphash.Bytes(w.seed, v)
	i, ok := w.seen[h]
	if !ok {
		return h, true, false
	}
	prev := w.input
	if i >= 0 {
		prev = w.out[i]
	}
	if bytes.Equal(prev, v) {
		return h, false, true
	}
	_, ok = w.collided[unsafeString(v)]
	return h, !ok, true
}

// record keeps v, fresh and of hash h, as the next view. A text whose
// hash an earlier one has (taken, as fresh found) goes into collided; the
// first keeps the hash. The map is not asked again: a text of tens of
// thousands of short runs keeps a view of each.
func (w *walker) record(h uint64, v []byte, taken bool) {
	if !taken {
		w.seen[h] = int32(len(w.out))
	} else {
		if w.collided == nil {
			w.collided = map[string]struct{}{}
		}
		w.collided[unsafeString(v)] = struct{}{}
	}
	w.left -= len(v) + 1
	if len(w.out) == cap(w.out) {
		// Doubled, not by append's quarter past a few hundred: text of
		// many short runs has tens of thousands of views.
		w.out = slices.Grow(w.out, len(w.out)+1)
	}
	w.out = append(w.out, v)
}

// unsafeString is b as a string without a copy: views are not written
// once made.
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// Bounds on the number of views: the first maxViews/2 are returned as
// they are, and past maxViews views the rest go into bundles of up to
// bundleBytes, one view a line.
const (
	maxViews    = 256
	bundleBytes = 64 << 10
)

// bundle returns views, or, when there are more than maxViews, the first
// maxViews/2 and the rest joined into bundles, each view on a line of its
// own: whatever a matcher finds in one view it finds in its bundle, a
// token cut by no line ending, and the views' bytes stay as they were
// (keep charged the separators). What it returns is new: views is the
// walker's, and tens of thousands long for text of many short runs, so it
// is not copied whole first.
func bundle(views [][]byte) [][]byte {
	if len(views) <= maxViews {
		return slices.Clone(views)
	}
	out := slices.Clone(views[:maxViews/2])
	var cur []byte
	for _, v := range views[maxViews/2:] {
		if len(cur) > 0 && len(cur)+len(v)+1 > bundleBytes {
			out = append(out, cur)
			cur = nil
		}
		if len(cur) == 0 && len(v) >= bundleBytes {
			out = append(out, v)
			continue
		}
		if cur == nil {
			// Its size at once: grown by append, each bundle was
			// copied five times on its way to 64 KB.
			cur = make([]byte, 0, bundleBytes)
		}
		cur = append(append(cur, v...), '\n')
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// expand adds the views of text. The undoings that read the whole text
// (escapes, invisible characters, separators, wrapping) are applied in
// rounds, each round to the last one's result, until nothing changes:
// one chain of views, not a tree, so the work stays a few passes over the
// text. Encoded runs, in the text and in the chain's last view, are
// decoded and expanded in turn, a layer deeper.
func (w *walker) expand(text []byte, depth int) {
	if depth > 1 && bare(text) {
		return
	}
	cur, undone := text, false
	// Each undoing's last output; on the stack: a text of thousands of
	// short encoded runs expands each of them.
	var made [len(wholeUndoings)][]byte
	for round := depth; round <= maxDepth; round++ {
		next, changed := cur, false
		for i, undo := range &wholeUndoings {
			if undo.settled && sameSlice(made[i], next) {
				// Its own output, untouched since: undoing it again
				// changes nothing, and folding (NFKC) costs 50 ns a byte
				// of combining marks.
				continue
			}
			u, ok := undo.undo(next)
			if ok && !bytes.Equal(u, next) {
				next, changed, made[i] = u, true, u
			}
		}
		if !changed || !w.keep(next) {
			break
		}
		cur, undone = next, true
	}
	for i, t := range [2][]byte{text, cur} {
		if i == 1 && !undone {
			break
		}
		w.decodeRuns(t, depth)
		for _, v := range rawCodes(nil, t) {
			w.keep(v)
		}
	}
	w.found[depth] = radixViews(w.found[depth][:0], text)
	for _, b := range w.found[depth] {
		for _, v := range inflate(nil, b) {
			w.add(v, depth)
		}
	}
	if depth == 1 {
		// Literals concatenated inside a JSON string, joined where they
		// stand: the rounds above join them only once the JSON's own
		// escapes are undone, when a quote no longer says which string
		// it closes.
		if j, ok := joinConcatenated(text); ok {
			w.add(j, depth)
		}
		// A value split across a message's fields, put together again,
		// and decoded further (a base64 run split in two).
		if j, ok := joinFields(text); ok {
			w.add(j, depth)
		}
	}
	// A value cut into pieces, put together again in the orders and
	// decodings a receiver would undo, and read as the text is. The text
	// is read as it came too: joining separated characters may have
	// joined pieces turned around. Only at the surface: pieces are cut
	// from what is sent.
	if depth == 1 {
		p, ok := pieceViews(text)
		if undone {
			pc, okc := pieceViews(cur)
			p, ok = append(p, pc...), ok || okc
		}
		if ok {
			w.add(p, depth)
			if r, ok := tokenViews(p, w.left/2); ok {
				for _, v := range r {
					w.keep(v)
				}
			}
		}
	}
	// Reorderings and rotations of the tokens: a key sent backwards or
	// in ROT13 is still the key, in the text and in each layer decoded
	// from it (reversed, then base64-encoded), within half of what the
	// views may still hold, so the layers after it keep room.
	if r, ok := tokenViews(cur, w.left/2); ok {
		for _, v := range r {
			w.keep(v)
		}
	}
	if v := weaves(cur, w.left/4); v != nil {
		w.keep(v)
	}
	if v := symbolRuns(cur, w.left/4); v != nil {
		w.keep(v)
	}
	if undone {
		// ROT47 writes '%', '+' and '\\', which the undoings read as
		// escapes: its run is mirrored as it came too.
		if m := mirrors(text, w.left/4); m != nil {
			w.keep(m)
		}
	}
}

// bare reports a text shorter than an encoded run, of ASCII letters and
// digits only: below the surface (where pieces are joined), no undoing
// changes it and nothing in it decodes, so expand would add nothing. The
// undoings read escapes, marks, separators, line breaks, quotes or
// characters past ASCII, none of which it has; spelled words and codes
// in numbers are words and numbers apart, minSpoken and minCodes of them,
// which a single word of fewer than minRun bytes cannot be
// (TestBareTextsHaveNothingToUndo). A text of thousands of short encoded
// runs has a view of each, and expanding each cost as much as decoding
// and keeping it.
func bare(text []byte) bool {
	if len(text) >= minRun {
		return false
	}
	for _, c := range text {
		if !isAlnumByte(c) {
			return false
		}
	}
	return true
}

// wholeUndoings are the undoings that read the whole text. settled: one
// whose output it leaves as it is (fold); the escapes are undone again,
// since text may be escaped twice.
var wholeUndoings = [...]struct {
	undo    func([]byte) ([]byte, bool)
	settled bool
}{
	// Before percent-decoding, which reads the '+' of U+0067 as a blank.
	{undo: func(t []byte) ([]byte, bool) {
		if !bytes.Contains(t, []byte("U+")) && !bytes.Contains(t, []byte("u+")) {
			return nil, false
		}
		return codePoints(t)
	}},
	{undo: func(t []byte) ([]byte, bool) {
		if bytes.IndexAny(t, "%+") < 0 {
			return nil, false
		}
		return PercentDecode(t, true), true
	}},
	{undo: func(t []byte) ([]byte, bool) {
		if bytes.IndexAny(t, `\&`) < 0 && !percentU(t) {
			return nil, false
		}
		return unescape(t)
	}},
	{undo: fold, settled: true},
	// Before unspell, which would read a number's digit words alone.
	{undo: numberWords},
	{undo: unspell},
	{undo: unmorse},
	{undo: joinSeparated},
	// After joinSeparated, which reads codes split by punctuation as
	// decimal or octal: these are what it leaves.
	{undo: joinCodes},
	{undo: joinWrapped},
	{undo: func(t []byte) ([]byte, bool) {
		if bytes.IndexAny(t, "\"'`") < 0 {
			return nil, false
		}
		return joinConcatenated(t)
	}},
}

// decodeRuns adds what the encoded runs of t decode to, a layer below
// depth.
func (w *walker) decodeRuns(t []byte, depth int) {
	for run := range runs(t) {
		if plainWord(run) {
			continue
		}
		w.found[depth] = decode(w.found[depth][:0], run, &w.scratch[depth])
		for _, b := range w.found[depth] {
			w.addCopy(b, depth)
		}
	}
}

// RunViews returns what the encoded runs and the blank-free tokens of
// text decode to (hex, base32, base64, base85, a number in a radix,
// compressed), each with its own views. It is for text put together from
// pieces sent apart (the tokens of calls, joined): the undoings of a
// whole text (escapes, separators, spellings) were done on each piece as
// it was sent, and what joining adds is runs that decode whole. It costs
// a pass over text and the decoding of its runs, bounded as Views is.
func RunViews(text []byte) [][]byte {
	w := startWalk(text)
	defer w.release()
	w.decodeRuns(text, 1)
	w.found[1] = w.found[1][:0]
	for tok := range bytes.FieldsSeq(text) {
		if len(tok) >= minRadixRun && len(tok) <= maxRadixToken && symbolic(tok) {
			w.found[1] = radixToken(w.found[1], tok)
		}
	}
	for _, b := range w.found[1] {
		for _, v := range inflate(nil, b) {
			w.add(v, 1)
		}
	}
	return bundle(w.out)
}

// sameSlice reports whether a and b are the same bytes in memory.
func sameSlice(a, b []byte) bool {
	return len(a) == len(b) && len(a) > 0 && unsafe.SliceData(a) == unsafe.SliceData(b)
}

// decode appends to out run decoded as hex, base32 and base64 (either
// alphabet), each where it reads the run whole, as an xxencoded line
// (which its count at its place says it is), and the gzip or zlib it
// finds inside unpacked. What it appends lies in scratch (the base32 and
// the base64 reading apart), but for what is unpacked: valid until the
// next decode into the same scratch.
func decode(out [][]byte, run []byte, scratch *[]byte) [][]byte {
	if cap(*scratch) < 2*len(run) {
		*scratch = make([]byte, 2*len(run))
	}
	buf, buf64 := (*scratch)[:len(run)], (*scratch)[len(run):2*len(run)]
	if b, ok := decodeBits(run); ok {
		return inflate(out, b)
	}
	if b, ok := xxLine(run); ok && len(b) >= 8 {
		out = append(out, b)
	}
	if b, ok := decodeBase58(run); ok {
		out = inflate(out, b)
	}
	out = decodeRadixNumber(out, run)
	if len(run)%2 == 0 {
		if n, err := hex.Decode(buf, run); err == nil {
			return chained(inflate(out, buf[:n]), buf[:n])
		}
	}
	if b, ok := base32Std.decode(buf, run); ok {
		out = inflate(out, b)
	} else if b, ok := base32Hex.decode(buf, run); ok && textLike(b) {
		// Read only as text: digits and the letters up to v are
		// everyday hex and identifiers too.
		out = inflate(out, b)
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if n, err := enc.Decode(buf64, run); err == nil {
			return chained(inflate(out, buf64[:n]), buf64[:n])
		}
	}
	return out
}

// maxChained is the most bytes read as chained: a secret's, not an
// upload's.
const maxChained = 1 << 10

// chained appends what bytes that are not text decode to when each was
// written together with the one before it: XORed with the plain byte
// before (the running XOR undoes it), with the written byte before (the
// XOR of neighbours undoes it), or as the difference from the byte
// before (delta coding; the running sum undoes it). Each is kept only
// as printable ASCII, which random bytes are not.
func chained(out [][]byte, b []byte) [][]byte {
	if len(b) < 8 || len(b) > maxChained || asciiText(b) {
		return out
	}
	var u [maxChained]byte
	for undo := range 3 {
		u[0] = b[0]
		bad, i := 0, 1
		for ; i < len(b) && bad*16 <= len(b); i++ {
			switch undo {
			case 0:
				u[i] = b[i] ^ u[i-1]
			case 1:
				u[i] = b[i] ^ b[i-1]
			default:
				u[i] = b[i] + u[i-1]
			}
			if c := u[i]; (c < ' ' || c > '~') && c != '\n' && c != '\r' && c != '\t' {
				bad++
			}
		}
		if i == len(b) && asciiText(u[:len(b)]) {
			out = append(out, bytes.Clone(u[:len(b)]))
		}
	}
	return out
}

// base32Alphabet is one of RFC 4648's base32 alphabets, read in one
// letter case or the other, without padding (decode trims it).
type base32Alphabet struct {
	lastLetter            byte // A to lastLetter
	firstDigit, lastDigit byte
	upperCase, lowerCase  *base32.Encoding
}

var (
	// base32Std is the alphabet DNS tunnels and TOTP seeds use.
	base32Std = base32Alphabet{'Z', '2', '7',
		base32.StdEncoding.WithPadding(base32.NoPadding),
		base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)}
	// base32Hex is the extended-hex alphabet.
	base32Hex = base32Alphabet{'V', '0', '9',
		base32.HexEncoding.WithPadding(base32.NoPadding),
		base32.NewEncoding("0123456789abcdefghijklmnopqrstuv").WithPadding(base32.NoPadding)}
)

// decode reads a run in one letter case drawn from the alphabet into
// dst, which has room for len(run) bytes.
func (a base32Alphabet) decode(dst, run []byte) ([]byte, bool) {
	upper, lower := true, true
	for _, c := range run {
		switch {
		case c >= 'A' && c <= a.lastLetter:
			lower = false
		case c >= 'a' && c <= a.lastLetter+'a'-'A':
			upper = false
		case c >= a.firstDigit && c <= a.lastDigit || c == '=':
		default:
			return nil, false
		}
	}
	if !upper && !lower {
		return nil, false
	}
	enc := a.upperCase
	if !upper {
		enc = a.lowerCase
	}
	n, err := enc.Decode(dst, bytes.TrimRight(run, "="))
	return dst[:n], err == nil && n > 0
}

// maxInflate bounds what one compressed run may expand to: a small bomb
// must not cost more than the views of the text may.
const maxInflate = 64 << 10

// inflate appends b to out, and what it decompresses to when it is gzip
// or zlib.
func inflate(out [][]byte, b []byte) [][]byte {
	out = append(out, b)
	var r io.Reader
	var err error
	switch {
	case len(b) > 2 && b[0] == 0x1f && b[1] == 0x8b:
		r, err = gzip.NewReader(bytes.NewReader(b))
	case len(b) > 2 && b[0] == 0x78 && (uint16(b[0])<<8|uint16(b[1]))%31 == 0:
		r, err = zlib.NewReader(bytes.NewReader(b))
	default:
		return inflateRaw(out, b)
	}
	if err != nil {
		return out
	}
	u, _ := io.ReadAll(io.LimitReader(r, maxInflate))
	if len(u) > 0 {
		out = append(out, u)
	}
	return out
}

// runs yields the runs of at least minRun characters that can form
// base64, base32 or hex: the places an encoded payload can hide.
func runs(text []byte) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		start := -1
		for i := 0; i <= len(text); i++ {
			if i < len(text) && encChar[text[i]] {
				if start < 0 {
					start = i
				}
				if text[i] != '=' || i+1 >= len(text) || text[i+1] == '=' || !encChar[text[i+1]] {
					continue
				}
				// '=' pads the end of a run; inside one it is an
				// assignment (data=QUtJ…), which ends the name.
				if i+1-start >= minRun && !yield(text[start:i+1]) {
					return
				}
				start = -1
				continue
			}
			if start >= 0 && i-start >= minRun && !yield(text[start:i]) {
				return
			}
			start = -1
		}
	}
}

var encChar = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=' || c == '-' || c == '_'
	}
	return t
}()

// PercentDecode decodes %XX escapes, keeping malformed ones as they are
// (and, as flowd has always read them, one that ends the text). With
// plusIsSpace a '+' is a space too, as in a query string.
func PercentDecode(s []byte, plusIsSpace bool) []byte {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '%' && i+2 < len(s) && jsontext.IsHex(s[i+1]) && jsontext.IsHex(s[i+2]):
			out = append(out, jsontext.Unhex(s[i+1])<<4|jsontext.Unhex(s[i+2]))
			i += 2
		case s[i] == '+' && plusIsSpace:
			out = append(out, ' ')
		default:
			out = append(out, s[i])
		}
	}
	return out
}
