package daemon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/flowd-dev/flowd/internal/jsonrpc"
)

// These functions rewrite one member of a message and keep every other
// byte: the id, the members flowd does not know, their order and spacing.

// splice returns whole with part, a sub-slice of whole (as jsonrpc.Parse
// and jsonrpc.Member return them), replaced by with.
func splice(whole, part, with []byte) []byte {
	// part shares whole's backing array from its start, so the capacity
	// it lacks is its offset.
	at := cap(whole) - cap(part)
	out := make([]byte, 0, len(whole)-len(part)+len(with))
	out = append(out, whole[:at]...)
	out = append(out, with...)
	return append(out, whole[at+len(part):]...)
}

// prepend puts item first in the array member key of the JSON object obj,
// creating the member when obj has none, and returns whole, of which obj
// is a sub-slice (or all), so changed.
func prepend(whole, obj []byte, key string, item []byte) ([]byte, error) {
	if arr, ok := jsonrpc.Member(obj, key); ok {
		if len(arr) == 0 || arr[0] != '[' {
			return nil, fmt.Errorf("%s is not an array", key)
		}
		if len(bytes.TrimSpace(arr[1:len(arr)-1])) == 0 {
			return splice(whole, arr, append(append([]byte{'['}, item...), ']')), nil
		}
		// One copy of whole, however large: the item goes right after '['.
		at := cap(whole) - cap(arr) + 1
		out := make([]byte, 0, len(whole)+len(item)+1)
		return append(append(append(append(out, whole[:at]...), item...), ','), whole[at:]...), nil
	}
	open := bytes.IndexByte(obj, '{')
	if open < 0 {
		return nil, fmt.Errorf("result is not an object")
	}
	name, _ := json.Marshal(key)
	member := append(append(append(name, ':', '['), item...), ']')
	if len(bytes.TrimSpace(obj[open+1:])) > 1 { // more than the closing brace
		member = append(member, ',')
	}
	out := append([]byte{}, obj[:open+1]...)
	out = append(out, member...)
	return splice(whole, obj, append(out, obj[open+1:]...)), nil
}

// withNotice returns the result with text put before its content, in the
// shape the method's result takes: a text block first in a tool result's
// content, a text resource first in resources/read's contents, a user
// message first in prompts/get's messages.
func withNotice(method string, whole, result []byte, text string) ([]byte, error) {
	t, _ := json.Marshal(text)
	switch method {
	case "resources/read":
		return prepend(whole, result, "contents", []byte(`{"uri":"flowd:notice","mimeType":"text/plain","text":`+string(t)+`}`))
	case "prompts/get":
		return prepend(whole, result, "messages", []byte(`{"role":"user","content":{"type":"text","text":`+string(t)+`}}`))
	}
	return prepend(whole, result, "content", []byte(`{"type":"text","text":`+string(t)+`}`))
}

// replacement is a whole reply to request id whose result says only text:
// a tool execution error for tools/call, the method's own shape otherwise.
func replacement(id []byte, method, text string, modern bool) []byte {
	if method == "tools/call" {
		return jsonrpc.BlockedToolResult(id, text, modern)
	}
	empty := []byte("{}")
	result, _ := withNotice(method, empty, empty, jsonrpc.BlockPrefix+text)
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":`)
	b.Write(id)
	b.WriteString(`,"result":`)
	if modern {
		result = append(result[:len(result)-1], `,"resultType":"complete"}`...)
	}
	b.Write(result)
	b.WriteString("}\n")
	return []byte(b.String())
}

// withoutTools returns a tools/list result without the named tools.
func withoutTools(result []byte, hide map[string]bool) ([]byte, error) {
	arr, ok := jsonrpc.Member(result, "tools")
	if !ok {
		return nil, fmt.Errorf("tools/list result has no tools")
	}
	var tools []json.RawMessage
	if err := json.Unmarshal(arr, &tools); err != nil {
		return nil, fmt.Errorf("read tools/list result: %w", err)
	}
	kept := make([][]byte, 0, len(tools))
	for _, t := range tools {
		var n struct {
			Name string `json:"name"`
		}
		json.Unmarshal(t, &n)
		if !hide[n.Name] {
			kept = append(kept, t)
		}
	}
	with := append(append([]byte{'['}, bytes.Join(kept, []byte{','})...), ']')
	return splice(result, arr, with), nil
}
