package unwrap

import (
	"bytes"
	"unicode/utf8"

	"github.com/flowd-dev/flowd/internal/jsontext"
)

// unescape decodes the character escapes of source code, JSON, shells and
// markup wherever they stand: \xNN, \uNNNN, \u{N…}, \UNNNNNNNN, \NNN
// (octal), CSS's \NN followed by a blank, %uNNNN, &#NN; &#xNN; and the
// common named entities. Anything else is kept as it is. ok is false when
// nothing was decoded.
func unescape(s []byte) ([]byte, bool) { return unescapeFrom(s, &allEscapes) }

// codePoints undoes Unicode's own notation, U+NNNN (or u+NNNN): an
// undoing of its own, before percent-decoding reads the '+' as a blank.
func codePoints(s []byte) ([]byte, bool) { return unescapeFrom(s, &codePointEscapes) }

// leads are the bytes an escape may start with.
type leads [256]bool

var allEscapes, codePointEscapes = leads{'\\': true, '&': true, '%': true}, leads{'U': true, 'u': true}

// unescapeFrom is unescape of the escapes that start with one of lead.
func unescapeFrom(s []byte, lead *leads) ([]byte, bool) {
	out := make([]byte, 0, len(s))
	changed := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !lead[c] {
			out = append(out, c)
			continue
		}
		r, n := escapeAt(s[i:])
		if n == 0 {
			out = append(out, c)
			continue
		}
		out = utf8.AppendRune(out, r)
		i += n - 1
		changed = true
	}
	return out, changed
}

// escapeAt decodes the escape at the start of s: the rune and the bytes it
// took, or n == 0.
func escapeAt(s []byte) (r rune, n int) {
	if len(s) < 2 {
		return 0, 0
	}
	switch s[0] {
	case 'U', 'u':
		if s[1] == '+' {
			return hexDigits(s, 2, 4, 6)
		}
	case '%':
		if s[1] == 'u' || s[1] == 'U' {
			return hexDigits(s, 2, 4, 4)
		}
	case '&':
		return entity(s)
	case '\\':
		switch s[1] {
		case 'x':
			return hexDigits(s, 2, 2, 2)
		case 'u':
			if len(s) > 2 && s[2] == '{' {
				r, n := hexDigits(s, 3, 1, 6)
				if n > 0 && n < len(s) && s[n] == '}' {
					return r, n + 1
				}
				return 0, 0
			}
			return hexDigits(s, 2, 4, 4)
		case 'U':
			return hexDigits(s, 2, 8, 8)
		case '"', '\\', '/', '\'':
			return rune(s[1]), 2
		case 'n':
			return '\n', 2
		case 't':
			return '\t', 2
		case 'r':
			return '\r', 2
		}
		if s[1] >= '0' && s[1] <= '7' {
			v, k := rune(0), 1
			for ; k < 4 && k < len(s) && s[k] >= '0' && s[k] <= '7'; k++ {
				v = v<<3 | rune(s[k]-'0')
			}
			if k == 4 && v < 256 {
				return v, k
			}
		}
		// CSS: one to six hex digits, ended by a blank it takes or by the
		// next escape.
		if r, n := hexDigits(s, 1, 1, 6); n > 0 {
			switch {
			case n < len(s) && s[n] == ' ':
				return r, n + 1
			case n < len(s) && s[n] == '\\' || n == len(s):
				return r, n
			}
		}
	}
	return 0, 0
}

// hexDigits reads between lo and hi hex digits of s from index at.
func hexDigits(s []byte, at, lo, hi int) (rune, int) {
	var v rune
	k := at
	for ; k < len(s) && k-at < hi && jsontext.IsHex(s[k]); k++ {
		v = v<<4 | rune(jsontext.Unhex(s[k]))
	}
	if k-at < lo || v > utf8.MaxRune {
		return 0, 0
	}
	return v, k
}

var entities = map[string]rune{"amp": '&', "lt": '<', "gt": '>', "quot": '"', "apos": '\'', "nbsp": ' ', "colon": ':', "sol": '/', "equals": '=', "period": '.', "lowbar": '_', "hyphen": '-'}

// entity decodes an HTML character reference at the start of s.
func entity(s []byte) (rune, int) {
	if r, n := bareReference(s); n > 0 {
		return r, n
	}
	end := bytes.IndexByte(s[:min(len(s), 12)], ';')
	if end < 2 {
		return 0, 0
	}
	body := s[1:end]
	if body[0] != '#' {
		r, ok := entities[string(body)]
		if !ok {
			return 0, 0
		}
		return r, end + 1
	}
	var v rune
	if len(body) > 1 && (body[1] == 'x' || body[1] == 'X') {
		r, n := hexDigits(body, 2, 1, 6)
		if n != len(body) {
			return 0, 0
		}
		return r, end + 1
	}
	for _, c := range body[1:] {
		if c < '0' || c > '9' || v > utf8.MaxRune {
			return 0, 0
		}
		v = v*10 + rune(c-'0')
	}
	if len(body) < 2 || v > utf8.MaxRune {
		return 0, 0
	}
	return v, end + 1
}

// joinConcatenated returns text with string literals that are
// concatenated put together: a closing quote, an operator that joins
// strings in some language (+ . .. || &) or only blanks, and the same
// quote opening the next literal are dropped ("sk_li" + "ve_…" is
// "sk_live_…" to whoever runs it). Quotes escaped in a JSON string (\"a\"
// + \"b\") are joined where they stand, so the text stays JSON. ok is
// false when there were none.
func joinConcatenated(text []byte) ([]byte, bool) {
	var out []byte
	last := 0
	for i := 0; i < len(text); i++ {
		q := text[i]
		if q != '"' && q != '\'' && q != '`' {
			continue
		}
		escaped := i > 0 && text[i-1] == '\\'
		j := skipBlanks(text, i+1)
		op := j
		for j < len(text) && j-op < 2 && (text[j] == '+' || text[j] == '.' || text[j] == '|' || text[j] == '&') {
			j++
		}
		if j == i+1 {
			continue
		}
		j = skipBlanks(text, j)
		if escaped {
			if j+1 >= len(text) || text[j] != '\\' || text[j+1] != q {
				continue
			}
			j++
		} else if j >= len(text) || text[j] != q {
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(text))
		}
		start := i
		if escaped {
			start--
		}
		out = append(out, text[last:start]...)
		last = j + 1
		i = j
	}
	if out == nil {
		return nil, false
	}
	return append(out, text[last:]...), true
}

func skipBlanks(text []byte, i int) int {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
		i++
	}
	return i
}

// bareReference decodes a numeric character reference with no ';' after
// its digits (&#103&#104), which HTML parsers read all the same: the
// digits end it. A reference the ';' ends is entity's.
func bareReference(s []byte) (rune, int) {
	if len(s) < 3 || s[1] != '#' {
		return 0, 0
	}
	var r rune
	var n int
	if s[2] == 'x' || s[2] == 'X' {
		r, n = hexDigits(s, 3, 1, 6)
	} else {
		k := 2
		for ; k < len(s) && k < 9 && s[k] >= '0' && s[k] <= '9'; k++ {
			r = r*10 + rune(s[k]-'0')
		}
		if k > 2 && r <= utf8.MaxRune {
			n = k
		}
	}
	if n == 0 || n < len(s) && s[n] == ';' {
		return 0, 0
	}
	return r, n
}

// percentU reports whether t holds a %uNNNN escape's start, which unescape
// reads too: other text with a '%' is PercentDecode's alone.
func percentU(t []byte) bool {
	for i := bytes.IndexByte(t, '%'); i >= 0 && i+1 < len(t); {
		if t[i+1] == 'u' || t[i+1] == 'U' {
			return true
		}
		j := bytes.IndexByte(t[i+1:], '%')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}
