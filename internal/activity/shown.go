package activity

import (
	"encoding/json"

	"github.com/flowd-dev/flowd/internal/untrusted"
)

// Shown is r as flowd shows it to a viewer (the API and its event
// stream, the dashboard, the CSV export, the CLI, flowd mcp): every
// string that someone else may have written — session, server, tool,
// method, reason and each string in its details — neutralised
// (untrusted.Text), and the excerpts of injection findings, which quote
// the attacker, fenced as data (untrusted.Quote). Shown(Shown(r)) is
// Shown(r).
//
// The store keeps what happened, and the JSON-lines export gives it
// unchanged: its lines are what the audit chain hashes. JSON escapes
// every control character and <, > and & there.
func (r Record) Shown() Record {
	r.Session = untrusted.Text(r.Session)
	r.Server = untrusted.Text(r.Server)
	r.Tool = untrusted.Text(r.Tool)
	r.Method = untrusted.Text(r.Method)
	r.Reason = untrusted.Text(r.Reason)
	r.Details = shownJSON(r.Details)
	return r
}

// quotedKey holds attacker text quoted as evidence (injection.Detection's
// excerpt), fenced rather than only neutralised.
const quotedKey = "excerpt"

// shownJSON is raw with its strings, keys included, neutralised and the
// values of quotedKey fenced, its layout and member order unchanged.
func shownJSON(raw json.RawMessage) json.RawMessage {
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
		want := untrusted.Text(s)
		if key == quotedKey {
			want = untrusted.Quote(s)
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

// mayAct reports whether raw may hold a string Shown changes: one with
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
