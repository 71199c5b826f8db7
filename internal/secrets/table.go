package secrets

import "strings"

// Text tables (psql output, markdown, CSV, tab-separated exports) name a
// credential in a header cell and give its values in the rows below, with
// no assignment between them. A credential name that is a whole header
// cell has the cells of its column judged like assigned values.

// maxTableRows bounds the rows read under one header, maxHeader the
// length of a header row.
const (
	maxTableRows = 64
	maxHeader    = 1024
)

// tableHeader returns the separator of the table whose header row holds
// the name text[s:e] as a whole cell, or 0.
func tableHeader(text string, s, e int) byte {
	// A cell ends at a separator or the line's end and starts after one
	// or at the line's start: most names in prose fail here, cheaply.
	k := e
	for k < len(text) && text[k] == ' ' {
		k++
	}
	if k >= len(text) || strings.IndexByte("|\t,\r\n", text[k]) < 0 {
		return 0
	}
	b := s
	for b > 0 && text[b-1] == ' ' {
		b--
	}
	if b > 0 && strings.IndexByte("|\t,\n", text[b-1]) < 0 {
		return 0
	}
	// A header row is at most maxHeader bytes: the search for its ends
	// stays bounded, whatever the text.
	lo := max(0, s-maxHeader)
	ls := lo + strings.LastIndexByte(text[lo:s], '\n') + 1
	if ls == lo && lo > 0 {
		return 0
	}
	hi := min(len(text), e+maxHeader)
	le := strings.IndexByte(text[e:hi], '\n')
	if le < 0 {
		return 0 // no row below
	}
	le += e
	line := text[ls:le]
	for _, sep := range []byte{'|', '\t', ','} {
		if strings.IndexByte(line, sep) < 0 {
			continue
		}
		before := strings.TrimRight(text[ls:s], " ")
		after := strings.TrimLeft(text[e:le], " \r")
		if (before == "" || before[len(before)-1] == sep) && (after == "" || after[0] == sep) {
			return sep
		}
		return 0
	}
	return 0
}

// scanTableColumn judges the cells under the header cell text[s:e].
func scanTableColumn(st *scanState, text string, s, e int, sep byte, kind credKind) {
	lo := max(0, s-maxHeader)
	ls := lo + strings.LastIndexByte(text[lo:s], '\n') + 1
	col := strings.Count(text[ls:s], string(sep))
	pos := e + strings.IndexByte(text[e:], '\n') + 1
	for rows := 0; rows < maxTableRows && pos < len(text); rows++ {
		end := len(text)
		if k := strings.IndexByte(text[pos:], '\n'); k >= 0 {
			end = pos + k
		}
		line := text[pos:end]
		st.work += len(line)
		switch {
		case strings.Trim(line, "-+|: \r\t") == "" && line != "":
			// A rule line (----+----, |---|).
		case strings.IndexByte(line, sep) < 0:
			return
		default:
			if cs, ce, ok := cell(text, pos, end, sep, col); ok {
				judgeCell(st, text, cs, ce, kind)
			}
		}
		pos = end + 1
	}
}

// cell returns the bounds of cell col of the row text[lo:hi], trimmed of
// blanks and quotes.
func cell(text string, lo, hi int, sep byte, col int) (int, int, bool) {
	cs := lo
	for n := 0; n < col; n++ {
		k := strings.IndexByte(text[cs:hi], sep)
		if k < 0 {
			return 0, 0, false
		}
		cs += k + 1
	}
	ce := hi
	if k := strings.IndexByte(text[cs:hi], sep); k >= 0 {
		ce = cs + k
	}
	for cs < ce && (isSpace(text[cs]) || text[cs] == '"') {
		cs++
	}
	for ce > cs && (isSpace(text[ce-1]) || text[ce-1] == '"' || text[ce-1] == '\r') {
		ce--
	}
	return cs, ce, ce > cs
}

func judgeCell(st *scanState, text string, cs, ce int, kind credKind) {
	v := text[cs:ce]
	if !credentialValue(v, kind, true, false) {
		return
	}
	f := finding{generic: true, Finding: Finding{Value: v, Start: cs, End: ce, Example: looksLikeExample(v)}}
	if kind == credPassword {
		f.Type, f.Rule = "password_assignment", "password-table-column"
	} else {
		f.Type, f.Rule = "generic_api_key", "keyword-table-column"
	}
	st.add(f)
}

// rowPair returns the cell after the name text[s:e] when the name is the
// first cell of a table row (| API_TOKEN | value |, a key/value listing,
// psql's \x output): the row gives the name's value.
func rowPair(text string, s, e int) (vs, ve int, ok bool) {
	b := s
	for b > 0 && text[b-1] == ' ' {
		b--
	}
	if b > 0 && text[b-1] == '|' {
		b--
		for b > 0 && text[b-1] == ' ' {
			b--
		}
	}
	if b > 0 && text[b-1] != '\n' {
		return 0, 0, false
	}
	k := e
	for k < len(text) && text[k] == ' ' {
		k++
	}
	if k >= len(text) || text[k] != '|' && text[k] != '\t' {
		return 0, 0, false
	}
	sep := text[k]
	vs = k + 1
	for vs < len(text) && text[vs] == ' ' {
		vs++
	}
	ve = vs
	for ve < len(text) && ve-vs < 1024 && text[ve] != sep && text[ve] != '\n' && text[ve] != '\r' {
		ve++
	}
	for ve > vs && text[ve-1] == ' ' {
		ve--
	}
	return vs, ve, ve > vs
}
