// Package unwrap undoes the encodings an agent may put data in before it
// sends it: URL escaping, base64 (either alphabet, padded or not) and hex.
// Detectors look at each view it returns as well as at the text itself.
package unwrap

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
)

// minRun is the shortest encoded run worth decoding: shorter runs decode
// to a few bytes that say nothing.
const minRun = 16

// Views returns text decoded in each way that applies: the whole text
// URL-decoded, and each base64 or hex run decoded where it stands. The
// original text is not among them.
func Views(text []byte) [][]byte {
	var out [][]byte
	if bytes.IndexAny(text, "%+") >= 0 {
		if u := percentDecode(text); !bytes.Equal(u, text) {
			out = append(out, u)
		}
	}
	for _, run := range runs(text) {
		if b, ok := decode(run); ok {
			out = append(out, b)
		}
	}
	return out
}

// decode decodes run as hex, else as base64 in the first alphabet that
// reads it whole. It reads the run where it lies and decodes every
// attempt into one buffer: a run may be most of a large message.
func decode(run []byte) ([]byte, bool) {
	buf := make([]byte, base64.RawStdEncoding.DecodedLen(len(run)))
	if n, err := hex.Decode(buf, run); err == nil && len(run)%2 == 0 {
		return buf[:n], true
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if n, err := enc.Decode(buf, run); err == nil {
			return buf[:n], true
		}
	}
	return nil, false
}

// runs returns the runs of at least minRun characters that can form
// base64 or hex: the places an encoded payload can hide. Prose has few, so
// the scan allocates only for those.
func runs(text []byte) [][]byte {
	var out [][]byte
	start := -1
	for i := 0; i <= len(text); i++ {
		if i < len(text) && encChar[text[i]] {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= minRun {
			out = append(out, text[start:i])
		}
		start = -1
	}
	return out
}

var encChar = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=' || c == '-' || c == '_'
	}
	return t
}()

// percentDecode decodes %XX escapes and '+' (a space in query strings),
// keeping malformed escapes as they are.
func percentDecode(s []byte) []byte {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			out = append(out, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
		case s[i] == '+':
			out = append(out, ' ')
		default:
			out = append(out, s[i])
		}
	}
	return out
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}
