package jsontext

import (
	"bytes"
	"encoding/json"
	"testing"

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
