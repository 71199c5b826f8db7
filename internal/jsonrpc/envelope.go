package jsonrpc

import (
	"bytes"
	"errors"
	"strconv"
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
}

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
		if !p.value(0) {
			return Envelope{}, p.err("value")
		}
		v := p.b[start:p.i]
		switch string(key) {
		case "id":
			if !bytes.Equal(v, []byte("null")) {
				e.ID = v
			}
		case "method":
			// Raw contents: a method spelled with escapes is simply not
			// one flowd recognises.
			if len(v) >= 2 && v[0] == '"' {
				e.Method = string(v[1 : len(v)-1])
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

// maxDepth bounds nesting so a hostile message cannot exhaust the stack.
const maxDepth = 10000

func (p *parser) value(depth int) bool {
	if depth > maxDepth {
		return false
	}
	switch c := p.peek(); c {
	case '"':
		_, ok := p.str()
		return ok
	case '{', '[':
		return p.container(depth)
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
func (p *parser) container(depth int) bool {
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
			if depth+level > maxDepth {
				return false
			}
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

func member(obj []byte, key string) (span, bool) {
	p := parser{b: obj}
	p.space()
	if p.peek() != '{' {
		return span{}, false
	}
	p.i++
	for {
		p.space()
		m := span{key: p.i}
		k, ok := p.str()
		if !ok {
			return span{}, false
		}
		p.space()
		if p.peek() != ':' {
			return span{}, false
		}
		p.i++
		p.space()
		m.value = p.i
		if !p.value(0) {
			return span{}, false
		}
		m.end = p.i
		if string(k) == key {
			return m, true
		}
		p.space()
		if p.peek() != ',' {
			return span{}, false
		}
		p.i++
	}
}
