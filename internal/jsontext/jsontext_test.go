package jsontext

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestHex(t *testing.T) {
	for c := range 256 {
		b := byte(c)
		want := '0' <= b && b <= '9' || 'a' <= b && b <= 'f' || 'A' <= b && b <= 'F'
		assert.Equal(t, want, IsHex(b), "%q", b)
	}
	for i, c := range []byte("0123456789abcdef") {
		assert.Equal(t, byte(i), Unhex(c))
	}
	for i, c := range []byte("ABCDEF") {
		assert.Equal(t, byte(10+i), Unhex(c))
	}
	r, ok := Hex4([]byte("00e9x"))
	assert.True(t, ok)
	assert.Equal(t, 'é', r)
	_, ok = Hex4([]byte("00e"))
	assert.False(t, ok)
	_, ok = Hex4([]byte("0x12"))
	assert.False(t, ok)
}

func TestDecode(t *testing.T) {
	for _, tt := range []struct {
		raw, want string
		ok        bool
	}{
		{`abc`, "abc", true},
		{`\u0061\/\n\t\r\b\f\"\\`, "a/\n\t\r\b\f\"\\", true},
		{`\ud83d\ude00`, "😀", true},
		{`\ud83d x`, "\uFFFD x", true},         // a high surrogate alone
		{`\udc00\ud800`, "\uFFFD\uFFFD", true}, // a low one first
		{`\ud83d\u0041`, "\uFFFDA", true},      // not a pair: the second stands
		{"caf\xe9", "caf\uFFFD", true},         // invalid UTF-8 replaced
		{`\x41`, "", false},                    // not JSON's escape
		{`\'`, "", false},                      // nor this
		{`\u00g1`, "", false},                  // not four hex digits
		{`\u12`, "", false},                    // cut short
		{`abc\`, "abc", false},                 // a backslash at the end
		{"a\nb", "a", false},                   // a raw control character
		{`\u00E9\u00e9`, "éé", true},           // either case of hex
		{`\ud83d\ude0`, "\uFFFD", false},       // the low half cut short
		{`\uD83D\uDE00!`, "😀!", true},
	} {
		got, ok := Decode(nil, []byte(tt.raw))
		assert.Equal(t, tt.ok, ok, "Decode(%q) ok", tt.raw)
		if ok {
			assert.Equal(t, tt.want, string(got), "Decode(%q)", tt.raw)
		}
	}
}

// FuzzDecode holds Decode to encoding/json: the same value for every
// string it accepts, and a refusal for every one it refuses, but for a
// bare quote, which ends a string before Decode is given its contents.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`abc`, `\u0061\/\n`, `\ud83d\ude00`, `\ud83d x`, `\udc00\ud800`, "caf\xe9", `\u00e9\"`, `\x`, "a\x01"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var want string
		err := json.Unmarshal(append(append([]byte{'"'}, raw...), '"'), &want)
		got, ok := Decode(nil, raw)
		if ok != (err == nil) && !(ok && bytes.IndexByte(raw, '"') >= 0) {
			t.Fatalf("Decode(%q) ok %v, encoding/json: %v", raw, ok, err)
		}
		if ok && err == nil && string(got) != want {
			t.Fatalf("Decode(%q) = %q, encoding/json %q", raw, got, want)
		}
	})
}

// TestStrictAndLenient is every edge where the two decoders part, and
// why. Decode says what encoding/json says (FuzzDecode holds it to that);
// Lenient never refuses, because what it reads is attacker-controlled
// text to be inspected: an input that spoils one byte must still have the
// rest of it decoded and seen, and whatever does not decode stays in the
// text as the bytes it was.
func TestStrictAndLenient(t *testing.T) {
	const refused = "(refused)"
	for _, tt := range []struct {
		name, raw, strict, lenient string
	}{
		{"plain", `abc`, "abc", "abc"},
		{"JSON's escapes", `\"\\\/\b\f\n\r\t\u0041`, "\"\\/\b\f\n\r\tA", "\"\\/\b\f\n\r\tA"},
		{"a surrogate pair", `\ud83d\ude00`, "😀", "😀"},
		{"hex in either case", `\u00E9\u00e9`, "éé", "éé"},
		// An unpaired surrogate is no character: both read U+FFFD, as
		// encoding/json does, and the next escape stands on its own.
		{"a high surrogate alone", `\ud83d x`, "\uFFFD x", "\uFFFD x"},
		{"a high surrogate at the end", `\ud83d`, "\uFFFD", "\uFFFD"},
		{"a low surrogate first", `\udc00\ud800`, "\uFFFD\uFFFD", "\uFFFD\uFFFD"},
		{"a high surrogate, then no low one", `\ud83d\u0041`, "\uFFFDA", "\uFFFDA"},
		{"the low half cut short", `\ud83d\ude0`, refused, "\uFFFD\\ude0"},
		// What JSON does not have: strict refuses the string, lenient
		// keeps the backslash and reads on, so "\x41KIA…" still shows
		// the key that follows.
		{"an unknown escape", `\x41KIA`, refused, `\x41KIA`},
		{"JavaScript's \\'", `it\'s`, refused, "it's"},
		{"\\u cut short", `\u12`, refused, `\u12`},
		{"\\u not hex", `\u00g1`, refused, `\u00g1`},
		{"a backslash at the end", `abc\`, refused, `abc\`},
		// Raw bytes JSON forbids or replaces are kept by lenient as they
		// are: a scanner sees the control character, a fingerprint the byte.
		{"a raw control character", "a\nb\x00", refused, "a\nb\x00"},
		{"a raw quote", `a"b`, `a"b`, `a"b`}, // the caller cut the string; see FuzzDecode
		{"invalid UTF-8", "caf\xe9", "caf\uFFFD", "caf\xe9"},
		{"escaped twice", `\\u0041`, `\u0041`, `\u0041`},
	} {
		got, ok := Decode(nil, []byte(tt.raw))
		strict := string(got)
		if !ok {
			strict = refused
		}
		assert.Equal(t, tt.strict, strict, "%s: Decode(%q)", tt.name, tt.raw)
		assert.Equal(t, tt.lenient, string(Lenient(nil, []byte(tt.raw))), "%s: Lenient(%q)", tt.name, tt.raw)
	}
	// Decoding again undoes one more layer, and never grows the text.
	twice := []byte(`\\u0041\\ud83d\\ude00`)
	once := Lenient(nil, twice)
	assert.Equal(t, "A😀", string(Lenient(nil, once)))
	assert.LessOrEqual(t, len(once), len(twice))
}

func TestLenientEscape(t *testing.T) {
	for _, tt := range []struct {
		s    string
		r    rune
		n    int
		note string
	}{
		{`\n`, '\n', 2, ""},
		{`\'`, '\'', 2, "not JSON, but what JavaScript and Python write"},
		{`\u0041rest`, 'A', 6, ""},
		{`\ud83d\ude00`, '😀', 12, ""},
		{`\ud83d\u0041`, utf8.RuneError, 6, "the second escape is read on its own"},
		{`\ud83d`, utf8.RuneError, 6, ""},
		{`\q`, 0, 0, "unknown: the caller keeps the bytes"},
		{`\u004`, 0, 0, "cut short"},
		{`\`, 0, 0, ""},
		{`x`, 0, 0, "no escape"},
	} {
		r, n := LenientEscape([]byte(tt.s))
		assert.Equal(t, tt.n, n, "LenientEscape(%q): %s", tt.s, tt.note)
		if n > 0 {
			assert.Equal(t, tt.r, r, "LenientEscape(%q): %s", tt.s, tt.note)
		}
		_, strictN := AppendEscape(nil, []byte(tt.s))
		if tt.s == `\'` {
			assert.Zero(t, strictN, "AppendEscape reads no \\'")
		} else {
			assert.Equal(t, tt.n, strictN, "AppendEscape(%q) takes what LenientEscape takes", tt.s)
		}
	}
}

// FuzzLenient holds Lenient to its promises on any input: it never grows
// the text, it agrees with Decode wherever Decode accepts a string that
// is valid UTF-8 and has no \', and text with no backslash passes through
// unchanged.
func FuzzLenient(f *testing.F) {
	for _, s := range []string{`abc`, `\u0061\/\n`, `\ud83d\ude00`, `\ud83d x`, "caf\xe9", `\x`, "a\x01", `\'`, `\\\\u0041`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got := Lenient(nil, raw)
		if len(got) > len(raw) {
			t.Fatalf("Lenient(%q) = %q, longer", raw, got)
		}
		if bytes.IndexByte(raw, '\\') < 0 && !bytes.Equal(got, raw) {
			t.Fatalf("Lenient(%q) = %q, changed text with no escape", raw, got)
		}
		if strict, ok := Decode(nil, raw); ok && utf8.Valid(raw) && !bytes.Contains(raw, []byte(`\'`)) && !bytes.Equal(strict, got) {
			t.Fatalf("Lenient(%q) = %q, Decode %q", raw, got, strict)
		}
	})
}
