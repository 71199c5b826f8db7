// Package jsontext decodes the text of JSON strings, written once for
// every reader of raw JSON bytes, in the two ways they need: strictly
// (Decode, AppendEscape), exactly as encoding/json does, for the readers
// whose answer must match what a JSON parser will make of the message
// (the envelope reader, the injection scanner's walker); and leniently
// (Lenient, LenientEscape), for the readers that inspect text an attacker
// wrote (flow's text of a call, fingerprint's normalising pass and secret
// search), which must decode what they can and keep the rest rather than
// give up. It also holds the hex digits that JSON's \u escapes and the
// percent-escapes of URLs are written with. It imports nothing of
// flowd's: every reader can use it.
package jsontext

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// IsHex reports whether c is a hex digit.
func IsHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// Unhex is the value of the hex digit c; c must be one (IsHex).
func Unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// Hex4 is the value of the four hex digits at the start of s; ok is false
// when s does not start with four.
func Hex4(s []byte) (r rune, ok bool) {
	if len(s) < 4 {
		return 0, false
	}
	for _, c := range s[:4] {
		if !IsHex(c) {
			return 0, false
		}
		r = r<<4 | rune(Unhex(c))
	}
	return r, true
}

// AppendEscape appends to dst the character that the escape at the start
// of s (s[0] == '\\') stands for, as encoding/json decodes it: a \u high
// surrogate followed by a \u low one is one character, any other surrogate
// U+FFFD. n is how many bytes of s the escape took, 0 when s starts with
// no valid escape.
func AppendEscape(dst, s []byte) (out []byte, n int) {
	if len(s) >= 2 && s[1] == '\'' {
		return dst, 0 // JSON has no \'; LenientEscape reads it
	}
	r, n := LenientEscape(s)
	if n == 0 {
		return dst, 0
	}
	return utf8.AppendRune(dst, r), n
}

// LenientEscape is the character the escape at the start of s (s[0] ==
// '\\') stands for and how many bytes it took, n == 0 when s starts with no
// escape it knows (an unknown letter, a \u without four hex digits, a
// backslash that ends s): the caller keeps those bytes as text. It reads
// JSON's escapes as AppendEscape does, and \' besides, which JavaScript and
// Python write and which a model reads as a quote.
func LenientEscape(s []byte) (r rune, n int) {
	if len(s) < 2 || s[0] != '\\' {
		return 0, 0
	}
	switch e := s[1]; e {
	case '"', '\\', '/', '\'':
		return rune(e), 2
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	case 'n':
		return '\n', 2
	case 'r':
		return '\r', 2
	case 't':
		return '\t', 2
	case 'u':
		r, ok := Hex4(s[2:])
		if !ok {
			return 0, 0
		}
		if !utf16.IsSurrogate(r) {
			return r, 6
		}
		if len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
			if r2, ok := Hex4(s[8:]); ok {
				if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
					return pair, 12
				}
			}
		}
		return utf8.RuneError, 6
	}
	return 0, 0
}

// Lenient appends s to dst with every escape LenientEscape knows decoded,
// wherever it stands, and every other byte kept as it is: an unknown
// escape, a raw control character, a quote, invalid UTF-8. It never
// fails and its output is never longer than s, so it can be applied
// again to text escaped more than once.
//
// Decode is what JSON means; Lenient is what a reader of hostile text
// needs. A secret or an instruction hidden in a string that encoding/json
// refuses (one stray \x, one raw tab, one byte of bad UTF-8) must still
// be seen: refusing the whole string would let an attacker skip the
// inspection by spoiling one byte of it.
func Lenient(dst, s []byte) []byte {
	for i := 0; i < len(s); {
		j := bytes.IndexByte(s[i:], '\\')
		if j < 0 {
			return append(dst, s[i:]...)
		}
		dst = append(dst, s[i:i+j]...)
		i += j
		r, n := LenientEscape(s[i:])
		if n == 0 {
			dst = append(dst, '\\')
			i++
			continue
		}
		dst = utf8.AppendRune(dst, r)
		i += n
	}
	return dst
}

// Decode appends the value of a JSON string's raw contents (between its
// quotes) to dst as encoding/json decodes it, invalid UTF-8 replaced by
// U+FFFD, and reports false when they do not decode.
func Decode(dst, raw []byte) ([]byte, bool) {
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\':
			var n int
			if dst, n = AppendEscape(dst, raw[i:]); n == 0 {
				return dst, false
			}
			i += n
		case c < 0x20:
			return dst, false
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			dst = utf8.AppendRune(dst, r)
			i += size
		}
	}
	return dst, true
}
