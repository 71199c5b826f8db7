package injection

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/flowd-dev/flowd/internal/jsontext"
)

// jsonPath is the position of a value in a JSON document, printed as
// content[0].text or structuredContent.events[3].description. Keys that
// are not plain identifiers are quoted: ["a.b"].
type jsonPath struct {
	elems []pathElem
}

type pathElem struct {
	key   string
	index int // -1 for object members
	// dup numbers a repeated member name within one object (2 for the
	// second "a"), printed as a#2, so that every path names one string.
	dup int
}

func (p *jsonPath) String() string {
	var b strings.Builder
	for i, e := range p.elems {
		switch {
		case e.index >= 0:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(e.index))
			b.WriteByte(']')
		case plainKey(e.key):
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(e.key)
		default:
			b.WriteString("[")
			b.WriteString(strconv.Quote(e.key))
			b.WriteString("]")
		}
		if e.dup > 1 {
			b.WriteByte('#')
			b.WriteString(strconv.Itoa(e.dup))
		}
	}
	return b.String()
}

// lastKey is the name of the innermost object member on the path.
func (p *jsonPath) lastKey() string {
	for i := len(p.elems) - 1; i >= 0; i-- {
		if p.elems[i].index < 0 {
			return p.elems[i].key
		}
	}
	return ""
}

func plainKey(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		if c := k[i]; !isAlnum(c) && c != '_' && c != '-' && c != '$' && c != '@' {
			return false
		}
	}
	return true
}

const maxJSONNesting = 256

var errJSONDepth = errors.New("JSON nested too deeply")

// walkJSON calls fn for every string value in data (member names are not
// values) with its path and the byte span of the quoted string in data.
// fn returns false to stop the walk. data must be one JSON value.
func walkJSON(data []byte, fn func(p *jsonPath, quoted span, value string) bool) error {
	return walkJSONNames(data, nil, fn)
}

// walkJSONNames is walkJSON that also calls name, if not nil, for every
// member name, with the path of the object that holds it, before the
// member's value.
func walkJSONNames(data []byte, name func(p *jsonPath, key string), fn func(p *jsonPath, quoted span, value string) bool) error {
	w := &walker{data: data, fn: fn, name: name}
	w.skipSpace()
	if err := w.value(0); err != nil {
		return err
	}
	if w.stopped {
		return nil
	}
	w.skipSpace()
	if w.i != len(data) {
		return fmt.Errorf("JSON: unexpected %q after the value at offset %d", data[w.i], w.i)
	}
	return nil
}

type walker struct {
	data    []byte
	i       int
	path    jsonPath
	fn      func(*jsonPath, span, string) bool
	name    func(*jsonPath, string)
	stopped bool
}

func (w *walker) skipSpace() {
	for w.i < len(w.data) {
		switch w.data[w.i] {
		case ' ', '\t', '\n', '\r':
			w.i++
		default:
			return
		}
	}
}

func (w *walker) errorf(format string, args ...any) error {
	return fmt.Errorf("JSON at offset %d: %s", w.i, fmt.Sprintf(format, args...))
}

func (w *walker) value(depth int) error {
	if depth > maxJSONNesting {
		return errJSONDepth
	}
	if w.i >= len(w.data) {
		return w.errorf("unexpected end")
	}
	switch c := w.data[w.i]; {
	case c == '{':
		return w.object(depth)
	case c == '[':
		return w.array(depth)
	case c == '"':
		start := w.i
		s, err := w.str()
		if err != nil {
			return err
		}
		if !w.fn(&w.path, span{start, w.i}, s) {
			w.stopped = true
		}
		return nil
	case c == 't':
		return w.literal("true")
	case c == 'f':
		return w.literal("false")
	case c == 'n':
		return w.literal("null")
	case c == '-' || c >= '0' && c <= '9':
		return w.number()
	default:
		return w.errorf("unexpected %q", c)
	}
}

func (w *walker) literal(lit string) error {
	if len(w.data)-w.i < len(lit) || string(w.data[w.i:w.i+len(lit)]) != lit {
		return w.errorf("invalid literal")
	}
	w.i += len(lit)
	return nil
}

func (w *walker) number() error {
	start := w.i
	for w.i < len(w.data) && strings.IndexByte("+-0123456789.eE", w.data[w.i]) >= 0 {
		w.i++
	}
	if _, err := strconv.ParseFloat(string(w.data[start:w.i]), 64); err != nil && !errors.Is(err, strconv.ErrRange) {
		return w.errorf("invalid number %q", w.data[start:w.i])
	}
	return nil
}

func (w *walker) object(depth int) error {
	w.i++
	w.skipSpace()
	if w.i < len(w.data) && w.data[w.i] == '}' {
		w.i++
		return nil
	}
	var keys []string
	var keySet map[string]int
	for {
		w.skipSpace()
		if w.i >= len(w.data) || w.data[w.i] != '"' {
			return w.errorf("expected a member name")
		}
		key, err := w.str()
		if err != nil {
			return err
		}
		w.skipSpace()
		if w.i >= len(w.data) || w.data[w.i] != ':' {
			return w.errorf("expected ':'")
		}
		w.i++
		w.skipSpace()
		dup := 1
		switch {
		case keySet != nil:
			keySet[key]++
			dup = keySet[key]
		default:
			for _, k := range keys {
				if k == key {
					dup++
				}
			}
			keys = append(keys, key)
			if len(keys) > 16 { // big objects: count with a map
				keySet = map[string]int{}
				for _, k := range keys {
					keySet[k]++
				}
			}
		}
		if w.name != nil {
			w.name(&w.path, key)
		}
		w.path.elems = append(w.path.elems, pathElem{key: key, index: -1, dup: dup})
		err = w.value(depth + 1)
		w.path.elems = w.path.elems[:len(w.path.elems)-1]
		if err != nil || w.stopped {
			return err
		}
		w.skipSpace()
		if w.i >= len(w.data) {
			return w.errorf("unexpected end in object")
		}
		switch w.data[w.i] {
		case ',':
			w.i++
		case '}':
			w.i++
			return nil
		default:
			return w.errorf("expected ',' or '}'")
		}
	}
}

func (w *walker) array(depth int) error {
	w.i++
	w.skipSpace()
	if w.i < len(w.data) && w.data[w.i] == ']' {
		w.i++
		return nil
	}
	for n := 0; ; n++ {
		w.skipSpace()
		w.path.elems = append(w.path.elems, pathElem{index: n})
		err := w.value(depth + 1)
		w.path.elems = w.path.elems[:len(w.path.elems)-1]
		if err != nil || w.stopped {
			return err
		}
		w.skipSpace()
		if w.i >= len(w.data) {
			return w.errorf("unexpected end in array")
		}
		switch w.data[w.i] {
		case ',':
			w.i++
		case ']':
			w.i++
			return nil
		default:
			return w.errorf("expected ',' or ']'")
		}
	}
}

// str reads a quoted string at w.i and returns its value.
func (w *walker) str() (string, error) {
	w.i++
	start := w.i
	// The common string has no escapes: find its end with the
	// vectorised byte search, then look back for what would need care.
	q := bytes.IndexByte(w.data[start:], '"')
	if q < 0 {
		return "", w.errorf("unterminated string")
	}
	body := w.data[start : start+q]
	if bytes.IndexByte(body, '\\') < 0 {
		for i, c := range body {
			if c < 0x20 {
				w.i = start + i
				return "", w.errorf("control character in string")
			}
		}
		w.i = start + q + 1
		return string(body), nil
	}
	for w.i < len(w.data) {
		switch c := w.data[w.i]; {
		case c == '"':
			s := string(w.data[start:w.i])
			w.i++
			return s, nil
		case c == '\\':
			return w.escaped(start)
		case c < 0x20:
			return "", w.errorf("control character in string")
		}
		w.i++
	}
	return "", w.errorf("unterminated string")
}

func (w *walker) escaped(start int) (string, error) {
	// An escape is never shorter than what it stands for, so the bytes
	// up to the closing quote bound the string: one allocation, which
	// the builder hands over without a copy.
	end := w.i
	for end < len(w.data) && w.data[end] != '"' {
		if w.data[end] == '\\' {
			end++
		}
		end++
	}
	var b strings.Builder
	b.Grow(min(end, len(w.data)) - start)
	b.Write(w.data[start:w.i])
	for w.i < len(w.data) {
		c := w.data[w.i]
		switch {
		case c == '"':
			w.i++
			return b.String(), nil
		case c < 0x20:
			return "", w.errorf("control character in string")
		case c != '\\':
			// Copy the run up to the next quote, escape or control byte.
			j := w.i + 1
			for j < len(w.data) && w.data[j] != '"' && w.data[j] != '\\' && w.data[j] >= 0x20 {
				j++
			}
			b.Write(w.data[w.i:j])
			w.i = j
			continue
		}
		if w.i+1 >= len(w.data) {
			break
		}
		var r [utf8.UTFMax]byte
		dec, n := jsontext.AppendEscape(r[:0], w.data[w.i:])
		if n == 0 {
			esc := w.data[w.i+1]
			w.i += 2
			if esc == 'u' {
				return "", w.errorf("invalid \\u escape")
			}
			return "", w.errorf("invalid escape \\%c", esc)
		}
		b.Write(dec)
		w.i += n
	}
	return "", w.errorf("unterminated string")
}
