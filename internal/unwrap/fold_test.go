package unwrap

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"golang.org/x/text/unicode/norm"
)

// foldReference is fold as it was before it skipped text already in
// NFKC: the whole form made by norm, then every rune mapped.
func foldReference(text []byte) []byte {
	n := norm.NFKC.Bytes(text)
	var out []byte
	for i := 0; i < len(n); {
		r, size := utf8.DecodeRune(n[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = append(out, n[i])
		case invisible(r):
		default:
			if l, ok := lookalike[r]; ok {
				out = append(out, l)
			} else {
				out = utf8.AppendRune(out, r)
			}
		}
		i += size
	}
	return out
}

// fold skips the copy of text it would not change (NFKC already, no
// invisible character, no look-alike): the views must be the same as when
// it made one and Views threw it away as unchanged.
func TestFoldMatchesTheWholeForm(t *testing.T) {
	pieces := []string{"a", "Z", " ", "é", "e\u0301", "ﬁ", "Ａ", "𝐱", "а", "О", "\u200b", "\u00ad", "\ufe0f", "\ufffd",
		"\xff", "\xe2\x82", "日本", "ß", "Å", "\u212b", "ｶ", "ﾞ", "\u0308", "ı", "\U000e0101", "%", "+", `\`}
	rng := rand.New(rand.NewPCG(1, 2))
	texts := [][]byte{[]byte("plain ascii"), []byte("café"), []byte("cafe\u0301"), []byte("раураl")}
	for range 20000 {
		var b []byte
		for range 1 + rng.IntN(12) {
			if rng.IntN(4) == 0 {
				b = append(b, byte(rng.IntN(256)))
			} else {
				b = append(b, pieces[rng.IntN(len(pieces))]...)
			}
		}
		texts = append(texts, b)
	}
	changed, skipped := 0, 0
	for _, text := range texts {
		want := foldReference(text)
		got, ok := fold(text)
		switch {
		case !ok && !bytes.Equal(want, text):
			t.Fatalf("fold(%q) reported no change; the whole form is %q", text, want)
		case ok && !bytes.Equal(got, want):
			t.Fatalf("fold(%q) = %q, the whole form is %q", text, got, want)
		case ok:
			changed++
		default:
			skipped++
		}
	}
	if changed == 0 || skipped < 100 {
		t.Fatalf("the texts do not exercise both ways: %d changed, %d left as they were", changed, skipped)
	}
}

// TestFoldReadsBraille: Braille cells are the letters and digits they
// write, capitals and numbers by their signs, letters after digits by
// the letter sign.
func TestFoldReadsBraille(t *testing.T) {
	// "Ab 12c x": ⠠⠁⠃ ⠼⠁⠃⠰⠉ ⠭
	got, ok := fold([]byte("key ⠠⠁⠃ ⠼⠁⠃⠰⠉ ⠭"))
	if !ok || string(got) != "key Ab 12c x" {
		t.Fatalf("fold: %q, %v", got, ok)
	}
}

// TestFoldReadsSpacedBraille: cells written one apart are one word, the
// capital and number signs holding past the blank after them; words of
// several cells keep the blanks between them. Without cellAlone the
// blanks ended each sign and split the value.
func TestFoldReadsSpacedBraille(t *testing.T) {
	// "Ab12c": ⠠ ⠁ ⠃ ⠼ ⠁ ⠃ ⠰ ⠉
	for text, want := range map[string]string{
		"key ⠠ ⠁ ⠃ ⠼ ⠁ ⠃ ⠰ ⠉": "key Ab12c",
		"⠠⠁⠃ ⠼⠁⠃⠰⠉ ⠭":         "Ab 12c x",
	} {
		got, ok := fold([]byte(text))
		assert.True(t, ok)
		assert.Equal(t, want, string(got), text)
	}
}

// TestFoldReadsTagCharacters: tag characters, invisible, are the ASCII
// they smuggle, which a model reads; without the case they were dropped
// as invisible, and the value with them.
func TestFoldReadsTagCharacters(t *testing.T) {
	text := "thanks"
	for _, c := range "AKIAUS4DLDQVZ7UAGRNX" {
		text += string(rune(0xE0000 + c))
	}
	got, ok := fold([]byte(text))
	assert.True(t, ok)
	assert.Equal(t, "thanksAKIAUS4DLDQVZ7UAGRNX", string(got))
}
