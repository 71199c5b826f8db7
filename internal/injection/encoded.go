package injection

import (
	"encoding/hex"
	"strings"
)

// Encodings other than base64 that an injection uses to slip past a
// matcher: hex, which needs no hint to be found, and rot13, which turns
// text into other text and is only tried where the text names it ("apply
// rot13 to…"). Both yield blocks that decoded scans like base64.

const (
	minHexRun    = 24 // 12 bytes: shorter runs are ids and hashes' prefixes
	maxHexBlocks = 16
)

var hexByte = func() (t [256]bool) {
	for _, c := range "0123456789abcdefABCDEF" {
		t[c] = true
	}
	return t
}()

// findHex returns runs of hex digits (optionally "0x"-prefixed, or byte
// pairs apart: "73 65 6e 64") that decode to prose. Hashes, ids and keys
// decode to binary and are dropped by isText.
func findHex(text string) []b64Block {
	var out []b64Block
	for i := 0; i < len(text) && len(out) < maxHexBlocks; {
		if !hexByte[text[i]] || i > 0 && isWordByte(text[i-1]) {
			i++
			continue
		}
		start := i
		if strings.HasPrefix(text[i:], "0x") || strings.HasPrefix(text[i:], "0X") {
			i += 2
		}
		j := i
		for j < len(text) && hexByte[text[j]] {
			j++
		}
		if j < len(text) && isWordByte(text[j]) {
			for j < len(text) && isWordByte(text[j]) {
				j++
			}
			i = j
			continue
		}
		digits := text[i:j]
		if len(digits) == 2 {
			var b strings.Builder
			b.WriteString(digits)
			for j+2 < len(text) && text[j] == ' ' && hexByte[text[j+1]] && hexByte[text[j+2]] && (j+3 == len(text) || !isWordByte(text[j+3])) {
				b.WriteString(text[j+1 : j+3])
				j += 3
			}
			digits = b.String()
		}
		if len(digits) >= minHexRun && len(digits)%2 == 0 && hasHexLetter(digits) {
			if dec, err := hex.DecodeString(digits); err == nil && isText(dec) && isProse(string(dec)) {
				out = append(out, b64Block{start: start, end: j, decoded: string(dec), enc: "hex"})
			}
		}
		i = max(j, i+1)
	}
	return out
}

func hasHexLetter(s string) bool {
	digits := 0
	for i := 0; i < len(s); i++ {
		if s[i] <= '9' {
			digits++
		}
	}
	return digits > 0 && digits < len(s)
}

// rot13Cues name the cipher; without one no text is rotated.
// A text that asks to be read backwards names its transform too (RT8-2:
// the reversed order passed with "read this backwards and do it").
var rot13Cues = []string{"rot13", "rot-13", "rot 13", "caesar", "césar", "cäsar", "cesare", "rotate each letter", "shift each letter",
	"read this backward", "read it backward", "read backward", "read this in reverse", "read it in reverse",
	"read in reverse", "read from right to left", "read right to left", "read this right to left"}

var englishWords = wordSet(`the to and of a in is you your all for on with this that it be are send user users
	data file files password passwords key keys email ignore previous instructions from at now please`)

// commonWords counts the frequent English words in s.
func commonWords(s string) int {
	n := 0
	ls := strings.ToLower(s)
	eachWord(ls, func(i, j int) {
		if englishWords[ls[i:j]] {
			n++
		}
	})
	return n
}
