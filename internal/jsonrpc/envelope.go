package jsonrpc

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/flowd-dev/flowd/internal/jsontext"
)

// Kind says what a line holds.
type Kind uint8

const (
	Invalid      Kind = iota // not a JSON object we understand
	Request                  // method and id
	Notification             // method, no id
	Response                 // id and result
	ErrorReply               // id and error
	Batch                    // a JSON array (batching left MCP in 2025-06-18)
)

func (k Kind) String() string {
	switch k {
	case Request:
		return "request"
	case Notification:
		return "notification"
	case Response:
		return "response"
	case ErrorReply:
		return "error"
	case Batch:
		return "batch"
	}
	return "invalid"
}

// Envelope holds the top-level members of a message as sub-slices of the
// line it was parsed from; it is valid only as long as that line is.
type Envelope struct {
	Kind   Kind
	ID     []byte // raw JSON: a number or a string, nil when absent
	Method string
	Params []byte // raw JSON, nil when absent
	Result []byte
	Error  []byte
	// Ambiguous names an envelope member the line gives twice, or in
	// another case: JSON.parse reads the last exact one, Go's encoding/json
	// the last in any case, so the peers may read the message differently
	// from flowd and from each other.
	Ambiguous string
}

// envelopeNames are the members Parse reads.
var envelopeNames = [...]string{"jsonrpc", "id", "method", "params", "result", "error"}

var errNotObject = errors.New("jsonrpc: message is not a JSON object")

// Parse locates the envelope members of one message. It validates the
// structure it walks (strings, nesting) but not every number or literal
// inside values it skips: that is the upstream's and the client's business,
// and skipping keeps a 10 MB result at memory speed.
func Parse(line []byte) (Envelope, error) {
	var e Envelope
	p := parser{b: line}
	p.space()
	if p.i >= len(p.b) {
		return e, errNotObject
	}
	switch p.b[p.i] {
	case '[':
		e.Kind = Batch
		return e, nil
	case '{':
	default:
		return e, errNotObject
	}
	p.i++
	p.space()
	empty := p.peek() == '}'
	if empty {
		p.i++
	}
	var seen [len(envelopeNames)]bool
	for !empty {
		p.space()
		key, ok := p.str()
		if !ok {
			return Envelope{}, p.err("member name")
		}
		p.space()
		if p.peek() != ':' {
			return Envelope{}, p.err("':'")
		}
		p.i++
		p.space()
		start := p.i
		if !p.value() {
			return Envelope{}, p.err("value")
		}
		v := p.b[start:p.i]
		var buf [maxName]byte
		key = memberName(&buf, key)
		if name, dup := repeated(key, envelopeNames[:], seen[:]); dup && e.Ambiguous == "" {
			e.Ambiguous = name
		}
		switch string(key) {
		case "id":
			if !bytes.Equal(v, []byte("null")) {
				e.ID = v
			}
		case "method":
			if len(v) >= 2 && v[0] == '"' {
				e.Method = unescaped(v[1 : len(v)-1])
			}
		case "params":
			e.Params = v
		case "result":
			e.Result = v
		case "error":
			e.Error = v
		}
		p.space()
		switch p.peek() {
		case ',':
			p.i++
			continue
		case '}':
			p.i++
		default:
			return Envelope{}, p.err("',' or '}'")
		}
		break
	}
	p.space()
	if p.i != len(p.b) {
		return Envelope{}, p.err("end of message")
	}
	switch {
	case e.Method != "" && e.ID != nil:
		e.Kind = Request
	case e.Method != "":
		e.Kind = Notification
	case e.ID != nil && e.Error != nil:
		e.Kind = ErrorReply
	case e.ID != nil && e.Result != nil:
		e.Kind = Response
	default:
		e.Kind = Invalid
	}
	return e, nil
}

type parser struct {
	b []byte
	i int
}

type syntaxError struct {
	want string
	at   int
}

func (e *syntaxError) Error() string {
	return "jsonrpc: invalid message: want " + e.want + " at byte " + strconv.Itoa(e.at)
}

func (p *parser) err(want string) error { return &syntaxError{want: want, at: p.i} }

func (p *parser) peek() byte {
	if p.i < len(p.b) {
		return p.b[p.i]
	}
	return 0
}

func (p *parser) space() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\r', '\n':
			p.i++
		default:
			return
		}
	}
}

// str reads a string and returns its raw contents (escapes not decoded).
func (p *parser) str() ([]byte, bool) {
	if p.peek() != '"' {
		return nil, false
	}
	start := p.i + 1
	j := start
	for {
		k := bytes.IndexByte(p.b[j:], '"')
		if k < 0 {
			return nil, false
		}
		j += k
		// A quote preceded by an odd number of backslashes is escaped.
		n := 0
		for m := j - 1; m >= start && p.b[m] == '\\'; m-- {
			n++
		}
		if n%2 == 0 {
			p.i = j + 1
			return p.b[start:j], true
		}
		j++
	}
}

// value skips one value. Nesting has no bound: containers are skipped
// without recursion, and a peer that reads deeper than flowd would get
// messages flowd could not judge (JSON.parse reads 20,000 levels).
func (p *parser) value() bool {
	switch c := p.peek(); c {
	case '"':
		_, ok := p.str()
		return ok
	case '{', '[':
		return p.container()
	case 0:
		return false
	default:
		// number, true, false, null: a run of literal characters.
		start := p.i
		for p.i < len(p.b) {
			switch p.b[p.i] {
			case ',', '}', ']', ' ', '\t', '\r', '\n':
				return p.i > start
			}
			p.i++
		}
		return p.i > start
	}
}

// container skips an object or array iteratively, tracking only strings
// and bracket balance.
func (p *parser) container() bool {
	level := 0
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case '"':
			if _, ok := p.str(); !ok {
				return false
			}
			continue
		case '{', '[':
			level++
		case '}', ']':
			level--
			if level == 0 {
				p.i++
				return true
			}
		}
		p.i++
	}
	return false
}

// Member returns the raw value of the top-level member key of the JSON
// object obj, without decoding or validating anything else: flowd reads
// isError from a 10 MB result and a tool's name from its call this way.
//
// It reads members as the servers and clients on either side do (JSON.parse,
// encoding/json, Python's json): names with their escapes decoded, and of
// a name given twice the last. Otherwise a message could show flowd one
// tool or one set of arguments and the server another. Of an object cut
// short (the head of a truncated result), the members before the cut count.
func Member(obj []byte, key string) ([]byte, bool) {
	m, ok := member(obj, key)
	if !ok {
		return nil, false
	}
	return obj[m.value:m.end], true
}

// span locates one member of an object: its key's opening quote, its
// value's first byte and the byte after its value.
type span struct{ key, value, end int }

func member(obj []byte, key string) (found span, ok bool) {
	members(obj, func(k []byte, m span) {
		var buf [maxName]byte
		if string(memberName(&buf, k)) == key {
			found, ok = m, true
		}
	})
	return found, ok
}

// MemberFold reports whether the JSON object obj has a top-level member
// named key in any case, as Go's encoding/json matches names.
func MemberFold(obj []byte, key string) bool {
	found := false
	members(obj, func(k []byte, _ span) {
		var buf [maxName]byte
		found = found || bytes.EqualFold(memberName(&buf, k), []byte(key))
	})
	return found
}

// Repeated returns a top-level member name of the JSON object obj that is
// given twice, or in two cases, or "" if none is: a peer may then read obj
// otherwise than flowd (JSON.parse takes the last exact name, Go the last
// in any case).
func Repeated(obj []byte) string {
	var names [][]byte
	dup := ""
	members(obj, func(k []byte, _ span) {
		if dup != "" {
			return
		}
		var buf [maxName]byte
		name := bytes.Clone(memberName(&buf, k))
		for _, n := range names {
			if bytes.EqualFold(n, name) {
				dup = string(name)
				return
			}
		}
		names = append(names, name)
	})
	return dup
}

// members calls fn with each top-level member of the JSON object obj, its
// raw name and its place, in order, up to the end of obj or the first
// syntax error.
func members(obj []byte, fn func(name []byte, m span)) {
	p := parser{b: obj}
	p.space()
	if p.peek() != '{' {
		return
	}
	p.i++
	for {
		p.space()
		m := span{key: p.i}
		k, valid := p.str()
		if !valid {
			return
		}
		p.space()
		if p.peek() != ':' {
			return
		}
		p.i++
		p.space()
		m.value = p.i
		if !p.value() {
			return
		}
		m.end = p.i
		fn(k, m)
		p.space()
		if p.peek() != ',' {
			return
		}
		p.i++
	}
}

// repeated reports whether key names one of names a second time, or in
// another case (Unicode simple folding, as encoding/json matches), and
// which; seen records the names met so far.
func repeated(key []byte, names []string, seen []bool) (string, bool) {
	for i, n := range names {
		// A folded letter takes one to three bytes in UTF-8 (K, the
		// Kelvin sign, is three): a cheap test before the fold.
		if len(key) < len(n) || len(key) > 3*len(n) || !bytes.EqualFold(key, []byte(n)) {
			continue
		}
		dup := seen[i] || string(key) != n
		seen[i] = true
		return n, dup
	}
	return "", false
}

// plain reports whether a JSON string's raw contents are its value:
// printable ASCII without escapes, the common case, which needs no
// decoding.
func plain(raw []byte) bool {
	for _, c := range raw {
		if c < 0x20 || c >= 0x7f || c == '\\' || c == '"' {
			return false
		}
	}
	return true
}

// unescaped is the value of a JSON string's raw contents as a decoder reads
// it (escapes decoded, invalid UTF-8 replaced), or "" when they do not
// decode: the peers reject such a message.
func unescaped(raw []byte) string {
	if plain(raw) {
		return string(raw)
	}
	d, ok := jsontext.Decode(nil, raw)
	if !ok {
		return ""
	}
	return string(d)
}

// maxName bounds the member names decoded. A longer one decodes to more
// than 32 bytes (an escape turns at most six bytes into one), longer than
// any name flowd reads is in any case.
const maxName = 192

// memberName is a member's raw name as a decoder reads it, decoded into
// buf when it needs decoding, without allocating: a message may hold
// millions of names. A name longer than maxName comes back as it is, one
// that does not decode as nil.
func memberName(buf *[maxName]byte, raw []byte) []byte {
	if len(raw) > maxName || plain(raw) {
		return raw
	}
	d, ok := jsontext.Decode(buf[:0], raw)
	if !ok {
		return nil
	}
	return d
}
