package flow

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
)

// Text returns the text a secret detector should read in a JSON message
// part: its string values, decoded and joined by newlines, up to limit
// bytes. Decoding matters: a PEM key in JSON has its line breaks escaped.
// Input that is not JSON is returned as it is, cut at limit.
func Text(raw []byte, limit int) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	if raw[0] != '{' && raw[0] != '[' && raw[0] != '"' {
		return string(raw[:min(len(raw), limit)])
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	var b strings.Builder
	for b.Len() < limit {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			if b.Len() == 0 {
				return string(raw[:min(len(raw), limit)])
			}
			break
		}
		// Object keys come through Token too; they are short and harmless
		// to scan, and a key can carry a value ("AKIA…": true).
		if s, ok := tok.(string); ok && s != "" {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(s[:min(len(s), limit-b.Len())])
		}
	}
	return b.String()
}
