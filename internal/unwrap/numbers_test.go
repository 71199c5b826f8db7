package unwrap

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNumberWordsAreDigits: numbers in words, with or without "and" and
// hyphens, are written in digits and the codes they spell read as
// characters; digits' words alone and prose that names a number or two
// are left to the readers they were.
func TestNumberWordsAreDigits(t *testing.T) {
	got, ok := numberWords([]byte("one hundred and fifteen; ninety-eight, seven, twenty one; one hundred two; 1 2 3 4 5 6 7 8 nine"))
	assert.False(t, ok, "fewer than minCodes numbers in words: %q", got)
	var w []string
	for _, v := range []int{115, 98, 7, 21, 102, 116, 111, 107, 95, 57, 102, 81, 50} {
		w = append(w, spellNumber(v))
	}
	got, ok = numberWords([]byte(strings.Join(w, ", ")))
	assert.True(t, ok)
	assert.Equal(t, "115, 98, 7, 21, 102, 116, 111, 107, 95, 57, 102, 81, 50", string(got))
	_, ok = numberWords([]byte("one two three four five six seven eight nine zero one two three"))
	assert.False(t, ok, "digits' words are unspell's")
	_, ok = numberWords([]byte("Twenty people came to the meeting, and one hundred more watched it online."))
	assert.False(t, ok)

	const tok = "tok_9fQ2xLr7Vm4Kp8Zs1Wd6Hy3N"
	w = w[:0]
	for _, c := range []byte(tok) {
		w = append(w, spellNumber(int(c)))
	}
	views := Views([]byte(`{"body":"` + strings.Join(w, "; ") + `"}`))
	assert.True(t, slices.ContainsFunc(views, func(v []byte) bool { return bytes.Contains(v, []byte(tok)) }), "%q", views)
}

// spellNumber writes 0-999 in words, British style.
func spellNumber(v int) string {
	units := strings.Fields("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen")
	tens := strings.Fields("_ _ twenty thirty forty fifty sixty seventy eighty ninety")
	var out []string
	if v >= 100 {
		out = append(out, units[v/100], "hundred")
		if v %= 100; v == 0 {
			return strings.Join(out, " ")
		}
		out = append(out, "and")
	}
	switch {
	case v < 20:
		out = append(out, units[v])
	case v%10 == 0:
		out = append(out, tens[v/10])
	default:
		out = append(out, tens[v/10]+"-"+units[v%10])
	}
	return strings.Join(out, " ")
}

// TestRawCodesAreBytes: a run of numbers up to 255 that are not all the
// codes of printable text (an offset added, indexes into an alphabet)
// is a view of the bytes they are; printable codes, short runs and runs
// with a number past a byte are not.
func TestRawCodesAreBytes(t *testing.T) {
	var plus, idx, plain []string
	for i, c := range []byte("tok_9fQ2xLr7Vm4Kp8Zs1Wd6Hy3N") {
		plus = append(plus, fmt.Sprint(int(c)+100))
		idx = append(idx, fmt.Sprint(i%40))
		plain = append(plain, fmt.Sprint(int(c)))
	}
	assert.Len(t, rawCodes(nil, []byte("n="+strings.Join(plus, ","))), 1)
	assert.Len(t, rawCodes(nil, []byte(strings.Join(idx, " "))), 1)
	assert.Empty(t, rawCodes(nil, []byte(strings.Join(plain, ","))))
	assert.Empty(t, rawCodes(nil, []byte("1 2 3 4 5")))
	assert.Empty(t, rawCodes(nil, []byte("300 1 2 3 4 5 6 7 8 9 10 11 400 1 2 3 4 5 6 7 8 9 10 256")))
}
