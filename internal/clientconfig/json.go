package clientconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
)

// span is where one JSON value sits in the document: doc[start:end].
type span struct{ start, end int }

type member struct {
	key    string
	rawKey span // the key as written, quotes and escapes included
	value  span
}

// last returns the member named key, the last one if the key is repeated,
// as JavaScript's JSON.parse (and so every client here) reads it.
func last(ms []member, key string) (member, bool) {
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].key == key {
			return ms[i], true
		}
	}
	return member{}, false
}

// members lists the members of the object at v; ok is false when v is not
// an object. The document must already be known to be valid JSON.
func members(doc []byte, v span) (ms []member, ok bool, err error) {
	if doc[v.start] != '{' {
		return nil, false, nil
	}
	err = walk(doc, v, func(dec *json.Decoder, before int) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string) // in key position the decoder only returns strings
		end := v.start + int(dec.InputOffset())
		start := v.start + before + bytes.IndexByte(doc[v.start+before:end], '"')
		val, err := value(dec, doc, v.start)
		if err != nil {
			return err
		}
		ms = append(ms, member{key: key, rawKey: span{start, end}, value: val})
		return nil
	})
	return ms, true, err
}

// elements lists the elements of the array at v; ok is false when v is not
// an array.
func elements(doc []byte, v span) (es []span, ok bool, err error) {
	if doc[v.start] != '[' {
		return nil, false, nil
	}
	err = walk(doc, v, func(dec *json.Decoder, _ int) error {
		e, err := value(dec, doc, v.start)
		es = append(es, e)
		return err
	})
	return es, true, err
}

// walk calls each for every member or element of the object or array at v,
// with the decoder positioned before it; before is that position.
func walk(doc []byte, v span, each func(dec *json.Decoder, before int) error) error {
	dec := json.NewDecoder(bytes.NewReader(doc[v.start:v.end]))
	if _, err := dec.Token(); err != nil {
		return err
	}
	for dec.More() {
		if err := each(dec, int(dec.InputOffset())); err != nil {
			return err
		}
	}
	return nil
}

// value reads the next value from dec, whose input starts at base in doc.
// A RawMessage holds the value exactly as written, so its end offset less
// its length is where it starts.
func value(dec *json.Decoder, doc []byte, base int) (span, error) {
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return span{}, err
	}
	end := base + int(dec.InputOffset())
	return span{end - len(raw), end}, nil
}

// stringAt decodes the string at v; ok is false when v is not a string.
func stringAt(doc []byte, v span) (string, bool) {
	var s string
	if doc[v.start] != '"' || json.Unmarshal(doc[v.start:v.end], &s) != nil {
		return "", false
	}
	return s, true
}

// checkSyntax rejects anything that is not one JSON value, naming the line
// of the first fault. Comments get their own message: clients' JSON
// parsers refuse them, however common they are in other editors' files.
func checkSyntax(doc []byte) error {
	var raw json.RawMessage
	err := json.Unmarshal(doc, &raw)
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return err
	}
	at := int(se.Offset) - 1 // the offset is just past the offending byte
	if at < 0 {
		at = 0
	}
	line, col := position(doc, at)
	if at < len(doc) && doc[at] == '/' {
		return fmt.Errorf("line %d, column %d: comments are not allowed in JSON; remove the comment", line, col)
	}
	return fmt.Errorf("line %d, column %d: %w", line, col, err)
}

func position(doc []byte, at int) (line, col int) {
	if at > len(doc) {
		at = len(doc)
	}
	line = 1 + bytes.Count(doc[:at], []byte("\n"))
	return line, at - (bytes.LastIndexByte(doc[:at], '\n') + 1) + 1
}

// edit replaces doc[start:end] with text; start == end inserts.
type edit struct {
	start, end int
	text       []byte
}

// apply makes non-overlapping edits to doc.
func apply(doc []byte, edits []edit) []byte {
	sort.Slice(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var out bytes.Buffer
	at := 0
	for _, e := range edits {
		out.Write(doc[at:e.start])
		out.Write(e.text)
		at = e.end
	}
	out.Write(doc[at:])
	return out.Bytes()
}

// quote encodes s as a JSON string as a client would write it: without
// Go's HTML escapes.
func quote(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // encoding a string cannot fail
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
