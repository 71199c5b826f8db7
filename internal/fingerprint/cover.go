package fingerprint

import (
	"encoding/binary"
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
}

type coverAt struct {
	slot uint32
	pos  uint16
}

type coverSet struct {
	grams map[uint64][]coverAt
	start []uint64 // a bit per hashed 4-byte start of a gram
	lens  map[uint32]int
	chain [forms]chainSet
}

// buildCover indexes the grams of the internal pool's secrets: a secret
// that arrived from outside (a page full of planted key-shaped strings)
// is no secret of the user's to piece together, and would only add work.
func (x *SecretIndex) buildCover() int {
	c := &coverSet{grams: map[uint64][]coverAt{}, start: make([]uint64, startBits/64), lens: map[uint32]int{},
		chain: [forms]chainSet{newChainSet(), newChainSet(), newChainSet()}}
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
		for i := 0; i+coverGram <= len(canon); i++ {
			g := gram(canon[i:])
			if at := c.grams[g]; len(at) < coverPerGram {
				c.grams[g] = append(at, coverAt{slot, uint16(i)})
			}
			b := startBit(canon[i:])
			c.start[b/64] |= 1 << (b % 64)
			work++
		}
	}
	x.cover = c
	return work
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
	bySlot := map[uint32]int{} // slot → index in out
	var out []Cover
	// By index in out, the positions in the secret noted already: text
	// made of copies of a secret's neighbourhood hits the same few
	// thousand positions at every offset, and the caller reads them as a
	// set.
	var noted [][]uint64
	note := func(slot uint32, pos uint16) {
		k, ok := bySlot[slot]
		if !ok {
			k = len(out)
			bySlot[slot] = k
			s := x.secrets[slot]
			out = append(out, Cover{Secret: s.id, Label: s.label, Len: c.lens[slot]})
			noted = append(noted, make([]uint64, (c.lens[slot]+63)/64))
		}
		if w, bit := pos/64, uint64(1)<<(pos%64); noted[k][w]&bit == 0 {
			noted[k][w] |= bit
			out[k].At = append(out[k].At, int(pos))
		}
	}
	work, next := 0, spendEvery
	for i := 0; i+coverGram <= len(canon); i++ {
		if i >= next {
			if !b.Spend(work) {
				return nil, false
			}
			work, next = 0, i+spendEvery
		}
		work++
		if sb := startBit(canon[i:]); c.start[sb/64]&(1<<(sb%64)) == 0 {
			continue
		}
		for _, at := range c.grams[gram(canon[i:])] {
			work++
			note(at.slot, at.pos)
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
				note(slot, uint16(i+1-coverGram))
			}
		}
	}
	return out, b.Spend(work)
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
	for _, c := range b {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			out = append(out, c)
		case c >= 'A' && c <= 'Z':
			out = append(out, c+'a'-'A')
		}
	}
	return out
}

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
	}
	return covers
}
