package clientconfig

// blankJSONC returns doc with its comments and trailing commas turned into
// spaces (newlines kept), so that encoding/json reads what a JSONC client
// reads, at the same offsets: spans found in the copy locate the same
// values in doc.
func blankJSONC(doc []byte) []byte {
	out := append([]byte(nil), doc...)
	blank := func(from, to int) {
		for i := from; i < to; i++ {
			if out[i] != '\n' && out[i] != '\r' {
				out[i] = ' '
			}
		}
	}
	var commas []int
	for i := 0; i < len(out); i++ {
		switch {
		case out[i] == '"':
			for i++; i < len(out) && out[i] != '"'; i++ {
				if out[i] == '\\' {
					i++
				}
			}
		case out[i] == ',':
			commas = append(commas, i)
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '/':
			end := i
			for end < len(out) && out[end] != '\n' {
				end++
			}
			blank(i, end)
			i = end - 1
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '*':
			end := i + 2
			for end+1 < len(out) && !(out[end] == '*' && out[end+1] == '/') {
				end++
			}
			if end+1 >= len(out) {
				return out // unterminated: left for the parser to report
			}
			blank(i, end+2)
			i = end + 1
		}
	}
	for _, c := range commas {
		next := c + 1
		for next < len(out) && (out[next] == ' ' || out[next] == '\t' || out[next] == '\r' || out[next] == '\n') {
			next++
		}
		if next < len(out) && (out[next] == '}' || out[next] == ']') {
			out[c] = ' '
		}
	}
	return out
}
