package untrusted

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The fence around a quote. The brackets are rare in text, and Text
// escapes them, so only Quote writes them.
const (
	Open  = "⟦untrusted data: "
	Close = "⟧"
)

// Text is s with every character that could act on a viewer written as a
// visible escape (\x1b, \u202e, \U000e0041); everything else, markup
// included, is left as it is. Invalid UTF-8 becomes U+FFFD.
func Text(s string) string { return neutral(s, false) }

// Block is Text for multi-line content (a quarantined tool result):
// newlines and tabs stay, carriage returns do not.
func Block(s string) string { return neutral(s, true) }

func neutral(s string, lines bool) string {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || acts(r, lines) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s // the common case: nothing to do, nothing allocated
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for _, r := range s[i:] { // ranging decodes invalid bytes as U+FFFD
		if !acts(r, lines) {
			b.WriteRune(r)
			continue
		}
		switch {
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	return b.String()
}

// acts says whether r could act on a viewer rather than be read: a
// control character (a terminal obeys them), an invisible format
// character (bidi overrides reorder what is shown; zero-width
// characters, tag characters and variation selectors hide text from a
// person that a model still reads), a line or paragraph separator, or
// the fence's own brackets.
func acts(r rune, lines bool) bool {
	switch {
	case r < 0x80:
		if lines && (r == '\n' || r == '\t') {
			return false
		}
		return r < 0x20 || r == 0x7f
	case r == '⟦', r == '⟧':
		return true
	case r >= 0xfe00 && r <= 0xfe0e, r >= 0xe0100 && r <= 0xe01ef: // variation selectors, but the emoji one (U+FE0F)
		return true
	}
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// Quote fences s, neutralised, as data: ⟦untrusted data: s⟧. A quote
// already made is returned as it is.
func Quote(s string) string {
	if quoted(s) {
		return s
	}
	return Open + Text(s) + Close
}

// quoted reports whether s is one whole quote Quote made: the fence
// around text with no bracket of its own (Text escaped them).
func quoted(s string) bool {
	inner, ok := strings.CutPrefix(s, Open)
	if !ok {
		return false
	}
	inner, ok = strings.CutSuffix(inner, Close)
	return ok && !strings.ContainsAny(inner, "⟦⟧") && Text(inner) == inner
}

// Cell is Text for a CSV cell a spreadsheet will open: a cell that
// begins as a formula does (=, +, -, @) gets a leading apostrophe, which
// spreadsheets read as "this is text" (OWASP's advice on CSV injection).
func Cell(s string) string {
	s = Text(s)
	if s != "" && strings.ContainsRune("=+-@", rune(s[0])) {
		return "'" + s
	}
	return s
}

// Raw undoes Text and Block: each visible escape they write (\x1b,
// \u202e, \U000e0041) becomes the character again. A screen that reads
// text an outlet already neutralised (flowd mcp reads the API) needs the
// characters: the escapes split words and hide what tag characters
// smuggle. An escape of a character Text leaves as it is (a literal
// `\x41`) stays, so Text(Raw(t)) == t for every t that Text returned.
func Raw(s string) string {
	i := strings.IndexByte(s, '\\')
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for i < len(s) {
		if r, n := escapeAt(s[i:]); n > 0 {
			b.WriteRune(r)
			i += n
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// escapeAt reads the escape neutral writes at the start of s: the
// character and the escape's length, or 0 when s starts with none.
func escapeAt(s string) (rune, int) {
	if len(s) < 2 || s[0] != '\\' {
		return 0, 0
	}
	var digits int
	switch s[1] {
	case 'x':
		digits = 2
	case 'u':
		digits = 4
	case 'U':
		digits = 8
	default:
		return 0, 0
	}
	if len(s) < 2+digits {
		return 0, 0
	}
	var r rune
	for _, c := range []byte(s[2 : 2+digits]) {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		default: // neutral writes lower-case hex only
			return 0, 0
		}
	}
	// Only the form neutral would have chosen for a character it escapes.
	if !utf8.ValidRune(r) || !acts(r, false) || (r < 0x100) != (digits == 2) || (r >= 0x100 && r < 0x10000) != (digits == 4) {
		return 0, 0
	}
	return r, 2 + digits
}
