package unwrap

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// viewBytes is what the views of text add to the matchers' input.
func viewBytes(text []byte) int {
	n := 0
	for _, v := range Views(text) {
		n += len(v)
	}
	return n
}

// Every matcher reads each view, so the views must stay linear in the
// text: at most viewFactor times it plus viewSlack, whatever the text
// (runs nested in runs, escapes everywhere, 16 MB of base64).
func FuzzViewsTime(f *testing.F) {
	f.Add("%41%42" + strings.Repeat("QUJD", 100) + " deadbeef" + strings.Repeat("0", 64))
	f.Add(base64.StdEncoding.EncodeToString([]byte(base64.StdEncoding.EncodeToString([]byte(strings.Repeat("x", 300))))))
	f.Fuzz(func(t *testing.T, text string) {
		assert.LessOrEqual(t, viewBytes([]byte(text)), viewFactor*len(text)+viewSlack)
	})
}

func TestViewsLinearOnLargeInput(t *testing.T) {
	for _, unit := range []string{"QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo", "%41+", "deadbeef", "a+b/c=d-e_f ", "big "} {
		for _, n := range []int{1 << 10, 1 << 20, 16 << 20} {
			text := []byte(strings.Repeat(unit, n/len(unit)+1)[:n])
			assert.LessOrEqual(t, viewBytes(text), viewFactor*n+viewSlack, "%q × %d bytes", unit, n)
		}
	}
}

// TestManyRunsAreBundled: text of thousands of distinct short encoded runs
// gives a bounded number of views, and what the last run decodes to is
// still read, whole, on a line of its own.
func TestManyRunsAreBundled(t *testing.T) {
	var text strings.Builder
	for i := range 20000 {
		text.WriteString(base64.StdEncoding.EncodeToString(fmt.Appendf(nil, "item %07d", i)) + " ")
	}
	const last = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
	text.WriteString(base64.StdEncoding.EncodeToString([]byte(last)))
	views := Views([]byte(text.String()))
	n := 0
	for _, v := range views {
		n += len(v)
	}
	assert.LessOrEqual(t, len(views), maxViews/2+n/bundleBytes+2, "views past maxViews are bundled")
	found := false
	for _, v := range views {
		for _, line := range bytes.Split(v, []byte("\n")) {
			found = found || string(line) == last
		}
	}
	assert.True(t, found, "the last run's decoding is a line of a bundle")
}

// TestNarrowRunsAreGivenUpEarly: a run of single letters between
// separators ("a\u200ba\u200b…", "a a a …") can never be cut pieces
// (oneWidth), and pieceRun, tried at each of its letters, gives it up at
// its second piece rather than reading on to maxRunPieces: 128 pieces a
// byte made a megabyte of it cost a call 400 ms. The pieces it read are
// what its scratch grew to.
func TestNarrowRunsAreGivenUpEarly(t *testing.T) {
	for _, unit := range []string{"a\u200b", "a ", "ab-"} {
		text := []byte(strings.Repeat(unit, 1000))
		for _, i := range []int{0, len(unit), 10 * len(unit)} {
			end, pieces, _ := pieceRun(text, i, nil)
			assert.Zero(t, end, "%q at %d", unit, i)
			assert.LessOrEqual(t, cap(pieces), 2, "%q at %d: pieces read", unit, i)
		}
	}
}

// TestWordRunsArePassedOverWhole: a run of words of one length between
// blanks is no cut value, and pieceViews passes over it whole, as it does
// a cut value: given up (end 0), it was read again from each of its words
// to maxRunPieces, 128 pieces a word (16 MB of "big " took minutes).
func TestWordRunsArePassedOverWhole(t *testing.T) {
	text := []byte(strings.Repeat("big ", 1000))
	end, pieces, words := pieceRun(text, 0, nil)
	assert.True(t, words)
	assert.Len(t, pieces, maxRunPieces)
	assert.Equal(t, maxRunPieces*len("big "), end+1, "where the caller reads on")
	p, ok := pieceViews(text)
	assert.False(t, ok, "words are not joined: %.40q", p)
}

// A run of numbers that reads as no token is read again from its later
// numbers, so codes after a few out of range are still read; past
// maxRetries tries in one run, tries are made at doubling distances, so
// codes after many out of range are read from somewhere inside them, and
// the run costs its length times a logarithm, not its square.
func TestCodesAfterNumbersOutOfRange(t *testing.T) {
	const key = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
	codes := func(s string) string {
		var b strings.Builder
		for _, c := range []byte(s) {
			fmt.Fprintf(&b, "%d ", c)
		}
		return b.String()
	}
	has := func(text, want string) bool {
		for _, v := range Views([]byte(text)) {
			if bytes.Contains(v, []byte(want)) {
				return true
			}
		}
		return false
	}
	assert.True(t, has("200 3 250 "+codes(key), key), "codes after three out of range")
	assert.True(t, has(strings.Repeat("200 3 250 ", 30)+codes(key+key+key), key), "codes after ninety out of range")
}
