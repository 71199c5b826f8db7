package clientconfig

import "bytes"

// layout is how a document is laid out, so that what flowd writes into it
// looks as if the file's author had written it.
type layout struct {
	doc  []byte
	nl   string // "\n", or "\r\n" in a file that uses it
	unit string // one level of indentation
}

// layoutOf takes the indentation unit from the first indented line (the
// first member of the top-level object); a file without one gets two
// spaces, as the clients write their own files.
func layoutOf(doc []byte) layout {
	l := layout{doc: doc, nl: "\n", unit: "  "}
	if bytes.Contains(doc, []byte("\r\n")) {
		l.nl = "\r\n"
	}
	for rest := doc; ; {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			break
		}
		rest = rest[i+1:]
		trimmed := bytes.TrimLeft(rest, " \t")
		if n := len(rest) - len(trimmed); n > 0 && len(trimmed) > 0 && trimmed[0] != '\r' && trimmed[0] != '\n' {
			l.unit = string(rest[:n])
			break
		}
	}
	return l
}

func (l layout) multiline() bool { return bytes.IndexByte(l.doc, '\n') >= 0 }

func (l layout) lineStart(pos int) int { return bytes.LastIndexByte(l.doc[:pos], '\n') + 1 }

// indent is the leading whitespace of the line that holds pos.
func (l layout) indent(pos int) string {
	start := l.lineStart(pos)
	end := start
	for end < len(l.doc) && (l.doc[end] == ' ' || l.doc[end] == '\t') {
		end++
	}
	return string(l.doc[start:end])
}

// startsLine reports whether only indentation precedes pos on its line.
func (l layout) startsLine(pos int) bool {
	return len(bytes.TrimLeft(l.doc[l.lineStart(pos):pos], " \t")) == 0
}

// arrayStyle is how one array is written: one element per line, or all on
// the line of its key.
type arrayStyle struct {
	multiline               bool
	elemIndent, closeIndent string // one per line
	trailingComma           bool   // one per line, the last one followed by a comma (TOML, JSONC)
	open, sep, close        string // one line: padding inside the brackets, between elements
}

// styleOf reads the style of the array member m, whose elements are es,
// so that the array rewritten keeps it. An empty array has no style of its
// own and gets the one the file's author's tool would have used.
func (l layout) styleOf(m member, es []span) arrayStyle {
	v := m.value
	keyIndent := l.indent(v.start)
	sep := l.sepAfter(m)
	switch {
	case bytes.IndexByte(l.doc[v.start:v.end], '\n') >= 0:
		s := arrayStyle{multiline: true, elemIndent: keyIndent + l.unit, closeIndent: keyIndent}
		if len(es) > 0 && l.startsLine(es[0].start) {
			s.elemIndent = l.indent(es[0].start)
		}
		if l.startsLine(v.end - 1) {
			s.closeIndent = l.indent(v.end - 1)
		}
		return s
	case len(es) == 0:
		return l.newStyle(keyIndent, l.multiline(), sep)
	}
	s := arrayStyle{
		open:  string(l.doc[v.start+1 : es[0].start]),
		sep:   sep,
		close: string(l.doc[es[len(es)-1].end : v.end-1]),
	}
	if len(es) > 1 {
		s.sep = string(l.doc[es[0].end:es[1].start])
	}
	return s
}

func (l layout) newStyle(keyIndent string, multiline bool, sep string) arrayStyle {
	return arrayStyle{multiline: multiline, elemIndent: keyIndent + l.unit, closeIndent: keyIndent, sep: sep}
}

// sepAfter is how to separate elements on one line in the value of m:
// with a space after the comma, unless its author (or a minifier) wrote
// no space after the colon either.
func (l layout) sepAfter(m member) string {
	if bytes.ContainsAny(l.doc[m.rawKey.end:m.value.start], " \t") {
		return ", "
	}
	return ","
}

func (l layout) render(s arrayStyle, elems [][]byte) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	switch {
	case len(elems) == 0:
	case s.multiline:
		for i, e := range elems {
			b.WriteString(l.nl + s.elemIndent)
			b.Write(e)
			if i < len(elems)-1 || s.trailingComma {
				b.WriteByte(',')
			}
		}
		b.WriteString(l.nl + s.closeIndent)
	default:
		b.WriteString(s.open)
		b.Write(bytes.Join(elems, []byte(s.sep)))
		b.WriteString(s.close)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// listEdit rewrites the bracketed list at v, whose elements are elems:
// the first drop elements go, and insert come before the rest. Every
// other byte stays as written, so that taking out what was put in gives
// the list back byte for byte however it was laid out. A list that was
// empty, or is left empty, is written in style. sep separates elements
// put on the line of the first one, when the list has no second to copy.
func (l layout) listEdit(v span, elems []span, style arrayStyle, sep string) func(drop int, insert [][]byte) edit {
	return func(drop int, insert [][]byte) edit {
		if drop >= len(elems) {
			return edit{v.start, v.end, l.render(style, insert)}
		}
		switch {
		case l.startsLine(elems[0].start):
			sep = "," + l.nl + l.indent(elems[0].start)
		case len(elems) > 1:
			sep = string(l.doc[elems[0].end:elems[1].start])
		}
		var b bytes.Buffer
		b.Write(l.doc[v.start:elems[0].start])
		for _, e := range insert {
			b.Write(e)
			b.WriteString(sep)
		}
		b.Write(l.doc[elems[drop].start:v.end])
		return edit{v.start, v.end, b.Bytes()}
	}
}
