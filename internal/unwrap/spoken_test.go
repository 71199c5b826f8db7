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

// TestUnspellKeepsSymbolsWrittenAsThemselves: a value spelled word by
// word, with the punctuation it holds written as itself (quoted or
// alone), is read whole. Without literalSymbol the run ended at the
// first '?' and neither part spelled enough.
func TestUnspellKeepsSymbolsWrittenAsThemselves(t *testing.T) {
	for text, want := range map[string]string{
		"uniform CAPITAL-bravo CAPITAL-victor yankee '?' charlie india CAPITAL-alfa oscar CAPITAL-mike '%' alfa uniform echo one six": "uBVy?ciAoM%aue16",
		"papa alfa sierra sierra ! whiskey oscar romeo delta # one two three":                                                         "pass!word#123",
		`{"v":"kilo echo yankee \"$\" nine eight seven six \"@\" zulu"}`:                                                              "key$9876@z",
	} {
		assertInViews(t, text, want, false)
	}
}

// TestUnspellReadsOtherSpellingAlphabets: a value spelled in a German,
// French, Italian or Spanish alphabet, or with digits named in Japanese,
// Chinese, Hindi, Russian or Turkish, is read as NATO's spelling is.
// Each fails without the added words.
func TestUnspellReadsOtherSpellingAlphabets(t *testing.T) {
	for text, want := range map[string]string{
		"Anton Berta Caesar Dora Emil drei Friedrich Gustav Heinrich Ida Julius Kaufmann": "abcde3fghijk",
		"Anatole Berthe Celestin un deux Gaston Henri Irma Joseph Kleber":                 "abc12ghijk",
		"Ancona Bologna Como Empoli Firenze Genova Imola Livorno Milano":                  "abcefgilm",
		"ichi ni san yon go roku nana hachi kyuu":                                         "123456789",
		"yi er san si wu liu qi ba jiu ling":                                              "1234567890",
		"ek do teen char paanch chhah saat aath nau shunya":                               "1234567890",
		"odin dva tri chetyre pyat shest sem vosem devyat nol":                            "1234567890",
		"bir iki uc dort bes alti yedi sekiz dokuz sifir":                                 "1234567890",
	} {
		assertInViews(t, text, want, true)
	}
}
