package fingerprint

import (
	"math/rand/v2"
	"testing"
)

// TestFilterHoldsEveryKey puts keys into an Index's window table through
// growth, eviction and purges (MaxOrigins 4 of each kind) and checks that
// the filter lets every key the table holds through: a key it dropped
// would be a window Match never looks up, an origin's data leaving
// unmatched. It also checks that the filter turns away most keys the
// table does not hold, or it saves nothing.
func TestFilterHoldsEveryKey(t *testing.T) {
	x, err := NewIndex(Options{MaxOrigins: 4})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for id := range uint64(200) {
		p := &Prints{grams: make([]uint64, 1+r.IntN(5000))}
		for i := range p.grams {
			p.grams[i] = validKey(r.Uint64())
		}
		x.Insert(id, p, id%3 == 0)
		if id == 150 {
			x.ForgetExternal()
		}
		var held []uint64
		for pos := 0; pos >= 0; {
			held, pos = x.grams.chunk(held, pos)
		}
		for key := range x.grams.stash {
			held = append(held, key<<16)
		}
		for _, e := range held {
			if !x.seen.mayHold(e >> 16) {
				t.Fatalf("after origin %d: the filter turns away key %x, which the table holds", id, e>>16)
			}
		}
	}
	through := 0
	const tries = 100_000
	for range tries {
		if x.seen.mayHold(validKey(r.Uint64())) {
			through++
		}
	}
	if through > tries/5 {
		t.Errorf("the filter lets %d of %d keys the table does not hold through; want at most a fifth", through, tries)
	}
}
