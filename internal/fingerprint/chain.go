package fingerprint

// Cover's runs of coverGram characters are the secret in its own order.
// A secret also leaves whole, in one call, with a filler character put in
// every few characters (cheap for the receiver to take out again), with
// each block of a few characters reversed, or with every character
// doubled; and in pieces reversed before an encoding the views undo. No
// such text holds a run of coverGram of the secret's characters.
//
// The chain pass reads the same canonical text for chains of trigrams of
// a secret, each read forwards or backwards (all of a chain the same way),
// that follow one another in the text as they do in the secret, forwards
// or backwards, with at most chainSkip characters of the text between
// them that the secret does not have there. Runs of a repeated character
// count once on both sides. A chain of chainHits trigrams, or of
// chainHits-1 spanning chainSpan characters of the secret, is as unlikely
// by chance as a run of coverGram, and adds the characters its trigrams
// cover; Cover reports the runs of coverGram characters so covered.

import (
	"math/bits"

	"github.com/flowd-dev/flowd/internal/budget"
)

const (
	chainCodes = 36 * 36 * 36 // trigrams of canonical characters
	chainSkip  = 2            // text characters between two trigrams of a chain that the secret lacks there
	chainStep  = 3            // secret characters from one trigram of a chain to the next, at most
	chainHits  = 4
	chainSpan  = 9
	chainBack  = chainStep + chainSkip // text positions a trigram's predecessor may be back
	chainJump  = 2*5 - 3               // secret characters from the start of a reversed block of 5 to the end of the next
	// chainPerGram bounds the secrets' places one trigram is kept for:
	// each is compared with the places found just before it, and
	// look-alike secrets (one prefix, one alphabet) share trigrams.
	chainPerGram = 4
)

// chainAt is one trigram of a secret: where it starts in the secret's
// collapsed form, and whether the text reads it backwards.
type chainAt struct {
	slot uint32
	pos  uint16
	rev  bool
}

type chainSet struct {
	grams map[uint32][]chainAt // while the secrets are added; nil once frozen
	bits  []uint64             // a bit per trigram code that any secret has
	orig  map[uint32][]uint16  // per slot, where each character indexed starts in the canonical form
	// Once frozen, the places of the codes in bits, in code order: those
	// of the k-th code set are at[offs[k]:offs[k+1]], and rank has, per
	// word of bits, the codes set in the words before it. Read for each
	// trigram of every call to an external destination, this costs a
	// popcount where the map cost a hash.
	rank []uint32
	offs []uint32
	at   []chainAt
}

// chainCode maps canonical characters to 0..35.
var chainCode = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = uint8(c - 'a')
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = uint8(26 + c - '0')
	}
	return t
}()

func newChainSet() chainSet {
	return chainSet{grams: map[uint32][]chainAt{}, bits: make([]uint64, (chainCodes+63)/64), orig: map[uint32][]uint16{}}
}

// The forms of canonical text the chains are read in.
const (
	formAsIs     = iota
	formCollapse // runs of a repeated character counted once
	formShift    // collapsed, each letter as its distance from the letter before: a Caesar shift (rot13) of the letters leaves it as it is
	// formRotate is formShift with each digit as its distance from the
	// digit before, for a rotation of the digits as well: read in small
	// texts only (extendedMax), since a piece's first digit has no digit
	// before it there, where formShift keeps the digits as they are.
	formRotate
	forms
)

// former reads canonical text in a form, a character at a time.
type former struct {
	form          int
	have          bool
	last          byte
	letter, digit byte // in formRotate, the last of each, 0 before the first
}

// next is the form's character for ch, if ch makes one.
func (f *former) next(ch byte) (byte, bool) {
	last, have := f.last, f.have
	f.last, f.have = ch, true
	switch f.form {
	case formCollapse:
		return ch, !have || ch != last
	case formShift:
		switch {
		case !have:
			return 0, false
		case ch == last:
			return 0, false // repeats counted once here too
		case ch < 'a':
			return ch, true // a digit, which a shift of the letters keeps
		case last < 'a':
			return 'a', true
		}
		return 'a' + (ch-last+26)%26, true
	case formRotate:
		if have && ch == last {
			return 0, false
		}
		if ch < 'a' {
			prev := f.digit
			f.digit = ch
			if prev == 0 {
				return '0', true
			}
			return '0' + (ch-prev+10)%10, true
		}
		prev := f.letter
		f.letter = ch
		if prev == 0 {
			return 'a', true
		}
		return 'a' + (ch-prev+26)%26, true
	}
	return ch, true
}

// add indexes canon, the canonical form of the secret in slot, in c's
// form; the reversed trigrams too, but in the shift forms (where reversing
// the text does not reverse the form).
func (c *chainSet) add(slot uint32, canon []byte, form int) int {
	var col []byte
	var orig []uint16
	f := former{form: form}
	for i, ch := range canon {
		if sym, ok := f.next(ch); ok {
			col = append(col, sym)
			orig = append(orig, uint16(i))
		}
	}
	c.orig[slot] = orig
	for p := 0; p+3 <= len(col); p++ {
		a, b, d := uint32(chainCode[col[p]]), uint32(chainCode[col[p+1]]), uint32(chainCode[col[p+2]])
		for _, e := range []struct {
			code uint32
			rev  bool
		}{{(a*36+b)*36 + d, false}, {(d*36+b)*36 + a, true}} {
			if e.rev && form >= formShift {
				continue
			}
			if at := c.grams[e.code]; len(at) < chainPerGram {
				c.grams[e.code] = append(at, chainAt{slot, uint16(p), e.rev})
			}
			c.bits[e.code/64] |= 1 << (e.code % 64)
		}
	}
	return 2 * len(col)
}

// freeze makes the places added ready for scan, which reads them through
// places; nothing is added after.
func (c *chainSet) freeze() {
	c.rank = make([]uint32, len(c.bits))
	n := 0
	for w, b := range c.bits {
		c.rank[w] = uint32(n)
		n += bits.OnesCount64(b)
	}
	c.offs = make([]uint32, 0, n+1)
	for w, b := range c.bits {
		for ; b != 0; b &= b - 1 {
			c.offs = append(c.offs, uint32(len(c.at)))
			c.at = append(c.at, c.grams[uint32(w*64+bits.TrailingZeros64(b))]...)
		}
	}
	c.offs = append(c.offs, uint32(len(c.at)))
	c.grams = nil
}

// places are the secrets' places of the trigram code, nil for a code no
// secret has.
func (c *chainSet) places(code uint32) []chainAt {
	w, bit := code/64, uint64(1)<<(code%64)
	if c.bits[w]&bit == 0 {
		return nil
	}
	k := c.rank[w] + uint32(bits.OnesCount64(c.bits[w]&(bit-1)))
	return c.at[c.offs[k]:c.offs[k+1]]
}

// chainHit is a trigram of a secret found in the text, and the longest
// chain it ends.
type chainHit struct {
	t      int // where it starts in the text's form
	at     chainAt
	dir    int8   // +1 when the chain goes forwards in the secret, -1 backwards, 0 while it is one trigram
	n      int    // trigrams in the chain
	lo, hi uint16 // the first and last trigram's start in the secret
	prev   [chainHits - 1]uint16
}

func (h *chainHit) counts() bool {
	return h.n >= chainHits || h.n >= chainHits-1 && int(h.hi-h.lo)+3 >= chainSpan
}

// scan reads canon in form, as add read the secrets, marking the
// characters of each secret that a chain covers with cover(slot, position
// in the secret's form). Its work is reported to b.
func (c *chainSet) scan(canon []byte, form int, b *budget.Budget, cover func(slot uint32, pos uint16)) bool {
	var ring [chainBack + 1][]chainHit
	// slots has a bit per ring bucket for each slot%64 its hits are in:
	// a trigram's places are compared only with the buckets that may
	// hold a place of the same secret. With hundreds of secrets nearly
	// every trigram of prose is some secret's, and nearly every place
	// before it another secret's.
	var slots [chainBack + 1]uint64
	var c0, c1, c2 uint32 // the last three characters' codes
	t, have := -1, 0
	f := former{form: form}
	work, next := 0, spendEvery
	for i, ch := range canon {
		if i >= next {
			if !b.Spend(work) {
				return false
			}
			work, next = 0, i+spendEvery
		}
		sym, ok := f.next(ch)
		if !ok {
			continue
		}
		t++
		work++
		c0, c1, c2 = c1, c2, uint32(chainCode[sym])
		if have < 2 {
			have++
			continue
		}
		start := t - 2
		// A bucket is emptied only when it gets hits: the places before
		// are told from older ones by where they start.
		if at := c.places((c0*36+c1)*36 + c2); len(at) > 0 {
			bucket := ring[start%len(ring)][:0]
			var in uint64
			for _, at := range at {
				h := chainHit{t: start, at: at, n: 1, lo: at.pos, hi: at.pos}
				in |= 1 << (at.slot % 64)
				var best *chainHit
				for back := 1; back <= chainBack && back <= start; back++ {
					if slots[(start-back)%len(ring)]&(1<<(at.slot%64)) == 0 {
						continue
					}
					for k := range ring[(start-back)%len(ring)] {
						p := &ring[(start-back)%len(ring)][k]
						work++
						if p.t != start-back || p.at.slot != at.slot || p.at.rev != at.rev {
							continue
						}
						d, dir := int(at.pos)-int(p.at.pos), int8(1)
						if d < 0 {
							d, dir = -d, -1
						}
						// From the start of one reversed block to the
						// end of the next (blocks of 4 to 5 characters):
						// the chain goes on, in either direction.
						if jump := at.rev && back == 3 && dir > 0 && d > chainStep && d <= chainJump; jump {
							dir = 0
						} else if d < 1 || d > chainStep || back < d || back-d > chainSkip || p.dir != 0 && p.dir != dir {
							continue
						}
						if best == nil || p.n > best.n {
							best = p
							h.dir = dir
						}
					}
				}
				if best != nil {
					h.n = best.n + 1
					h.lo, h.hi = min(best.lo, at.pos), max(best.hi, at.pos)
					h.prev[0] = best.at.pos
					copy(h.prev[1:], best.prev[:])
					switch {
					case h.counts() && !best.counts():
						for _, p := range h.prev[:h.n-1] {
							cover(at.slot, p)
						}
						cover(at.slot, at.pos)
					case h.counts():
						cover(at.slot, at.pos)
					}
				}
				bucket = append(bucket, h)
			}
			ring[start%len(ring)], slots[start%len(ring)] = bucket, in
		}
	}
	return b.Spend(work)
}
