package injection

// Spans returns the text of each detection of r in result: what Redact
// would remove, as the field's decoded string holds it (for an
// instruction, its sentence), so that a caller can remember what an
// attack said without the rest of the page around it. r must come from
// ScanResult on the same bytes. A detection whose field is gone or whose
// span lies outside it is skipped.
func Spans(result []byte, r Result) []string {
	want := map[string][]Detection{}
	for _, d := range r.Detections {
		if d.End > d.Start {
			want[d.Field] = append(want[d.Field], d)
		}
	}
	if len(want) == 0 {
		return nil
	}
	if ds, ok := want[RawField]; ok && len(want) == 1 {
		return cut(string(result), ds)
	}
	return jsonSpans(result, want)
}

// jsonSpans is Spans for detections keyed by path in a JSON document; a
// path with a nesting slash continues inside the string's own JSON.
func jsonSpans(data []byte, want map[string][]Detection) []string {
	direct := map[string][]Detection{}
	nested := map[string]map[string][]Detection{}
	for path, ds := range want {
		if outer, inner, ok := splitPath(path); ok {
			if nested[outer] == nil {
				nested[outer] = map[string][]Detection{}
			}
			nested[outer][inner] = append(nested[outer][inner], ds...)
			continue
		}
		direct[path] = ds
	}
	var out []string
	// A document that breaks off keeps the spans found before the break.
	_ = walkJSON(data, func(p *jsonPath, _ span, v string) bool {
		path := p.String()
		if ds, ok := direct[path]; ok {
			out = append(out, cut(v, ds)...)
		}
		if inner, ok := nested[path]; ok {
			out = append(out, jsonSpans([]byte(v), inner)...)
		}
		return true
	})
	return out
}

func cut(s string, ds []Detection) []string {
	var out []string
	for _, d := range ds {
		if d.Start >= 0 && d.End <= len(s) && d.Start < d.End {
			out = append(out, s[d.Start:d.End])
		}
	}
	return out
}
