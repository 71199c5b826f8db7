package fingerprint

import (
	"encoding/binary"

	"github.com/flowd-dev/flowd/internal/budget"
)

// A secret can leave a few characters per call, in any order and amid
// any other text: the receiver knows where each piece goes. No single
// call then holds a piece as long as a fragment (fragmentLen), and the
// join of the calls holds no run of the secret. What each call does hold
// is a gramLen-byte run of it somewhere; the session adds up which of the
// secret's characters have left that way (flow's coverage), whatever the
// order and whatever surrounds them.

// gramLen is the shortest piece counted: a run of 8 characters of a
// random secret does not turn up by chance.
const gramLen = 8

// EncPieces names a secret whose characters left in runs over several
// calls (or places of one), in any order.
const EncPieces Encoding = "pieces"

// gram is where a secret holds a gramLen-byte run.
type gram struct {
	slot uint32
	off  uint16
}

// GramHit is a known secret some of whose characters a text holds, as
// runs of gramLen or more: Covered has a bit per character of it.
type GramHit struct {
	Secret  uint64
	Label   string
	Len     int
	Covered []uint64
}

// maxGramSecret bounds the secrets whose characters are counted: a
// longer one (a PEM key) leaves in pieces long enough for the fragment
// match.
const maxGramSecret = 256

// maxGramShare bounds the secrets a run is counted for: a run many
// secrets share (a common prefix) says little about any of them, and a
// lookup stays short.
const maxGramShare = 4

// Grams reports, for each known secret of an internal result, of at
// least 2·gramLen characters
// that text holds runs of, which of its characters those runs cover. Its
// work, one lookup per text position, is reported to b; when b runs out
// it stops and complete is false.
func (x *SecretIndex) Grams(text []byte, b *budget.Budget) (hits []GramHit, complete bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.byValue) == 0 || len(text) < gramLen {
		return nil, true
	}
	if x.grams == nil {
		x.grams = map[uint64][]gram{}
		// Only the secrets of internal results: keys an external source
		// sent are not the user's to lose, and a flood of planted keys
		// sharing runs would make every lookup long.
		for _, slot := range x.pools[0] {
			s := x.secrets[slot].value
			if len(s) < 2*gramLen || len(s) > maxGramSecret {
				continue
			}
			for i := 0; i+gramLen <= len(s); i++ {
				k := binary.LittleEndian.Uint64([]byte(s[i : i+gramLen]))
				if len(x.grams[k]) < maxGramShare {
					x.grams[k] = append(x.grams[k], gram{slot, uint16(i)})
				}
			}
		}
	}
	if len(x.grams) == 0 {
		return nil, true
	}
	bySlot := map[uint32]int{} // slot → index in hits
	work, next := 0, spendEvery
	for i := 0; i+gramLen <= len(text); i++ {
		if i >= next {
			if !b.Spend(work) {
				return hits, false
			}
			work, next = 0, i+spendEvery
		}
		work++
		for _, g := range x.grams[binary.LittleEndian.Uint64(text[i:i+gramLen])] {
			work++
			h, ok := bySlot[g.slot]
			if !ok {
				s := x.secrets[g.slot]
				h = len(hits)
				bySlot[g.slot] = h
				hits = append(hits, GramHit{Secret: s.id, Label: s.label, Len: len(s.value), Covered: make([]uint64, (len(s.value)+63)/64)})
			}
			for j := int(g.off); j < int(g.off)+gramLen; j++ {
				hits[h].Covered[j/64] |= 1 << (j % 64)
			}
		}
	}
	return hits, b.Spend(work)
}
