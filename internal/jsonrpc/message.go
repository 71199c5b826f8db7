package jsonrpc

import (
	"bytes"
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// BlockPrefix starts the text of every result flowd puts in place of a
// tools/call it refused, so clients, models and tests can recognise it.
const BlockPrefix = "flowd blocked: "

// BlockedToolResult is the reply to a tools/call that never reached the
// upstream: a tool execution error (isError) rather than a JSON-RPC error,
// because clients hand those to the model, which can then explain or adapt.
// It carries no structuredContent, so clients that validate an outputSchema
// accept it; 2026-07-28 sessions need resultType on every result.
func BlockedToolResult(id []byte, reason string, modern bool) []byte {
	text, _ := json.Marshal(BlockPrefix + reason)
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":`)
	b.Write(id)
	b.WriteString(`,"result":{"content":[{"type":"text","text":`)
	b.Write(text)
	b.WriteString(`}],"isError":true`)
	if modern {
		b.WriteString(`,"resultType":"complete"`)
	}
	b.WriteString("}}\n")
	return []byte(b.String())
}

// RequestError is a JSON-RPC error answering request id, with message as
// its text: flowd's answer to a request it cannot read one way only.
func RequestError(id []byte, message string) []byte {
	text, _ := json.Marshal(message)
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":`)
	b.Write(id)
	b.WriteString(`,"error":{"code":-32600,"message":`)
	b.Write(text)
	b.WriteString("}}\n")
	return []byte(b.String())
}

// WithoutArgument returns the tools/call request line with the member key
// removed from params.arguments, every other byte as it was. It reports
// false when the line has no such argument.
func WithoutArgument(line []byte, key string) ([]byte, bool) {
	params, ok := member(line, "params")
	if !ok {
		return nil, false
	}
	args, ok := member(line[params.value:params.end], "arguments")
	if !ok {
		return nil, false
	}
	obj := line[params.value+args.value : params.value+args.end]
	m, ok := member(obj, key)
	if !ok {
		return nil, false
	}
	// Take the member with the comma after it, or else the one before it.
	from, to := m.key, m.end
	p := parser{b: obj, i: to}
	p.space()
	if p.peek() == ',' {
		p.i++
		p.space()
		to = p.i
	} else if i := bytes.LastIndexByte(obj[:from], ','); i >= 0 && len(bytes.TrimSpace(obj[i+1:from])) == 0 {
		from = i
	}
	base := params.value + args.value
	out := make([]byte, 0, len(line)-(to-from))
	out = append(out, line[:base+from]...)
	return append(out, line[base+to:]...), true
}

// tailID is a response's id as the last member of its object, at the very
// end of the line. A string in the result cannot fake it: its quotes would
// be escaped.
var tailID = regexp.MustCompile(`"id"\s*:\s*(-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|"(?:[^"\\]|\\.)*")\s*}\s*$`)

// TruncatedID finds the id of a response of which only the head and the
// tail of the line are at hand: in the head when "id" comes before the
// result (as the Go SDKs write it), else at the end of the tail (as the
// TypeScript SDK does).
func TruncatedID(head, tail []byte) ([]byte, bool) {
	if id, ok := Member(head, "id"); ok {
		return id, true
	}
	m := tailID.FindSubmatch(tail)
	if m == nil {
		return nil, false
	}
	return m[1], true
}

// IDValue is the number a client may take the id raw for, if any. Clients
// match a response to their request by the id's value: the TypeScript SDK
// by Number(id), so 1, 1.0, "1" and "0x1" all answer request 1, and
// Python's pydantic takes 1.0 for 1.
func IDValue(raw []byte) (float64, bool) {
	s := string(raw)
	if len(raw) >= 2 && raw[0] == '"' {
		s = strings.TrimSpace(unescaped(raw[1 : len(raw)-1]))
		if s == "" {
			return 0, true // Number("") is 0
		}
		if strings.ContainsRune(s, '_') {
			return 0, false // Go reads digit separators, Number does not
		}
		if len(s) > 2 && s[0] == '0' {
			base := 0
			switch s[1] {
			case 'x', 'X':
				base = 16
			case 'o', 'O':
				base = 8
			case 'b', 'B':
				base = 2
			}
			if base != 0 {
				n, err := strconv.ParseUint(s[2:], base, 64)
				return float64(n), err == nil
			}
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil && !math.IsNaN(v)
}

// maxIDText bounds IDText: an id is a handle, not a place for data, and a
// peer that sends a long one must not make each record of it long.
const maxIDText = 128

// IDText is the id raw as the text OpenTelemetry's jsonrpc.request.id
// wants: a string id's value, a number as written; at most maxIDText
// bytes (cut on a character, marked with "…"); "" when absent or null.
func IDText(raw []byte) string {
	s := string(raw)
	switch {
	case len(raw) == 0 || s == "null":
		return ""
	case len(raw) >= 2 && raw[0] == '"':
		s = unescaped(raw[1 : len(raw)-1])
	}
	if len(s) <= maxIDText {
		return s
	}
	cut := maxIDText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// ToolCall reads a tools/call's tool name and raw arguments from its
// params, decoding only the name. ok is false when the params could be
// read two ways: "name" or "arguments" given twice or in another case
// (which Go servers match), or a name that is not a string (a Go server
// keeps an earlier name past a null). What a server would run is then
// unknown.
func ToolCall(params []byte) (name string, args []byte, ok bool) {
	names := [...]string{"name", "arguments"}
	var seen [len(names)]bool
	var v []byte
	ok = true
	members(params, func(k []byte, m span) {
		var buf [maxName]byte
		n, dup := repeated(memberName(&buf, k), names[:], seen[:])
		switch {
		case dup:
			ok = false
		case n == "name":
			v = params[m.value:m.end]
		case n == "arguments":
			args = params[m.value:m.end]
		}
	})
	if !ok {
		return "", nil, false
	}
	if v != nil {
		if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
			return "", nil, false
		}
		name = unescaped(v[1 : len(v)-1])
	}
	return name, args, true
}

// IsError reports whether a tools/call result says isError: true.
func IsError(result []byte) bool {
	v, ok := Member(result, "isError")
	return ok && string(v) == "true"
}

// ModernVersionKey is the _meta key a 2026-07-28 client puts on every request.
const ModernVersionKey = "io.modelcontextprotocol/protocolVersion"

// Rest is the tools/call message line without its arguments, a sub-slice
// of it (as ToolCall returns them), which read null in their place: what
// the server reads besides the arguments (the tool's name, _meta, the id),
// to be checked apart from them. Without arguments it is line itself.
func Rest(line, args []byte) []byte {
	if args == nil {
		return line
	}
	return Splice(line, args, []byte("null"))
}
