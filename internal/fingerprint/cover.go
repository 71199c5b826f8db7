package fingerprint

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"slices"

	"github.com/flowd-dev/flowd/internal/budget"
)

// A secret can leave a few characters per call, in any order and amid
// other text: no call holds a piece long enough to match, and the
// receiver puts the pieces together. Cover finds, in one call's text, the
// runs of coverGram characters each known secret shares with it, so that
// the caller can add up which parts of the secret a session sent out
// (flow.Session). The secret and the text are compared in canonical form
// (lower-case letters and digits only), so separators and case changes
// between the pieces do not hide them.

// coverGram is the shortest run of a secret that counts as sent: six
// characters of a random secret turn up in other text by chance rarely,
// and two thirds of a secret's characters in such runs never.
// coverMaxLen bounds the part of a secret that is tracked, and
// coverPerGram the secrets one gram is kept for (look-alikes share
// theirs).
const (
	coverGram    = 6
	coverMinLen  = 16
	coverMaxLen  = 4096
	coverPerGram = 8
)

// CoverMinLength is the shortest secret, in canonical form, that Cover
// tracks: a shorter one is too few grams to tell from chance. CoverGram is
// the length of the runs Cover reports.
const (
	CoverMinLength = coverMinLen
	CoverGram      = coverGram
)

// Cover is what one text holds of one known secret.
type Cover struct {
	Secret uint64 // the id the secret was added with
	Label  string
	Len    int   // the length of the secret's canonical form, as far as tracked
	At     []int // where a run of coverGram characters of it starts, in canonical positions, each once
	// Chars are single characters of it found apart from such runs (every
	// k-th character of it in a row, a short piece standing alone), in
	// canonical positions, each once.
	Chars []int
}

type coverAt struct {
	slot   uint32
	pos    uint16
	stride uint8 // 1: a run of the secret from pos; k: every k-th character of it from pos
	rev    bool  // the characters read backwards
}

// plain is a run of the secret as it is: the form every text is read for.
func (a coverAt) plain() bool { return a.stride == 1 && !a.rev }

// A secret also leaves as every k-th character of it, each such
// subsequence in its own call (or its own part of one): the text then
// holds runs of the subsequence, not of the secret. Its grams are indexed
// too, for strides up to coverStrides, each as unlikely in other text as
// a run of the secret.
const coverStrides = 5

// A secret cut into pieces shorter than coverGram leaves in pieces no run
// finds. A piece that stands alone as a token of the text (letters and
// digits between other characters: a value, a word, a table cell, a JSON
// key) and is a piece of the secret, of shortMin characters or more, is
// taken as sent: words of ordinary text are rarely a piece of a random
// key, and the caller counts a secret as sent only when most of it is.
const shortMin = 4

// A filler character put in after every one or two characters of a
// secret, or one or two after every character, leaves no run of it and no
// trigram for the chains; the text read keeping keep characters of every
// keep+drop (each phase) holds the secret's runs again.
var decimations = []struct{ keep, drop int }{{1, 1}, {2, 1}, {1, 2}, {3, 1}}

// Each of these readings (strides, reversed strides, decimations, short
// pieces) is another chance for unrelated text to hold a piece of a
// secret, and the pieces a session sends add up. They are read only in
// texts short enough for that chance to stay far below one hit per
// secret in the calls a session's pieces are added up over: pieces leave
// in small calls, or in small views of one (a piece decoded). A larger
// text is read for runs of the secret as it is.
const (
	extendedMax = 16 << 10 // canonical characters
	shortMax    = 4 << 10  // bytes of text read for short pieces
)

type coverSet struct {
	grams map[uint64][]coverAt
	start []uint64 // a bit per hashed 4-byte start of a gram
	short map[uint64][]coverAt
	lens  map[uint32]int
	chain [forms]chainSet
}

// buildCover indexes the grams of the internal pool's secrets: a secret
// that arrived from outside (a page full of planted key-shaped strings)
// is no secret of the user's to piece together, and would only add work.
func (x *SecretIndex) buildCover() int {
	c := &coverSet{grams: map[uint64][]coverAt{}, start: make([]uint64, startBits/64), short: map[uint64][]coverAt{}, lens: map[uint32]int{},
		chain: [forms]chainSet{newChainSet(), newChainSet(), newChainSet(), newChainSet()}}
	work := 0
	for _, slot := range x.pools[0] {
		canon := Canonical([]byte(x.secrets[slot].value))
		if len(canon) < coverMinLen {
			continue
		}
		canon = canon[:min(len(canon), coverMaxLen)]
		c.lens[slot] = len(canon)
		for form := range c.chain {
			work += c.chain[form].add(slot, canon, form)
		}
		var sub []byte
		for k := 1; k <= coverStrides; k++ {
			for j := 0; j < k; j++ {
				sub = sub[:0]
				for i := j; i < len(canon); i += k {
					sub = append(sub, canon[i])
				}
				back := slices.Clone(sub)
				slices.Reverse(back)
				for i := 0; i+coverGram <= len(sub); i++ {
					// The same characters, read forwards and backwards.
					for _, e := range []struct {
						text []byte
						at   coverAt
					}{{sub[i:], coverAt{slot, uint16(j + i*k), uint8(k), false}},
						{back[len(sub)-coverGram-i:], coverAt{slot, uint16(j + i*k), uint8(k), true}}} {
						g := gram(e.text)
						if at := c.grams[g]; len(at) < coverPerGram {
							c.grams[g] = append(at, e.at)
						}
						b := startBit(e.text)
						c.start[b/64] |= 1 << (b % 64)
						work++
					}
				}
				for n := shortMin; n < coverGram; n++ {
					for i := 0; i+n <= len(sub); i++ {
						g := shortKey(sub[i : i+n])
						if at := c.short[g]; len(at) < coverPerGram {
							c.short[g] = append(at, coverAt{slot, uint16(j + i*k), uint8(k), false})
						}
						work++
					}
				}
			}
		}
	}
	for form := range c.chain {
		c.chain[form].freeze()
	}
	x.cover = c
	return work
}

// shortKey is a piece of fewer than coverGram characters as a map key.
func shortKey(p []byte) uint64 {
	var k uint64
	for _, c := range p {
		k = k<<8 | uint64(c)
	}
	return k | uint64(len(p))<<56
}

// Cover reports the known secrets of the internal pool that canon, text in
// canonical form (lower-case ASCII letters and digits only), shares runs
// of coverGram characters with, and where in each secret those runs start.
// Its work, linear in canon, is reported to b; it stops, returning false,
// when b runs out.
func (x *SecretIndex) Cover(canon []byte, b *budget.Budget) ([]Cover, bool) {
	return x.coverIn(canon, b, forms)
}

// CoverDecoded is Cover for text decoded from a call (a view of it): its
// chains are read as written only. Repeats and shifted letters are read
// in the call's own text; a view, one more copy of the call's size,
// would double their cost.
func (x *SecretIndex) CoverDecoded(canon []byte, b *budget.Budget) ([]Cover, bool) {
	return x.coverIn(canon, b, formAsIs+1)
}

func (x *SecretIndex) coverIn(canon []byte, b *budget.Budget, forms int) ([]Cover, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.byValue) == 0 || len(canon) < coverGram {
		return nil, true
	}
	if x.cover == nil && !b.Spend(x.buildCover()) {
		return nil, false
	}
	c := x.cover
	if len(c.grams) == 0 {
		return nil, true
	}
	r := newCoverResult(x, c)
	work := 0
	extended := len(canon) <= extendedMax
	read := func(text []byte, runsOnly bool) bool {
		for i := 0; i+coverGram <= len(text); i++ {
			if work >= spendEvery {
				if !b.Spend(work) {
					return false
				}
				work = 0
			}
			work++
			if sb := startBit(text[i:]); c.start[sb/64]&(1<<(sb%64)) == 0 {
				continue
			}
			for _, at := range c.grams[gram(text[i:])] {
				work++
				switch {
				case at.plain():
					r.note(at.slot, at.pos)
				case extended && !runsOnly:
					for m := range coverGram {
						r.noteChar(at.slot, int(at.pos)+m*int(at.stride))
					}
				}
			}
		}
		return true
	}
	if !read(canon, false) {
		return nil, false
	}
	if extended {
		// The text read with fillers taken out: its runs of a secret
		// only (a stride of what is left is too far from the text to
		// count).
		var kept []byte
		for _, d := range decimations {
			for phase := range d.keep + d.drop {
				kept = kept[:0]
				for i := phase; i < len(canon); i += d.keep + d.drop {
					kept = append(kept, canon[i:min(i+d.keep, len(canon))]...)
				}
				work += len(kept)
				if !read(kept, true) {
					return nil, false
				}
			}
		}
	}
	if !b.Spend(work) {
		return nil, false
	}
	work = 0
	// The characters chains cover, per secret, in canonical positions.
	chained := map[uint32][]uint64{}
	var order []uint32 // the slots chained, in the order first found
	for mode := range c.chain[:forms] {
		if mode == formRotate && !extended {
			continue
		}
		chain := &c.chain[mode]
		done := map[uint32][]uint64{} // the trigrams marked, by their place in the form indexed
		if !chain.scan(canon, mode, b, func(slot uint32, pos uint16) {
			orig := chain.orig[slot]
			d := done[slot]
			if d == nil {
				d = make([]uint64, (len(orig)+63)/64)
				done[slot] = d
			}
			if d[pos/64]&(1<<(pos%64)) != 0 {
				return
			}
			d[pos/64] |= 1 << (pos % 64)
			set := chained[slot]
			if set == nil {
				set = make([]uint64, (c.lens[slot]+63)/64)
				chained[slot] = set
				order = append(order, slot)
			}
			end := c.lens[slot]
			if int(pos)+3 < len(orig) {
				end = int(orig[pos+3])
			}
			for i := int(orig[pos]); i < end; i++ {
				set[i/64] |= 1 << (i % 64)
			}
		}) {
			return nil, false
		}
	}
	for _, slot := range order {
		set, run := chained[slot], 0
		work += (forms + 1) * c.lens[slot] // the marks of each form, and this pass
		for i := range c.lens[slot] {
			if set[i/64]&(1<<(i%64)) == 0 {
				run = 0
				continue
			}
			if run++; run >= coverGram {
				r.note(slot, uint16(i+1-coverGram))
			}
		}
	}
	return r.out, b.Spend(work)
}

// coverResult gathers one text's covers, a secret's positions each
// noted once: text made of copies of a secret's neighbourhood hits the
// same few thousand positions at every offset, and the caller reads them
// as a set.
type coverResult struct {
	x      *SecretIndex
	c      *coverSet
	bySlot map[uint32]int // slot → index in out
	out    []Cover
	runs   [][]uint64 // by index in out, the run starts noted
	chars  [][]uint64 // and the single characters
}

func newCoverResult(x *SecretIndex, c *coverSet) *coverResult {
	return &coverResult{x: x, c: c, bySlot: map[uint32]int{}}
}

func (r *coverResult) entry(slot uint32) int {
	k, ok := r.bySlot[slot]
	if !ok {
		k = len(r.out)
		r.bySlot[slot] = k
		s := r.x.secrets[slot]
		n := r.c.lens[slot]
		r.out = append(r.out, Cover{Secret: s.id, Label: s.label, Len: n})
		r.runs = append(r.runs, make([]uint64, (n+63)/64))
		r.chars = append(r.chars, make([]uint64, (n+63)/64))
	}
	return k
}

// note adds the run of coverGram characters of the secret in slot from pos.
func (r *coverResult) note(slot uint32, pos uint16) {
	k := r.entry(slot)
	if w, bit := pos/64, uint64(1)<<(pos%64); r.runs[k][w]&bit == 0 {
		r.runs[k][w] |= bit
		r.out[k].At = append(r.out[k].At, int(pos))
	}
}

// noteChar adds the character of the secret in slot at pos.
func (r *coverResult) noteChar(slot uint32, pos int) {
	k := r.entry(slot)
	if pos >= r.out[k].Len {
		return
	}
	if w, bit := pos/64, uint64(1)<<(pos%64); r.chars[k][w]&bit == 0 {
		r.chars[k][w] |= bit
		r.out[k].Chars = append(r.out[k].Chars, pos)
	}
}

// CoverPieces reports the known secrets of the internal pool of which
// text holds pieces standing alone: tokens (runs of ASCII letters and
// digits) of shortMin to coverGram-1 characters that are, in canonical
// form, a piece of the secret or of every k-th character of it. Longer
// tokens are Cover's. Its work,
// linear in text, is reported to b; it stops, returning false, when b
// runs out.
func (x *SecretIndex) CoverPieces(text []byte, b *budget.Budget) ([]Cover, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.byValue) == 0 || len(text) < shortMin || len(text) > shortMax {
		return nil, true
	}
	if x.cover == nil && !b.Spend(x.buildCover()) {
		return nil, false
	}
	c := x.cover
	if len(c.short) == 0 {
		return nil, true
	}
	r := newCoverResult(x, c)
	work := 0
	lookup := func(tok []byte) {
		for _, at := range c.short[shortKey(tok)] {
			work += len(tok)
			for m := range len(tok) {
				r.noteChar(at.slot, int(at.pos)+m*int(at.stride))
			}
		}
	}
	start := -1
	for i := 0; i <= len(text); i++ {
		if i < len(text) && isAlnum(text[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if n := i - start; start >= 0 && n >= shortMin && n < coverGram {
			var tok [coverGram]byte
			for j := range n {
				tok[j] = text[start+j] | 0x20 // ASCII letters lower-cased, digits unchanged
			}
			lookup(tok[:n])
		}
		start = -1
		work++
	}
	// A short piece encoded on its own (base64 of four or five
	// characters is six to eight, hex eight to ten) is too short for
	// the views, which decode runs long enough to say something: such a
	// token is decoded here, where only what decodes to a piece counts.
	start = -1
	for i := 0; i <= len(text); i++ {
		if i < len(text) && b64Char(text[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		end := i
		for i+1 < len(text) && text[i] == '=' && text[i+1] == '=' {
			i++ // padding, read past
		}
		if n := end - start; start >= 0 && n >= 6 && n <= 10 {
			var dec [8]byte
			for _, d := range shortDecodings(text[start:end], dec[:0]) {
				if canon := Canonical(d); len(canon) == len(d) && len(d) >= shortMin && len(d) < coverGram {
					lookup(canon)
				}
			}
		}
		start = -1
		work++
	}
	return r.out, b.Spend(work)
}

func b64Char(c byte) bool { return isAlnum(c) || c == '+' || c == '/' || c == '-' || c == '_' }

// shortDecodings are tok read as unpadded base64 (either alphabet) and as
// hex, where it is one.
func shortDecodings(tok, buf []byte) [][]byte {
	var out [][]byte
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		if n, err := enc.Decode(buf[:cap(buf)], tok); err == nil {
			out = append(out, slices.Clone(buf[:n]))
			break
		}
	}
	if len(tok)%2 == 0 {
		if n, err := hex.Decode(buf[:cap(buf)], tok); err == nil {
			out = append(out, slices.Clone(buf[:n]))
		}
	}
	return out
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// gram is the coverGram bytes at the start of b, as a map key.
func gram(b []byte) uint64 {
	return uint64(binary.LittleEndian.Uint32(b)) | uint64(binary.LittleEndian.Uint16(b[4:]))<<32
}

// Canonical is b with everything but ASCII letters and digits dropped and
// letters lower-cased: the form FindCanonical and Cover read, in which
// separators and case changes between a secret's characters are gone.
func Canonical(b []byte) []byte {
	return AppendCanonical(make([]byte, 0, len(b)), b)
}

// AppendCanonical appends the canonical form of b to out: a caller that
// reads one text's form after another keeps one buffer.
func AppendCanonical(out, b []byte) []byte {
	out = slices.Grow(out, len(b))
	// Every byte is written, and counted only when it is kept: no branch
	// on the byte (a view of mixed letters and symbols mispredicted
	// most of them).
	n := len(out)
	buf := out[:n+len(b)]
	for _, c := range b {
		k := canonicalByte[c]
		buf[n] = k
		n += int(k>>7 ^ 1)
	}
	return buf[:n]
}

// canonicalByte is the byte a byte becomes in canonical form: itself for
// lower-case letters and digits, lower case for capitals; 0x80 for the
// rest, which are dropped.
var canonicalByte = func() (t [256]byte) {
	for c := range 256 {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			t[c] = byte(c)
		case c >= 'A' && c <= 'Z':
			t[c] = byte(c) + 'a' - 'A'
		default:
			t[c] = 0x80
		}
	}
	return t
}()

// MergeCovers adds the covers of more text to covers: one per secret,
// its positions each once.
func MergeCovers(covers, more []Cover) []Cover {
	for _, m := range more {
		i := slices.IndexFunc(covers, func(c Cover) bool { return c.Secret == m.Secret })
		if i < 0 {
			covers = append(covers, m)
			continue
		}
		for _, at := range m.At {
			if !slices.Contains(covers[i].At, at) {
				covers[i].At = append(covers[i].At, at)
			}
		}
		for _, at := range m.Chars {
			if !slices.Contains(covers[i].Chars, at) {
				covers[i].Chars = append(covers[i].Chars, at)
			}
		}
	}
	return covers
}
