package activity

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/flowd-dev/flowd/internal/untrusted"
)

// CSV rows from the stored bytes. Decoding a record to write its row
// (json.Unmarshal, then Shown) was most of a CSV export's cost, so
// appendCSVRow reads the stored JSON itself, in the one form json.Marshal
// writes it (compact, its own keys, canonical integers), and writes the
// very row Exporter writes for the decoded record. Anything else (a
// record another flowd wrote differently, a damaged one) it declines,
// and the caller decodes the record as before: what the fast path
// accepts is only what it reads exactly as decodeRecord does.

// storedFields are a record's fields as its stored bytes hold them.
type storedFields struct {
	id, chainSeq                    []byte // canonical integers, or nil for 0
	argsBytes, resultBytes, latency []byte
	time                            time.Time
	// The strings, each its JSON literal with the quotes; nil when absent.
	typ, session, server, tool, method, verdict, decision, riskLevel, flowType, reason, prevHash []byte
	details                                                                                      []byte
}

// appendCSVRow appends the CSV row Exporter writes for the record stored
// as v; ok is false when v is not in the form it reads, and then dst is
// unchanged in length (its spare capacity may be written).
func appendCSVRow(dst, v []byte, flows bool) (_ []byte, ok bool) {
	var r storedFields
	if !r.parse(v, true) {
		return dst, false
	}
	n := len(dst)
	dst = append(dst, uintOr0(r.id)...)
	dst = append(dst, ',')
	dst = r.time.UTC().AppendFormat(dst, time.RFC3339Nano)
	for i, lit := range [][]byte{r.typ, r.session, r.server, r.tool, r.method, r.verdict, r.decision, r.riskLevel, r.flowType, r.reason} {
		// Shown neutralises session, server, tool, method and reason
		// first; Text is idempotent, but the slow way is taken as it is.
		shown := i >= 1 && i <= 4 || i == 9
		if dst, ok = appendStringCell(append(dst, ','), lit, shown); !ok {
			return dst[:n], false
		}
	}
	for _, num := range [][]byte{r.argsBytes, r.resultBytes, r.latency, r.chainSeq} {
		dst = append(append(dst, ','), uintOr0(num)...)
	}
	dst = append(dst, ',')
	if r.prevHash != nil {
		s, ok := plainString(r.prevHash)
		if !ok {
			var str string
			if json.Unmarshal(r.prevHash, &str) != nil {
				return dst[:n], false
			}
			s = []byte(str)
		}
		dst = appendCSVField(dst, s)
	}
	dst = append(dst, ',')
	if r.chainSeq != nil {
		sum := sha256.Sum256(v)
		dst = hex.AppendEncode(dst, sum[:]) // hex needs no quotes
	}
	if flows {
		dst = append(dst, ',')
		if r.details != nil {
			if !mayChange(r.details, true) {
				dst = appendCSVField(dst, r.details)
			} else {
				dst = appendCSVField(dst, []byte(untrusted.Cell(string(untrusted.JSON(r.details)))))
			}
		}
	}
	return append(dst, '\n'), true
}

func uintOr0(lit []byte) []byte {
	if lit == nil {
		return []byte{'0'}
	}
	return lit
}

// appendStringCell appends the cell of the string whose JSON literal is
// lit (nil: absent, the empty string), as Cell writes it, after Text
// when shown.
func appendStringCell(dst, lit []byte, shown bool) ([]byte, bool) {
	if lit == nil {
		return dst, true
	}
	if s, ok := plainString(lit); ok && !mayChange(s, false) {
		return appendCSVField(dst, s), true
	}
	var s string
	if json.Unmarshal(lit, &s) != nil {
		return dst, false
	}
	if shown {
		s = untrusted.Text(s)
	}
	return appendCSVField(dst, []byte(untrusted.Cell(s))), true
}

// plainString is the content of a JSON string literal with no escape
// and only printable ASCII in it: the string itself.
func plainString(lit []byte) ([]byte, bool) {
	s := lit[1 : len(lit)-1]
	for _, c := range s {
		if c < 0x20 || c >= 0x7f || c == '\\' {
			return nil, false
		}
	}
	return s, true
}

// mayChange reports whether Cell (and, for details, untrusted.JSON
// before it) might change s: unless s is printable ASCII without a
// backslash, a leading formula character or, in details, an excerpt,
// both return it as it is.
func mayChange(s []byte, details bool) bool {
	if len(s) > 0 && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@') {
		return true
	}
	for i, c := range s {
		if c < 0x20 || c >= 0x7f || c == '\\' {
			return true
		}
		if details && c == '"' && hasExcerptKey(s[i+1:]) {
			return true
		}
	}
	return false
}

func hasExcerptKey(s []byte) bool {
	const key = `excerpt"`
	return len(s) >= len(key) && string(s[:len(key)]) == key
}

// appendCSVField appends s as encoding/csv's Writer writes a field
// (Comma ',', UseCRLF false).
func appendCSVField(dst, s []byte) []byte {
	if !csvNeedsQuotes(s) {
		return append(dst, s...)
	}
	dst = append(dst, '"')
	for _, c := range s {
		if c == '"' {
			dst = append(dst, '"')
		}
		dst = append(dst, c)
	}
	return append(dst, '"')
}

// csvNeedsQuotes is encoding/csv's fieldNeedsQuotes for Comma ','.
func csvNeedsQuotes(s []byte) bool {
	if len(s) == 0 {
		return false
	}
	if string(s) == `\.` {
		return true
	}
	for _, c := range s {
		if c == '\n' || c == '\r' || c == '"' || c == ',' {
			return true
		}
	}
	r, _ := utf8.DecodeRune(s)
	return unicode.IsSpace(r)
}

// parse reads v in the form json.Marshal writes a Record. It is false for
// anything else, and for anything json.Unmarshal would read otherwise
// or refuse: other keys, spacing, non-canonical numbers, invalid string
// literals, and invalid details when valid is set.
func (r *storedFields) parse(v []byte, valid bool) bool {
	if len(v) < 2 || v[0] != '{' || v[len(v)-1] != '}' {
		return false
	}
	i := 1
	if v[i] == '}' {
		return i+1 == len(v)
	}
	for {
		key, end, ok := stringLit(v, i)
		if !ok || end >= len(v) || v[end] != ':' {
			return false
		}
		i = end + 1
		var dst *[]byte
		num, signed, isTime := false, false, false
		switch string(key[1 : len(key)-1]) {
		case "id":
			dst, num = &r.id, true
		case "chain_seq":
			dst, num = &r.chainSeq, true
		case "args_bytes":
			dst, num, signed = &r.argsBytes, true, true
		case "result_bytes":
			dst, num, signed = &r.resultBytes, true, true
		case "latency_us":
			dst, num, signed = &r.latency, true, true
		case "time":
			isTime = true
		case "type":
			dst = &r.typ
		case "session":
			dst = &r.session
		case "server":
			dst = &r.server
		case "tool":
			dst = &r.tool
		case "method":
			dst = &r.method
		case "verdict":
			dst = &r.verdict
		case "decision":
			dst = &r.decision
		case "risk_level":
			dst = &r.riskLevel
		case "flow_type":
			dst = &r.flowType
		case "reason":
			dst = &r.reason
		case "prev_hash":
			dst = &r.prevHash
		case "request_id", "hash":
			var unused []byte
			dst = &unused
		case "details":
			end := detailsEnd(v, i, valid)
			if end < 0 {
				return false
			}
			r.details, i = v[i:end], end
			goto next
		default:
			return false
		}
		switch {
		case num:
			lit, end, ok := canonicalInt(v, i, signed)
			if !ok {
				return false
			}
			*dst, i = lit, end
			if string(lit) == "0" {
				*dst = nil
			}
		case isTime:
			lit, end, ok := stringLit(v, i)
			if !ok || r.time.UnmarshalJSON(lit) != nil {
				return false
			}
			i = end
		default:
			lit, end, ok := stringLit(v, i)
			if !ok || !validString(lit) {
				return false
			}
			*dst, i = lit, end
		}
	next:
		switch {
		case i >= len(v):
			return false
		case v[i] == ',':
			i++
		case v[i] == '}':
			return i+1 == len(v)
		default:
			return false
		}
	}
}

// validString reports whether json.Unmarshal reads the string literal
// lit: one that is plain needs no decoding to tell.
func validString(lit []byte) bool {
	if _, ok := plainString(lit); ok {
		return true
	}
	var s string
	return json.Unmarshal(lit, &s) == nil
}

// stringLit is the JSON string literal starting at v[i], quotes
// included, and the index past it; validString checks its content.
func stringLit(v []byte, i int) (lit []byte, end int, ok bool) {
	if i >= len(v) || v[i] != '"' {
		return nil, 0, false
	}
	for j := i + 1; j < len(v); j++ {
		switch v[j] {
		case '\\':
			j++
		case '"':
			return v[i : j+1], j + 1, true
		}
	}
	return nil, 0, false
}

// canonicalInt is the integer at v[i] as strconv formats it, small
// enough for an int on any platform: the literal is then the column.
func canonicalInt(v []byte, i int, signed bool) (lit []byte, end int, ok bool) {
	j := i
	if signed && j < len(v) && v[j] == '-' {
		j++
	}
	start := j
	for j < len(v) && v[j] >= '0' && v[j] <= '9' {
		j++
	}
	digits := j - start
	switch {
	case digits == 0, digits > 9,
		digits > 1 && v[start] == '0',
		start > i && v[start] == '0': // -0 reads as 0
		return nil, 0, false
	}
	return v[i:j], j, true
}

// detailsEnd is where the JSON object or array at v[i] ends, or -1 when
// there is none, or, with valid, when it is not valid JSON.
func detailsEnd(v []byte, i int, valid bool) int {
	if i >= len(v) || v[i] != '{' && v[i] != '[' {
		return -1
	}
	depth := 0
	for j := i; j < len(v); j++ {
		switch v[j] {
		case '"':
			_, end, ok := stringLit(v, j)
			if !ok {
				return -1
			}
			j = end - 1
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				if valid && !validJSON(v[i:j+1]) {
					return -1
				}
				return j + 1
			}
		}
	}
	return -1
}
