// Package jsonedit edits a JSON settings file that people also edit by
// hand: it changes one top-level member and keeps every other byte (order,
// layout, escapes) as the user wrote it, and writes the result safely.
package jsonedit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Object is a JSON object that keeps its members in their written order,
// and each key and value byte for byte, so that a settings file flowd edits
// changes only where flowd changed it.
type Object []member

type member struct {
	Key    string
	rawKey []byte // as written, escapes included
	value  json.RawMessage
	// Where the key starts and the value ends in the parsed bytes, for
	// Splice; -1 for a member set after parsing.
	keyStart, valueEnd int
}

// Parse reads a JSON object, keeping where each member stands.
func Parse(b []byte) (Object, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err != nil {
		return nil, err
	} else if tok != json.Delim('{') {
		return nil, fmt.Errorf("want a JSON object, found %v", tok)
	}
	o := Object{}
	for dec.More() {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string) // the decoder only returns strings in key position
		end := int(dec.InputOffset())
		rawKey := bytes.TrimLeft(b[start:end], " \t\r\n,")
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		o = append(o, member{Key: key, rawKey: rawKey, value: v, keyStart: end - len(rawKey), valueEnd: int(dec.InputOffset())})
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON object")
	}
	return o, nil
}

// Get returns the value of key, the last one if the key is repeated (as
// JavaScript's JSON.parse, and so Claude Code, reads it).
func (o Object) Get(key string) (json.RawMessage, bool) {
	for i := len(o) - 1; i >= 0; i-- {
		if o[i].Key == key {
			return o[i].value, true
		}
	}
	return nil, false
}

// Set replaces the value of key where it stands, or appends the key.
func (o *Object) Set(key string, v json.RawMessage) {
	for i := len(*o) - 1; i >= 0; i-- {
		if (*o)[i].Key == key {
			(*o)[i].value = v
			return
		}
	}
	rawKey, _ := json.Marshal(key)
	*o = append(*o, member{Key: key, rawKey: rawKey, value: v, keyStart: -1, valueEnd: -1})
}

// Del removes every member named key.
func (o *Object) Del(key string) {
	kept := (*o)[:0]
	for _, m := range *o {
		if m.Key != key {
			kept = append(kept, m)
		}
	}
	*o = kept
}

// Encode writes the object without insignificant whitespace; Layout
// restores the file's indentation afterwards.
func (o Object) Encode() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(m.rawKey)
		b.WriteByte(':')
		b.Write(m.value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// EncodeArray writes items as a compact JSON array.
func EncodeArray(items []json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(it)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// Style is how a settings file is laid out, so a rewrite keeps it.
type Style struct {
	indent       string
	crlf         bool
	finalNewline bool
}

// StyleOf guesses the indentation unit from the first indented line (the
// first member of the top-level object); a file without one gets two
// spaces, as Claude Code writes its own settings.
func StyleOf(b []byte) Style {
	s := Style{indent: "  ", crlf: bytes.Contains(b, []byte("\r\n")), finalNewline: true}
	if len(bytes.TrimSpace(b)) > 0 {
		s.finalNewline = bytes.HasSuffix(b, []byte("\n"))
	}
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		rest := b[i+1:]
		n := 0
		for n < len(rest) && (rest[n] == ' ' || rest[n] == '\t') {
			n++
		}
		if n > 0 {
			s.indent = string(rest[:n])
		}
	}
	return s
}

// Layout indents compact JSON in the file's style.
func (s Style) Layout(compact []byte) ([]byte, error) {
	var b bytes.Buffer
	if err := json.Indent(&b, compact, "", s.indent); err != nil {
		return nil, err
	}
	out := b.Bytes()
	if s.finalNewline {
		out = append(out, '\n')
	}
	if s.crlf {
		out = bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n"))
	}
	return out, nil
}

// Splice returns b, the settings top was parsed from, with the value of
// the top-level member key replaced by value (laid out in the file's
// Style) or, with value nil, the member removed; a missing member is
// added last. Every other byte stays as it was, as shim wrap keeps a
// client's file. ok is false where splicing cannot say what the whole
// rewrite would (an empty object, a key given twice): the caller lays
// the file out whole.
func Splice(b []byte, top Object, key string, value json.RawMessage, st Style) (out []byte, ok bool, err error) {
	at, n := -1, 0
	for i, m := range top {
		if m.Key == key {
			at, n = i, n+1
		}
	}
	if n > 1 || len(top) == 0 || (at >= 0 && top[at].keyStart < 0) {
		return nil, false, nil
	}
	nl := "\n"
	if st.crlf {
		nl = "\r\n"
	}
	var laid []byte
	if value != nil {
		var buf bytes.Buffer
		if err := json.Indent(&buf, value, st.indent, st.indent); err != nil {
			return nil, false, err
		}
		laid = buf.Bytes()
		if st.crlf {
			laid = bytes.ReplaceAll(laid, []byte("\n"), []byte(nl))
		}
	}
	join := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	switch {
	case at >= 0 && value != nil:
		m := top[at]
		return join(b[:m.valueEnd-len(m.value)], laid, b[m.valueEnd:]), true, nil
	case at >= 0 && len(top) == 1:
		return nil, false, nil // the object empties: laid out whole
	case at > 0: // from the end of the member before it
		return join(b[:top[at-1].valueEnd], b[top[at].valueEnd:]), true, nil
	case at == 0: // up to the key of the member after it
		return join(b[:top[0].keyStart], b[top[1].keyStart:]), true, nil
	case value == nil:
		return b, true, nil
	}
	last := top[len(top)-1]
	rawKey, _ := json.Marshal(key)
	return join(b[:last.valueEnd], []byte(","+nl+st.indent), rawKey, []byte(": "), laid, b[last.valueEnd:]), true, nil
}

// Marshal encodes a value flowd writes into a settings file, leaving "&",
// "<" and ">" in a path readable.
func Marshal(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // plain structs of strings, ints and bools
	}
	return bytes.TrimSpace(b.Bytes())
}
