package flow

import (
	"bytes"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Text returns the text a secret detector should read in a JSON message
// part: its strings, decoded, each member's value after its name as
// "name: value", and joined by newlines, up to limit
// bytes. Decoding matters: a PEM key in JSON has its line breaks escaped.
// It reads only as far as it needs, so a 10 MB result costs what its first
// limit bytes cost, and it takes what it can from broken JSON. Input that
// is not JSON is returned as it is, cut at limit.
func Text(raw []byte, limit int) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	if raw[0] != '{' && raw[0] != '[' && raw[0] != '"' {
		return string(raw[:min(len(raw), limit)])
	}
	var b strings.Builder
	// Decoded text is at most as long as the JSON it came from.
	b.Grow(min(len(raw), limit))
	afterKey := false
	for i := 0; i < len(raw) && b.Len() < limit; {
		q := bytes.IndexByte(raw[i:], '"')
		if q < 0 {
			break
		}
		// Object keys are strings too, and a key can carry a value
		// ("AKIA…": true). A string after a key is joined to it as
		// "key: value", so that a detector reads a member with its name.
		switch {
		case afterKey:
			b.WriteString(": ")
		case b.Len() > 0:
			b.WriteByte('\n')
		}
		i = unquote(&b, raw, i+q+1, limit)
		j := i
		for j < len(raw) && (raw[j] == ' ' || raw[j] == '\t' || raw[j] == '\n' || raw[j] == '\r') {
			j++
		}
		afterKey = j < len(raw) && raw[j] == ':'
	}
	return b.String()
}

// unquote decodes the JSON string whose contents start at raw[i] into b,
// stopping at its closing quote, the end of raw, or b reaching limit, and
// returns the index after what it consumed.
func unquote(b *strings.Builder, raw []byte, i, limit int) int {
	stop := i // raw[i:stop] holds no quote; raw[stop] may be one
	for i < len(raw) && b.Len() < limit {
		c := raw[i]
		switch {
		case c == '"':
			return i + 1
		case c != '\\':
			// Copy the run up to the next quote or backslash at once;
			// IndexByte scans many bytes a step. Quotes are searched for
			// only past stop and only as far as the limit allows, so text
			// full of escapes is still read once.
			if stop <= i {
				stop = min(len(raw), i+limit-b.Len())
				if q := bytes.IndexByte(raw[i:stop], '"'); q >= 0 {
					stop = i + q
				}
			}
			j := stop
			if e := bytes.IndexByte(raw[i:j], '\\'); e >= 0 {
				j = i + e
			}
			j = min(j, i+limit-b.Len())
			b.Write(raw[i:j])
			i = j
		case i+1 >= len(raw):
			return len(raw)
		default:
			i = unescape(b, raw, i)
		}
	}
	return len(raw)
}

// unescape decodes the escape at raw[i] ('\\') and returns the index after it.
func unescape(b *strings.Builder, raw []byte, i int) int {
	switch e := raw[i+1]; e {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case 'b', 'f':
		b.WriteByte(' ')
	case 'u':
		r, n := hexRune(raw[i+2:])
		if n == 0 {
			b.WriteByte('\\')
			return i + 1
		}
		i += 2 + n
		if utf16.IsSurrogate(r) && i+6 <= len(raw) && raw[i] == '\\' && raw[i+1] == 'u' {
			if r2, n2 := hexRune(raw[i+2:]); n2 == 4 {
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					b.WriteRune(d)
					return i + 6
				}
			}
		}
		b.WriteRune(r)
		return i
	default: // \" \\ \/ and anything unknown: the character itself
		b.WriteByte(e)
	}
	return i + 2
}

func hexRune(s []byte) (rune, int) {
	if len(s) < 4 {
		return 0, 0
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, 0
		}
	}
	return r, 4
}
