package fingerprint

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The automaton finds exactly the needles a plain search finds, with
// nodes of many children (thousands of needles over a wide alphabet),
// needles inside needles and needles sharing prefixes (a narrow one).
func TestNeedleSetAgreesWithPlainSearch(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, alphabet := range []string{"ab", "abcd", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"} {
		for round := range 20 {
			word := func(n int) []byte {
				b := make([]byte, n)
				for i := range b {
					b[i] = alphabet[r.IntN(len(alphabet))]
				}
				return b
			}
			// Needles sharing their first byte, as AWS keys do, give a
			// node below the root many children.
			shared := round%2 == 0
			var needles [][]byte
			for range 1 + r.IntN(2000) {
				n := word(minNeedle + r.IntN(12))
				if shared {
					n[0] = alphabet[0]
				}
				needles = append(needles, n)
			}
			text := word(2000)
			// Plant some needles whole.
			for range 10 {
				n := needles[r.IntN(len(needles))]
				at := r.IntN(len(text) - len(n))
				copy(text[at:], n)
			}
			a := newNeedleSet(needles)
			got := map[uint32]bool{}
			a.scan(text, nil, func(k uint32) {
				assert.False(t, got[k], "needle %d reported twice", k)
				got[k] = true
			})
			for k, n := range needles {
				assert.Equal(t, bytes.Contains(text, n), got[uint32(k)], "alphabet %q round %d needle %q", alphabet, round, n)
			}
		}
	}
}
