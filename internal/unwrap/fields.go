package unwrap

import (
	"bytes"
	"encoding/json"
	"strings"
)

// A value split across the fields of a message ("key": "AKIA…", "suffix":
// "…") is whole again once the receiver puts the fields together, which
// it can do in any order. joinFields undoes the split for the short
// string values of each JSON object or array: every ordered pair of them
// in a small object, neighbouring pairs in a larger one, and neighbouring
// triples in document order. Each joined value is written after the first piece's
// name, so a detector that reads a name before a value still sees one.

// Bounds: fields are read from messages of at most maxFieldsText bytes;
// a piece is a value of at most maxPiece bytes without blanks (a split
// secret's pieces are short tokens); every pair is tried in an object of
// at most allPairs pieces.
const (
	maxFieldsText = 64 << 10
	maxPiece      = 64
	allPairs      = 8
	// maxAllPieces bounds the join of all of a message's pieces.
	maxAllPieces = 32
)

// piece is a short string value and the name it stands under.
type piece struct{ key, val string }

// joinFields returns the joined pieces of a JSON text, one per line; ok is
// false when the text is no JSON or has nothing to join. It reads the
// text in one pass, without building it: most calls have nothing to join.
func joinFields(text []byte) ([]byte, bool) {
	t := bytes.TrimSpace(text)
	if len(t) < 2 || len(t) > maxFieldsText || t[0] != '{' && t[0] != '[' {
		return nil, false
	}
	// One frame per open object or array: where its pieces start in
	// pieces (an inner frame's are dropped when it closes, so each
	// frame's lie together at the end), whether it is an object, the
	// name its strings stand under, and whether the next string of an
	// object is a name. On the stack while a message is shallow and
	// short: a shim reads every granted call here.
	type frame struct {
		start  int
		object bool
		key    string
		keyNow bool
	}
	var stackBuf [8]frame
	var piecesBuf [32]piece
	stack, pieces := stackBuf[:0], piecesBuf[:0]
	var out []byte
	// all are the message's pieces in document order, wherever they
	// stand: a value cut into more pieces than a triple, one a field.
	var allBuf [maxAllPieces]string
	all := allBuf[:0]
	allKey := ""
	for i := 0; i < len(t); {
		c := t[i]
		switch {
		case c == '{' || c == '[':
			f := frame{start: len(pieces), object: c == '{', keyNow: c == '{'}
			if n := len(stack); n > 0 {
				f.key = stack[n-1].key // an array's members stand under its name
			}
			stack = append(stack, f)
			i++
		case c == '}' || c == ']':
			n := len(stack)
			if n == 0 || stack[n-1].object != (c == '}') {
				return nil, false
			}
			out = appendJoins(out, pieces[stack[n-1].start:])
			pieces = pieces[:stack[n-1].start]
			stack = stack[:n-1]
			i++
		case c == ',':
			if n := len(stack); n > 0 && stack[n-1].object {
				stack[n-1].keyNow = true
			}
			i++
		case c == '"':
			end, s, ok := jsonString(t, i)
			if !ok || len(stack) == 0 {
				return nil, false
			}
			top := &stack[len(stack)-1]
			switch {
			case top.object && top.keyNow:
				top.key, top.keyNow = s, false
			case len(s) > 0 && len(s) <= maxPiece && !strings.ContainsAny(s, " \t\r\n"):
				pieces = append(pieces, piece{top.key, s})
				if len(all) == 0 {
					allKey = top.key
				}
				if len(all) < maxAllPieces {
					all = append(all, s)
				}
			}
			i = end
		default:
			i++ // blanks, colons, numbers, literals
		}
	}
	if len(all) > 3 {
		out = append(append(out, allKey...), " = "...)
		for _, p := range all {
			out = append(out, p...)
		}
		out = append(out, '\n')
	}
	return out, len(stack) == 0 && len(out) > 0
}

// jsonString reads the JSON string starting at t[i] (a quote): where it
// ends and its value, decoded when it holds escapes. A value without
// escapes is t's own bytes, not a copy: joinFields keeps none past its
// return, and most of a message's strings (a long text, a name) join
// nothing, while a shim reads every granted call here.
func jsonString(t []byte, i int) (end int, _ string, ok bool) {
	escaped := false
	for j := i + 1; j < len(t); j++ {
		switch t[j] {
		case '\\':
			escaped = true
			j++
		case '"':
			if !escaped {
				return j + 1, unsafeString(t[i+1 : j]), true
			}
			// Its own variable: the result, handed to Unmarshal, was
			// moved to the heap for every string read.
			var s string
			if json.Unmarshal(t[i:j+1], &s) != nil {
				return 0, "", false
			}
			return j + 1, s, true
		}
	}
	return 0, "", false
}

// appendJoins writes the joins of one object's pieces.
func appendJoins(out []byte, ps []piece) []byte {
	line := func(ks ...int) {
		out = append(out, ps[ks[0]].key...)
		out = append(out, " = "...)
		for _, k := range ks {
			out = append(out, ps[k].val...)
		}
		out = append(out, '\n')
	}
	for i := 0; i+1 < len(ps); i++ {
		if len(ps) > allPairs {
			line(i, i+1)
		}
		if i+2 < len(ps) {
			line(i, i+1, i+2)
		}
	}
	if len(ps) <= allPairs {
		for i := range ps {
			for j := range ps {
				if i != j {
					line(i, j)
				}
			}
		}
	}
	return out
}
