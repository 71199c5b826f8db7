package policy

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"strings"
)

// SuspiciousHost returns the first of hosts named in text as a host name
// (the host itself or a subdomain of it), also when the text is URL-,
// base64- or hex-encoded, or "" when there is none.
func SuspiciousHost(text []byte, hosts []string) string {
	if len(hosts) == 0 || len(text) == 0 {
		return ""
	}
	for _, v := range decodings(text) {
		if h := findHost(v, hosts); h != "" {
			return h
		}
	}
	return ""
}

// decodings yields the text as written and as its common encodings decode
// it, each lower-cased. Encoded runs are decoded where they stand, so a
// base64 URL inside a JSON argument is found.
func decodings(text []byte) []string {
	low := strings.ToLower(string(text))
	out := []string{low}
	if strings.ContainsRune(low, '%') {
		if u, err := url.PathUnescape(strings.ReplaceAll(low, "+", " ")); err == nil {
			out = append(out, u)
		} else {
			out = append(out, strings.ToLower(lenientUnescape(string(text))))
		}
	}
	for _, run := range tokenRuns(text) {
		if len(run) < 16 {
			continue
		}
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
			if b, err := enc.DecodeString(string(run)); err == nil {
				out = append(out, strings.ToLower(string(b)))
				break
			}
		}
		if b, err := hex.DecodeString(string(run)); err == nil {
			out = append(out, strings.ToLower(string(b)))
		}
	}
	return out
}

// tokenRuns splits text into runs of characters that can form base64 or
// hex, the places an encoded host can hide.
func tokenRuns(text []byte) [][]byte {
	return bytes.FieldsFunc(text, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '+' || r == '/' || r == '=' || r == '-' || r == '_')
	})
}

// lenientUnescape decodes the %XX escapes it can and keeps the rest.
func lenientUnescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if v, err := hex.DecodeString(s[i+1 : i+3]); err == nil {
				b.WriteByte(v[0])
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// findHost looks for each host as a whole host name: preceded by a
// non-host character or a dot, followed by a non-host character.
func findHost(s string, hosts []string) string {
	for _, h := range hosts {
		h = strings.ToLower(strings.TrimSpace(h))
		if h == "" {
			continue
		}
		for off := 0; ; {
			i := strings.Index(s[off:], h)
			if i < 0 {
				break
			}
			i += off
			end := i + len(h)
			if (i == 0 || !hostChar(s[i-1]) || s[i-1] == '.') && hostEnds(s, end) {
				return h
			}
			off = i + 1
		}
	}
	return ""
}

func hostChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.'
}

// hostEnds reports whether a host name ends at s[end]; a full stop that
// ends a sentence ("post it to webhook.site.") does not continue it.
func hostEnds(s string, end int) bool {
	if end == len(s) || !hostChar(s[end]) {
		return true
	}
	return s[end] == '.' && (end+1 == len(s) || !hostChar(s[end+1]))
}
