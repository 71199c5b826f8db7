package untrusted

import "encoding/json"

// quotedKey holds attacker text quoted as evidence (injection.Detection's
// excerpt), fenced rather than only neutralised.
const quotedKey = "excerpt"

// JSON is raw, a JSON document (a record's details, a tool's
// definition), with every string, keys included, neutralised (Text) and
// each excerpt of an injection finding fenced (Quote), its layout and
// member order unchanged. A document with nothing to change is returned
// as it is, without a copy.
func JSON(raw json.RawMessage) json.RawMessage {
	if !mayAct(raw) {
		return raw
	}
	var out []byte
	last := 0     // raw[:last] is in out
	valueOf := "" // the key whose value starts at valueAt
	valueAt := -1
	for i := 0; i < len(raw); {
		if raw[i] != '"' {
			i++
			continue
		}
		end := stringEnd(raw, i)
		next := end
		for next < len(raw) && isSpace(raw[next]) {
			next++
		}
		isKey := next < len(raw) && raw[next] == ':'
		key := ""
		if !isKey && i == valueAt {
			key = valueOf
		}
		lit := raw[i:end]
		if plain(lit) && key != quotedKey {
			if isKey {
				valueOf, valueAt = string(lit[1:len(lit)-1]), afterColon(raw, next)
			}
			i = end
			continue
		}
		var s string
		if json.Unmarshal(lit, &s) != nil {
			i = end // not a string flowd wrote; left as it is
			continue
		}
		want := Text(s)
		if key == quotedKey {
			want = Quote(s)
		}
		if isKey {
			valueOf, valueAt = s, afterColon(raw, next)
		}
		if want != s {
			enc, _ := json.Marshal(want) // a valid string encodes
			out = append(append(out, raw[last:i]...), enc...)
			last = end
		}
		i = end
	}
	if out == nil {
		return raw
	}
	return append(out, raw[last:]...)
}

// mayAct reports whether raw may hold a string JSON changes: one with
// an escape, a non-ASCII character or DEL, or a quoted excerpt. Most
// details are plain ASCII and pass untouched, at the cost of this scan.
func mayAct(raw []byte) bool {
	for i, c := range raw {
		if c == '\\' || c >= 0x7f || c == '"' && hasPrefixAt(raw, i+1, quotedKey+`"`) {
			return true
		}
	}
	return false
}

// plain reports whether a JSON string literal is printable ASCII with no
// escape: Text leaves it as it is.
func plain(lit []byte) bool {
	for _, c := range lit {
		if c == '\\' || c >= 0x7f {
			return false
		}
	}
	return true
}

// stringEnd is the index just past the string literal that starts at
// raw[i] (a quote), or len(raw) if it does not end.
func stringEnd(raw []byte, i int) int {
	for j := i + 1; j < len(raw); j++ {
		switch raw[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(raw)
}

// afterColon is where the value after the colon at raw[colon] starts.
func afterColon(raw []byte, colon int) int {
	j := colon + 1
	for j < len(raw) && isSpace(raw[j]) {
		j++
	}
	return j
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func hasPrefixAt(raw []byte, i int, p string) bool {
	return i+len(p) <= len(raw) && string(raw[i:i+len(p)]) == p
}
