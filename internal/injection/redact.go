package injection

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Redact returns result with the spans of r's detections marked Redact
// replaced by "[flowd redacted: <rule>]". Only the strings that change are
// re-encoded; every other byte of result is kept. r must come from
// ScanResult on the same bytes.
func Redact(result []byte, r Result) ([]byte, error) {
	edits := map[string][]edit{}
	for _, d := range r.Detections {
		if d.Redact {
			edits[d.Field] = append(edits[d.Field], edit{d.Start, d.End, d.Rule, d.Severity})
		}
	}
	if len(edits) == 0 {
		return result, nil
	}
	if raw, ok := edits[RawField]; ok && len(edits) == 1 {
		return []byte(applyEdits(string(result), raw)), nil
	}
	return redactJSON(result, edits)
}

// RedactText is Redact for a Result of ScanText on text.
func RedactText(text string, r Result) (string, error) {
	direct := map[string][]edit{}
	nested := map[string]map[string][]edit{}
	for _, d := range r.Detections {
		if !d.Redact {
			continue
		}
		e := edit{d.Start, d.End, d.Rule, d.Severity}
		if outer, inner, ok := splitPath(d.Field); ok {
			if nested[outer] == nil {
				nested[outer] = map[string][]edit{}
			}
			nested[outer][inner] = append(nested[outer][inner], e)
			continue
		}
		direct[d.Field] = append(direct[d.Field], e)
	}
	if len(direct)+len(nested) > 1 {
		return "", fmt.Errorf("redact text: detections come from %d fields; RedactText takes the result of one ScanText", len(direct)+len(nested))
	}
	for _, es := range direct {
		return applyEdits(text, es), nil
	}
	for _, inner := range nested {
		out, err := redactJSON([]byte(text), inner)
		return string(out), err
	}
	return text, nil
}

type edit struct {
	start, end int
	rule       string
	sev        float64
}

// splitPath splits "a.b/c[0].d" at its first nesting slash (one outside a
// quoted key).
func splitPath(p string) (outer, inner string, ok bool) {
	quoted := false
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case c == '/' && !quoted:
			return p[:i], p[i+1:], true
		}
	}
	return p, "", false
}

// redactJSON applies edits, keyed by path, to the strings of a JSON
// document and splices the re-encoded strings into the original bytes.
func redactJSON(data []byte, edits map[string][]edit) ([]byte, error) {
	direct := map[string][]edit{}
	nested := map[string]map[string][]edit{}
	for path, es := range edits {
		if outer, inner, ok := splitPath(path); ok {
			if nested[outer] == nil {
				nested[outer] = map[string][]edit{}
			}
			for _, e := range es {
				nested[outer][inner] = append(nested[outer][inner], e)
			}
			continue
		}
		direct[path] = append(direct[path], es...)
	}
	type splice struct {
		at   span
		with []byte
	}
	var splices []splice
	found := map[string]bool{}
	var failed error
	err := walkJSON(data, func(p *jsonPath, quoted span, v string) bool {
		path := p.String()
		es, isDirect := direct[path]
		inner, isNested := nested[path]
		if !isDirect && !isNested {
			return true
		}
		found[path] = true
		nv := v
		if isNested {
			out, err := redactJSON([]byte(v), inner)
			if err != nil {
				failed = fmt.Errorf("redact %s: %w", path, err)
				return false
			}
			nv = string(out)
		}
		if isDirect {
			nv = applyEdits(nv, es)
		}
		splices = append(splices, splice{quoted, encodeString(nv)})
		return true
	})
	if err != nil {
		return nil, fmt.Errorf("redact: %w", err)
	}
	if failed != nil {
		return nil, failed
	}
	for path := range direct {
		if !found[path] {
			return nil, fmt.Errorf("redact: no string at %s", path)
		}
	}
	for path := range nested {
		if !found[path] {
			return nil, fmt.Errorf("redact: no string at %s", path)
		}
	}
	var out bytes.Buffer
	last := 0
	for _, s := range splices {
		out.Write(data[last:s.at.start])
		out.Write(s.with)
		last = s.at.end
	}
	out.Write(data[last:])
	return out.Bytes(), nil
}

// applyEdits replaces the edited spans of s, merging those that overlap;
// a merged span is named after its most severe rule.
func applyEdits(s string, es []edit) string {
	sort.Slice(es, func(i, j int) bool { return es[i].start < es[j].start })
	var merged []edit
	for _, e := range es {
		e.start, e.end = max(0, min(e.start, len(s))), max(0, min(e.end, len(s)))
		if e.end <= e.start {
			continue
		}
		if n := len(merged); n > 0 && e.start <= merged[n-1].end {
			m := &merged[n-1]
			m.end = max(m.end, e.end)
			if e.sev > m.sev {
				m.rule, m.sev = e.rule, e.sev
			}
			continue
		}
		merged = append(merged, e)
	}
	var b strings.Builder
	last := 0
	for _, e := range merged {
		b.WriteString(s[last:e.start])
		b.WriteString("[flowd redacted: " + e.rule + "]")
		last = e.end
	}
	b.WriteString(s[last:])
	return b.String()
}

func encodeString(s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}
