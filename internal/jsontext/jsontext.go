// Package jsontext decodes the text of JSON strings exactly as
// encoding/json does, for the readers that walk raw JSON bytes themselves
// (the envelope reader, the injection scanner's walker), and holds the hex
// digits that JSON's \u escapes and the percent-escapes of URLs are
// written with. It imports nothing of flowd's: every reader can use it.
//
// The lenient decoders elsewhere (flow's text of a call, fingerprint's
// normalising pass) read escapes anywhere, bounded, and keep what does not
// decode; they take their digits from here, not their rules.
package jsontext

import (
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
	if len(s) < 2 || s[0] != '\\' {
		return dst, 0
	}
	switch e := s[1]; e {
	case '"', '\\', '/':
		return append(dst, e), 2
	case 'b':
		return append(dst, '\b'), 2
	case 'f':
		return append(dst, '\f'), 2
	case 'n':
		return append(dst, '\n'), 2
	case 'r':
		return append(dst, '\r'), 2
	case 't':
		return append(dst, '\t'), 2
	case 'u':
		r, ok := Hex4(s[2:])
		if !ok {
			return dst, 0
		}
		n = 6
		if utf16.IsSurrogate(r) {
			r2, ok := rune(-1), false
			if len(s) >= 12 && s[6] == '\\' && s[7] == 'u' {
				r2, ok = Hex4(s[8:])
			}
			if pair := utf16.DecodeRune(r, r2); ok && pair != utf8.RuneError {
				r, n = pair, 12
			} else {
				r = utf8.RuneError
			}
		}
		return utf8.AppendRune(dst, r), n
	}
	return dst, 0
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
