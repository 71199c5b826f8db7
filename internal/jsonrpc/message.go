package jsonrpc

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
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

// ToolCall reads a tools/call's tool name and raw arguments from its
// params, decoding only the name.
func ToolCall(params []byte) (name string, args []byte) {
	if v, ok := Member(params, "name"); ok && len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		name = unescaped(v[1 : len(v)-1])
	}
	args, _ = Member(params, "arguments")
	return name, args
}

// IsError reports whether a tools/call result says isError: true.
func IsError(result []byte) bool {
	v, ok := Member(result, "isError")
	return ok && string(v) == "true"
}

// ModernVersionKey is the _meta key a 2026-07-28 client puts on every request.
const ModernVersionKey = "io.modelcontextprotocol/protocolVersion"
