package flow

import (
	"bytes"
	"slices"
	"unicode/utf8"
	"unsafe"

	"github.com/flowd-dev/flowd/internal/jsontext"
)

// Text returns the text a secret detector should read in a JSON message
// part: its strings, decoded, each member's value after its name as
// "name: value", and joined by newlines, up to limit
// bytes. Decoding matters: a PEM key in JSON has its line breaks escaped.
// It reads only as far as it needs, so a 10 MB result costs what its first
// limit bytes cost, and it takes what it can from broken JSON. Input that
// is not JSON is returned as it is, cut at limit.
func Text(raw []byte, limit int) string {
	return readText(newTextReader(raw), limit)
}

// Strings is Text with each string on a line of its own, names apart from
// their values: text as a lenient reader would show it to a model, for a
// scanner whose rules read where lines start.
func Strings(raw []byte, limit int) string {
	r := newTextReader(raw)
	r.apart = true
	return readText(r, limit)
}

func readText(r *textReader, limit int) string {
	var b textBuf
	r.read(&b, limit)
	if len(b) == 0 {
		return ""
	}
	// The buffer is not used again: the string takes it over uncopied.
	return unsafe.String(&b[0], len(b))
}

// textBuf is the decoded text being built.
type textBuf []byte

func (b *textBuf) Len() int             { return len(*b) }
func (b *textBuf) Grow(n int)           { *b = slices.Grow(*b, n) }
func (b *textBuf) Write(p []byte)       { *b = append(*b, p...) }
func (b *textBuf) WriteString(s string) { *b = append(*b, s...) }
func (b *textBuf) put(c byte)           { *b = append(*b, c) }
func (b *textBuf) WriteRune(r rune)     { *b = utf8.AppendRune(*b, r) }

// textReader reads the text of a JSON message part (Text) a piece at a
// time: a detector can read all of a large message's text without
// holding all of it decoded.
type textReader struct {
	raw      []byte
	i        int  // where reading goes on
	json     bool // raw is JSON; else its text is raw itself
	inString bool // raw[i] is inside a string, which the last read cut
	afterKey bool // the last string read was a member's name
	wrote    bool // some text was read: the next string goes on a new line
	apart    bool // every string on a line of its own, a value not joined to its name (Strings)
}

func newTextReader(raw []byte) *textReader {
	raw = bytes.TrimSpace(raw)
	return &textReader{raw: raw, json: startsJSON(raw)}
}

// startsJSON reports whether raw begins as a JSON document does. The
// first byte alone is not enough: an INI or TOML file starts with
// "[section]" (~/.aws/credentials is "[default]"), and read as JSON it
// would give only its quoted strings, leaving its keys unread.
func startsJSON(raw []byte) bool {
	if len(raw) == 0 {
		return false
	}
	rest := bytes.TrimLeft(raw[1:], " \t\r\n")
	switch raw[0] {
	case '"':
		return true
	case '{':
		return len(rest) == 0 || rest[0] == '"' || rest[0] == '}'
	case '[':
		if len(rest) == 0 {
			return true
		}
		switch c := rest[0]; {
		case c == '"' || c == '{' || c == '[' || c == ']' || c == '-' || isDigit(c):
			return true
		case c == 't' || c == 'f' || c == 'n':
			for _, lit := range []string{"true", "false", "null"} {
				if after, ok := bytes.CutPrefix(rest, []byte(lit)); ok {
					// "[true-colors]" is a section; "[true, 1]" JSON.
					return len(after) == 0 || !isWordByte(after[0]) && after[0] != '-' && after[0] != '.'
				}
			}
		}
	}
	return false
}

// done reports whether all of the text has been read.
func (r *textReader) done() bool { return r.i >= len(r.raw) }

// read appends the next stretch of text to b, until b holds limit bytes
// (an escape may take it a few past) or the text ends.
func (r *textReader) read(b *textBuf, limit int) {
	if !r.json {
		n := min(len(r.raw)-r.i, max(0, limit-b.Len()))
		b.Write(r.raw[r.i : r.i+n])
		r.i += n
		return
	}
	// Decoded text is at most as long as the JSON it came from.
	b.Grow(min(len(r.raw)-r.i, max(0, limit-b.Len())))
	for r.i < len(r.raw) && b.Len() < limit {
		n := b.Len()
		if !r.inString {
			q := bytes.IndexByte(r.raw[r.i:], '"')
			if q < 0 {
				r.i = len(r.raw)
				break
			}
			// Object keys are strings too, and a key can carry a value
			// ("AKIA…": true). A string after a key is joined to it as
			// "key: value", so that a detector reads a member with its name.
			switch {
			case r.afterKey && !r.apart:
				b.WriteString(": ")
			case r.wrote:
				b.put('\n')
			}
			r.i += q + 1
		}
		r.i, r.inString = unquote(b, r.raw, r.i, limit)
		r.wrote = r.wrote || b.Len() > n
		if !r.inString {
			j := r.i
			for j < len(r.raw) && (r.raw[j] == ' ' || r.raw[j] == '\t' || r.raw[j] == '\n' || r.raw[j] == '\r') {
				j++
			}
			r.afterKey = j < len(r.raw) && r.raw[j] == ':'
		}
	}
}

// unquote decodes the JSON string whose contents start at raw[i] into b,
// stopping at its closing quote, the end of raw, or b reaching limit, and
// returns the index after what it consumed and whether it stopped inside
// the string.
func unquote(b *textBuf, raw []byte, i, limit int) (int, bool) {
	stop := i // raw[i:stop] holds no quote; raw[stop] may be one
	for i < len(raw) && b.Len() < limit {
		c := raw[i]
		switch {
		case c == '"':
			return i + 1, false
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
			return len(raw), false
		default:
			i = unescape(b, raw, i)
		}
	}
	return i, i < len(raw)
}

// unescape decodes the escape at raw[i] ('\\') and returns the index after
// it. A detector reads \b and \f as the break they make; an unknown escape
// is the character itself, as JavaScript reads it, but a \u without four
// hex digits keeps its backslash and its digits are read as text.
func unescape(b *textBuf, raw []byte, i int) int {
	r, n := jsontext.LenientEscape(raw[i:])
	switch {
	case n == 0 && raw[i+1] == 'u':
		b.put('\\')
		return i + 1
	case n == 0:
		b.put(raw[i+1])
		return i + 2
	case raw[i+1] == 'b' || raw[i+1] == 'f':
		b.put(' ')
	default:
		b.WriteRune(r)
	}
	return i + n
}
