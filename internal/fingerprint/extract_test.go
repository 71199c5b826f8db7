package fingerprint

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Hello World", "helloworld"},
		{"  a\r\n\tb  ", "ab"},
		{`line1\nline2\t\"q\"`, `line1line2"q"`},
		{`caf\u00C9 \ud83d\ude00`, "café😀"},
		{"ÀÉÎ\u00a0ÕÜ\u3000x", "àéîõüx"},
		{`C:\\path`, `c:\path`},
		{`trailing\`, `trailing\`},
		{`bad \q escape`, `bad\qescape`},
		{"bin\xff\xfeary", "bin\xff\xfeary"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, string(normalize(nil, []byte(tt.in))), "%q", tt.in)
	}
}

func TestInformative(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"deploykey", true},
		{"2024-05-01t12:00:00.000z", false},
		{"12345678901234567890", false},
		{"aaaaaaaaaaaaaaaaaaaaaa", false},
		{"abababababababababab", false},
		{"----------------", false},
		{"ключдоступа", true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, informative([]byte(tt.in)), tt.in)
	}
}

// The index stores sampled keys and looks up rolled ones: both must agree,
// whether sampleKeys hashes windows whole or from blocks (k a multiple of
// the stride).
func TestSampleKeysAreGramKeys(t *testing.T) {
	c := newCorpus(5)
	// Runs of spaces and digits make some first windows uninformative.
	s := normalize(nil, []byte(c.logs(2000)+c.code(2000)+"aaaa 1234567890123456789012345678901234567890 "+c.prose(500)))
	for _, kw := range [][2]int{{20, 16}, {32, 16}, {32, 8}, {48, 16}, {16, 16}, {64, 8}, {72, 8}, {8, 16}, {20, 1}} {
		k, w := kw[0], kw[1]
		all, _ := gramKeys(nil, nil, s, k, nil)
		require.Len(t, all, len(s)-k+1)
		var want []uint64
		for run := 0; run < len(all); run += w {
			for _, key := range all[run:min(run+w, len(all))] {
				if key != 0 {
					want = append(want, key)
					break
				}
			}
		}
		assert.Equal(t, want, sampleKeys(nil, s, k, w), "k %d, stride %d", k, w)
		short, _ := gramKeys(nil, nil, s[:k-1], k, nil)
		assert.Empty(t, short)
	}
}

// With a filter, gramKeys gives the keys and places of the windows a
// match looks up: the informative ones the filter may hold, in order.
func TestFilteredGramKeysAreTheLookedUpOnes(t *testing.T) {
	c := newCorpus(6)
	s := normalize(nil, []byte(c.logs(3000)+c.code(3000)+"aaaa 1234567890123456789012345678901234567890 "+c.prose(800)))
	const k = 32
	all, _ := gramKeys(nil, nil, s, k, nil)
	f := keyFilter{bits: make([]uint64, 1<<16/64), shift: 64 - 16}
	for i, key := range all {
		if key != 0 && i%5 == 0 {
			f.add(key)
		}
	}
	var want []uint64
	var wantAt []int
	for i, key := range all {
		if key != 0 && f.mayHold(key) {
			want, wantAt = append(want, key), append(wantAt, i)
		}
	}
	got, at := gramKeys(nil, nil, s, k, &f)
	assert.Equal(t, want, got)
	assert.Equal(t, wantAt, at)
	assert.Greater(t, len(got), len(all)/5-1)
	assert.Less(t, len(got), len(all)/2, "the filter turns most windows away")
}

func TestExtract(t *testing.T) {
	x := extractor{minLen: 20, maxUnit: 1 << 20, seed: maphash.MakeSeed()}
	texts := func() (out []string) {
		for _, t := range x.texts {
			out = append(out, string(t))
		}
		return out
	}
	raws := func() (out []string) {
		for _, u := range x.units {
			out = append(out, string(u.raw))
		}
		return out
	}

	x.run([]byte(`{"content":[{"type":"text","text":"The Quick brown fox jumps over the lazy dog"}],"isError":false}`))
	assert.Equal(t, []string{"thequickbrownfoxjumpsoverthelazydog"}, texts(), "envelope keys and short values are not text")
	assert.Equal(t, []string{"The Quick brown fox jumps over the lazy dog",
		`{"content":[{"type":"text","text":"The Quick brown fox jumps over the lazy dog"}],"isError":false}`}, raws())

	x.run([]byte(`{"text":"{\"user\":\"alice\",\"note\":\"the vault passphrase is purple\"}"}`))
	assert.Equal(t, []string{"thevaultpassphraseispurple"}, texts(), "JSON inside a string is parsed, not fingerprinted as text")
	assert.Len(t, x.units, 3, "note, the inner document, the whole")

	x.run([]byte(`{"a": "an unfinished string value that was cut`))
	assert.Equal(t, []string{"anunfinishedstringvaluethatwascut"}, texts())
	assert.Equal(t, []string{"an unfinished string value that was cut"}, raws(), "a cut document is no whole unit")

	x.run([]byte("[INFO] not json at all, just a log line"))
	assert.Equal(t, []string{"[info]notjsonatall,justalogline"}, texts())
	assert.Len(t, x.units, 1)
}

// Normalising a text in two parts, the second starting where the first
// call stopped, gives what normalising it whole gives, wherever the text
// is cut.
func TestNormalizeSomeStopsBeforeACutSequence(t *testing.T) {
	text := []byte(`Ab\u00e9\ud83d\ude00 \\\n\"q\" é日本\t\ud800 x\`)
	want := string(normalize(nil, text))
	for c := range len(text) + 1 {
		got, used := normalizeSome(nil, text[:c], false)
		assert.LessOrEqual(t, c-used, maxToken, "cut at %d", c)
		got = normalize(got, text[used:])
		assert.Equal(t, want, string(got), "cut at %d", c)
	}
}

// A string value too long to be a unit is normalised as it is decoded, a
// chunk at a time: its text must be what normalising it whole gives,
// whatever escape, character or run of backslashes a chunk's edge cuts.
func TestLongValueSpillsAsNormalisingWholeWould(t *testing.T) {
	pieces := []string{`Ab \u00e9\ud83d\ude00 `, `\\`, `\\\\n`, `\"quoted\" `, `é日本`, `\t\n`, `x\\u0041`, `\ud800 lone `, "Z"}
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 24 {
		var sb strings.Builder
		for sb.Len() < 2*spillChunk+round*7919 {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		inner := sb.String() // a JSON string's contents, escapes as written
		var decoded string
		require.NoError(t, json.Unmarshal([]byte(`"`+inner+`"`), &decoded))
		want := string(normalize(nil, []byte(decoded)))

		x := extractor{minLen: 20, maxUnit: 1024, seed: maphash.MakeSeed()}
		x.run([]byte(`{"a":"` + inner + `","b":"a short value after it that is long enough"}`))
		require.Len(t, x.texts, 2)
		assert.Equal(t, want, string(x.texts[0]), "round %d", round)
		assert.Less(t, cap(x.dec), 4*spillChunk, "round %d: the value's decoded copy is not held", round)
	}
}

// Past retainBudget, a unit is hashed at once and its bytes let go; it
// matches and reports as one whose bytes were kept.
func TestUnitsPastTheBudgetAreHashedAtOnce(t *testing.T) {
	x := newTestIndex(t, Options{})
	c := newCorpus(9)
	field := c.prose(3000)
	x.Add(1, toolCall(map[string]any{"note": field}))
	var values []any
	for range 2 * retainBudget / 3000 {
		values = append(values, c.prose(3000))
	}
	got := x.Match(toolCall(map[string]any{"list": append(values, field)}))
	require.NotEmpty(t, got)
	sum := sha256.Sum256([]byte(field))
	assert.Equal(t, Match{Origin: 1, Kind: KindField, Hash: hex.EncodeToString(sum[:16]), Length: len(field)}, got[0])
}

func TestStructuralHash(t *testing.T) {
	x := extractor{minLen: 20, maxUnit: 1 << 20, seed: maphash.MakeSeed()}
	hash := func(s string) uint64 {
		h, err := x.parse([]byte(s), 0)
		require.NoError(t, err, s)
		return h
	}
	base := hash(`{"b":"Value One","a":[1,2,{"k":"v","j":null}],"c":true}`)
	assert.Equal(t, base, hash("{\n  \"c\": true,\n  \"a\": [1, 2, {\"j\": null, \"k\": \"v\"}],\n  \"b\": \"VALUE  one\"\n}"))
	assert.Equal(t, base, hash(`{"b":"Value\u0020One","a":[1,2,{"k":"v","j":null}],"c":true}`))
	for _, other := range []string{
		`{"b":"Value One","a":[2,1,{"k":"v","j":null}],"c":true}`,
		`{"b":"Value One","a":[1,2,{"k":"v","j":null}],"c":false}`,
		`{"b":"Value One","a":[1,2,{"k":"v","i":null}],"c":true}`,
		`{"b":"Value One","a":[1,2,{"k":"v"}],"c":true}`,
		`{"a":"Value One","b":[1,2,{"k":"v","j":null}],"c":true}`,
	} {
		assert.NotEqual(t, base, hash(other), other)
	}
	for _, bad := range []string{`{"a":1,}`, `{"a" 1}`, `[1 2]`, `{"a":tru}`, `{"a":"\x"}`, `{} extra`} {
		_, err := x.parse([]byte(bad), 0)
		assert.ErrorIs(t, err, errSyntax, bad)
	}
	for _, cut := range []string{`{"a":`, `[1,`, `{"a":"b`, `{"a":tr`, `{"a":"\u00`} {
		_, err := x.parse([]byte(cut), 0)
		assert.ErrorIs(t, err, errTruncated, cut)
	}
}

func TestTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var tb table
	want := map[uint64]uint16{}
	for i := range 20_000 {
		k := rng.Uint64()&keyMask | 1
		s := uint16(i % 100)
		if !tb.roomFor(1) {
			tb.resize()
		}
		tb.put(k, s)
		want[k] = s
	}
	check := func() {
		t.Helper()
		require.Equal(t, len(want), tb.n)
		for k, s := range want {
			got, ok := tb.get(k)
			require.True(t, ok, "key %x lost", k)
			require.Equal(t, s, got)
		}
		for range 1000 {
			k := rng.Uint64()&keyMask | 1
			if _, in := want[k]; !in {
				_, ok := tb.get(k)
				require.False(t, ok)
			}
		}
	}
	check()
	purgeSlots(&tb, want, 90)
	check()
	assert.Less(t, len(tb.cells), 8192, "shrinks after a purge")
}

// The packed form must hold exactly what the wide form holds: a bucket and
// a tag give back the whole key, at any bucket count from 2^16 on.
// purgeSlots evicts the origins in slots below n, from tb and from want.
func purgeSlots(tb *table, want map[uint64]uint16, n uint16) {
	dead := make([]bool, 100)
	for s := range n {
		dead[s] = true
	}
	for k, s := range want {
		if dead[s] {
			delete(want, k)
		}
	}
	tb.purge(dead)
}

func TestPackedKeysRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, nb := range []int{minPackedBuckets, minPackedBuckets + 1, 100_003, 1 << 20} {
		tb := table{buckets: make([]bucket, nb)}
		for range 10_000 {
			k := validKey(rng.Uint64())
			b := tb.homeBucket(k)
			first := tb.firstKey(b)
			require.LessOrEqual(t, first, k)
			require.Equal(t, k, first+uint64(uint32(k)-uint32(first)), "buckets %d key %x", nb, k)
		}
		require.Equal(t, nb-1, tb.homeBucket(keyMask))
		require.Equal(t, 0, tb.homeBucket(1))
	}
}

func TestPackedTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var tb table
	want := map[uint64]uint16{}
	// Enough keys to leave the wide form, and to fill packed buckets to
	// the load where some keys land in the stash.
	for i := range 900_000 {
		k := validKey(rng.Uint64())
		s := uint16(i % 100)
		if !tb.roomFor(1) {
			tb.resize()
		}
		tb.put(k, s)
		want[k] = s
	}
	require.NotEmpty(t, tb.buckets, "packed")
	require.Nil(t, tb.cells)
	check := func() {
		t.Helper()
		require.Equal(t, len(want), tb.n)
		for k, s := range want {
			got, ok := tb.get(k)
			require.True(t, ok, "key %x lost", k)
			require.Equal(t, s, got)
		}
		for range 100_000 {
			k := validKey(rng.Uint64())
			if _, in := want[k]; !in {
				_, ok := tb.get(k)
				require.False(t, ok)
			}
		}
		require.Equal(t, want, entries(&tb))
	}
	// Fill up to the growth bound, where probe runs are longest.
	for tb.roomFor(1) {
		k := validKey(rng.Uint64())
		tb.put(k, 7)
		want[k] = 7
	}
	assert.NotEmpty(t, tb.stash, "some keys overflow their probe window at this load")
	check()
	// Replacing keeps one entry per key, wherever it sits.
	replaced := 0
	for k := range want {
		if replaced++; replaced > 1000 {
			break
		}
		tb.put(k, 99)
		want[k] = 99
	}
	for k := range tb.stash {
		tb.put(k, 98)
		want[k] = 98
	}
	check()
	purgeSlots(&tb, want, 90)
	check()
	assert.Empty(t, tb.buckets, "shrinks back to the wide form after a purge")
}

// entries reads every entry of tb back, as rebuild does.
func entries(tb *table) map[uint64]uint16 {
	got := map[uint64]uint16{}
	var buf []uint64
	for pos := 0; pos >= 0; {
		buf, pos = tb.chunk(buf[:0], pos)
		for _, e := range buf {
			got[e>>16] = uint16(e)
		}
	}
	for k, s := range tb.stash {
		got[k] = s
	}
	return got
}

// Every rune normalises to its lower case, white space to nothing, the
// runes of the two-byte table as those of the unicode tables; also one
// escaped, and amid others.
func TestNormalizeEachRune(t *testing.T) {
	var all, want []byte
	for r := rune(0x80); r < 0x3000; r++ {
		if unicode.Is(unicode.Cs, r) {
			continue
		}
		w := string(unicode.ToLower(r))
		if unicode.IsSpace(r) {
			w = ""
		}
		assert.Equal(t, w, string(normalize(nil, utf8.AppendRune(nil, r))), "%U", r)
		assert.Equal(t, w, string(normalize(nil, fmt.Appendf(nil, `\u%04X`, r))), "%U escaped", r)
		all, want = utf8.AppendRune(append(all, 'X'), r), append(append(want, 'x'), w...)
	}
	assert.Equal(t, string(want), string(normalize(nil, all)))
}
