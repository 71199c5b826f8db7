package injection

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"
)

// b64Block is a run of base64 in a (normalised) text that decodes to text.
type b64Block struct {
	start, end int // in the text it was found in
	decoded    string
	// wrapped: the block spans several lines of equal width, the way MIME
	// and PEM wrap base64. Such blocks are ordinary encoded mail bodies,
	// not something slipped into prose.
	wrapped bool
	// enc names the encoding ("base64", "hex", "rot13").
	enc string
}

const (
	minBase64Run = 24
	// A long block is first tried on a prefix: most long base64 is an image
	// or an archive, and that shows in the first few kilobytes.
	base64Probe     = 4096
	maxBase64Blocks = 32
)

var base64Byte = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = isAlnum(byte(c)) || c == '+' || c == '/' || c == '-' || c == '_'
	}
	return t
}()

// findBase64 returns the base64 blocks in text that decode to readable
// text.
func findBase64(text string) []b64Block {
	var out []b64Block
	for i := 0; i < len(text) && len(out) < maxBase64Blocks; {
		if !base64Byte[text[i]] {
			i++
			continue
		}
		j := i
		for j < len(text) && base64Byte[text[j]] {
			j++
		}
		runEnd := j
		for j < len(text) && j-runEnd < 2 && text[j] == '=' {
			j++
		}
		if runEnd-i < minBase64Run || !looksEncoded(text[i:runEnd]) {
			i = j
			continue
		}
		start, end, wrapped := i, j, false
		body := text[i:runEnd]
		// Join the lines of a wrapped block: each as wide as the first, the
		// last no wider.
		var joined strings.Builder
		width := runEnd - i
		for width >= 40 && end < len(text) && text[end] == '\n' {
			k := end + 1
			for k < len(text) && base64Byte[text[k]] {
				k++
			}
			lineLen := k - end - 1
			for k < len(text) && k-(end+1+lineLen) < 2 && text[k] == '=' {
				k++
			}
			if lineLen == 0 || lineLen > width || k < len(text) && text[k] != '\n' {
				break
			}
			if !wrapped {
				joined.WriteString(body)
				wrapped = true
			}
			joined.WriteString(text[end+1 : end+1+lineLen])
			end = k
			if lineLen < width {
				break
			}
		}
		if wrapped {
			body = joined.String()
		}
		if dec, ok := decodeBase64Text(body); ok {
			out = append(out, b64Block{start: start, end: end, decoded: dec, wrapped: wrapped, enc: "base64"})
		}
		i = end
	}
	return out
}

// looksEncoded rejects long words and identifiers: base64 of anything
// mixes upper and lower case throughout.
func looksEncoded(s string) bool {
	upper, lower := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'A' && c <= 'Z':
			upper++
		case c >= 'a' && c <= 'z':
			lower++
		}
	}
	return upper*8 >= len(s) && lower*8 >= len(s)
}

func decodeBase64Text(s string) (string, bool) {
	enc := base64.RawStdEncoding
	if strings.ContainsAny(s, "-_") {
		if strings.ContainsAny(s, "+/") {
			return "", false
		}
		enc = base64.RawURLEncoding
	}
	if len(s)%4 == 1 {
		s = s[:len(s)-1]
	}
	if len(s) > 2*base64Probe {
		probe, err := enc.DecodeString(s[:base64Probe])
		if err != nil || !isText(probe) {
			return "", false
		}
	}
	dec, err := enc.DecodeString(s)
	if err != nil || !isText(dec) {
		return "", false
	}
	return string(dec), true
}

// isText accepts decoded bytes that are readable text with some letters.
// A probe may end inside a UTF-8 sequence; a short invalid tail is allowed.
func isText(b []byte) bool {
	for k := 0; k < 3 && len(b) > 0 && !utf8.Valid(b); k++ {
		b = b[:len(b)-1]
	}
	if len(b) < 4 || !utf8.Valid(b) {
		return false
	}
	letters := 0
	for _, c := range b {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80 {
			letters++
		}
	}
	return letters*3 >= len(b) && mostlyPrintable(string(b))
}

// isProse reports whether decoded text reads as words in sentences rather
// than a token, a JSON document or key material.
func isProse(s string) bool {
	words := len(strings.Fields(s))
	if words < 3 {
		return false
	}
	t := strings.TrimSpace(s)
	return !strings.HasPrefix(t, "{") && !strings.HasPrefix(t, "[")
}
