package unwrap

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestLookupSpokenIsTheMap checks the shape table's answer against the
// map it is built from: every spelled word in lower, upper and mixed
// case, and random words of letters, digits and hyphens (most of the
// shapes prose gives, and near-misses of the words).
func TestLookupSpokenIsTheMap(t *testing.T) {
	want := func(w string) (byte, bool) {
		c, ok := spokenWords[strings.ToLower(w)]
		if len(w) < 2 || len(w) > 10 {
			return 0, false
		}
		return c, ok
	}
	check := func(w string) {
		t.Helper()
		c, ok := lookupSpoken([]byte(w))
		if wc, wok := want(w); c != wc && ok || ok != wok {
			t.Fatalf("lookupSpoken(%q) = %q, %v; the map says %q, %v", w, c, ok, wc, wok)
		}
	}
	for w := range spokenWords {
		check(w)
		check(strings.ToUpper(w))
		check(strings.ToUpper(w[:1]) + w[1:])
		check(w[:len(w)-1] + "q" + w[len(w)-1:])
		if len(w) > 2 {
			check(w[:1] + "z" + w[2:])
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-"
	for range 200_000 {
		b := make([]byte, 1+r.IntN(11))
		for k := range b {
			b[k] = alphabet[r.IntN(len(alphabet))]
		}
		check(string(b))
	}
}
