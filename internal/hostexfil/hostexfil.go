// Package hostexfil recognises data smuggled out in a host name: a lookup
// of <encoded data>.attacker.example delivers the data to whoever runs the
// name server, before any connection is made, so a URL or a host argument
// can leak what its path and body never show. It judges the labels left
// of the registrable domain: what people name hosts (words, short ids,
// regions, content hashes of a CDN) against what encoders produce (long
// runs of hex, base32 or mixed-case base64, labels that decode to text,
// many chunks of data).
package hostexfil

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"strings"

	"github.com/flowd-dev/flowd/internal/entropy"
)

// Finding is a host name that carries data, and what gave it away.
type Finding struct {
	Host string
	Why  string
}

// Find returns the first host name in text whose labels carry encoded
// data. It reads host names wherever they stand: in URLs, e-mail
// addresses, command lines and host or domain arguments.
func Find(text []byte) (Finding, bool) {
	for i := 0; i < len(text); {
		if !hostByte(text[i]) || text[i] == '.' || text[i] == '-' {
			i++
			continue
		}
		j, dots := i, 0
		for j < len(text) && hostByte(text[j]) {
			if text[j] == '.' {
				dots++
			}
			j++
		}
		// A name with fewer than two dots has no labels left of its
		// domain; most words have none, and cost no allocation.
		if dots >= 2 {
			if why := judge(strings.TrimRight(string(text[i:j]), ".-")); why != "" {
				return Finding{Host: string(text[i:j]), Why: why}, true
			}
		}
		i = j
	}
	return Finding{}, false
}

func hostByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_'
}

// Thresholds, from how hosts are named: CDN and cloud ids run to 14–16
// characters in one label; a few labels of words and regions rarely add up
// to 32 characters before the registrable domain.
const (
	longLabel     = 18 // a random-looking label this long is data
	decodedLabel  = 10 // a label this long that decodes to text is data
	manyLabels    = 4
	manyLabelsLen = 32
	chunkLabels   = 3 // labels of one length, at least chunkLen, are chunks
	chunkLen      = 8
)

// judge says why name carries data, or "".
func judge(name string) string {
	labels := strings.Split(name, ".")
	if len(labels) < 3 {
		return ""
	}
	tld := labels[len(labels)-1]
	if len(tld) < 2 || len(tld) > 24 || !lowerAlpha(tld) {
		return "" // not a host name: a file name, a package path, a version
	}
	sub := labels[:len(labels)-2]
	if len(labels[len(labels)-2]) <= 3 && len(labels) > 3 {
		sub = labels[:len(labels)-3] // co.uk, com.au
	}
	total, sameLen := 0, map[int]int{}
	for _, l := range sub {
		if l == "" || strings.HasPrefix(l, "xn--") || strings.HasPrefix(l, "_") {
			continue
		}
		total += len(l)
		if len(l) >= chunkLen {
			sameLen[len(l)]++
			if sameLen[len(l)] >= chunkLabels {
				return "labels of one length, as data cut into chunks"
			}
		}
		if why := judgeLabel(l); why != "" {
			return why
		}
	}
	if len(sub) >= manyLabels && total >= manyLabelsLen {
		return "many labels carrying data"
	}
	return ""
}

// judgeLabel says why one label is data, or "".
func judgeLabel(l string) string {
	if len(l) >= decodedLabel && decodesToText(l) {
		return "a label that decodes to text"
	}
	if len(l) >= 16 && base32Shaped(l) {
		return "a long base32 label"
	}
	if len(l) < longLabel || strings.Contains(l, "-") {
		return ""
	}
	switch {
	case isHex(l):
		return "a long hex label"
	case mixedCase(l):
		return "a long mixed-case (base64) label"
	case entropy.Bits(l) >= 3.5:
		return "a long random label"
	}
	return ""
}

// decodesToText: l read as hex, base32 or base64 gives printable text.
func decodesToText(l string) bool {
	if isHex(l) && len(l)%2 == 0 {
		b, err := hex.DecodeString(l)
		return err == nil && printable(b)
	}
	if hasDigit(l) && !strings.ContainsAny(l, "-_") && (upperOrDigit(l) || lowerOrDigit(l)) {
		if b, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(strings.ToUpper(l)); err == nil && printable(b) {
			return true
		}
	}
	if mixedCase(l) && !strings.Contains(l, "-") {
		for _, enc := range []*base64.Encoding{base64.RawURLEncoding, base64.RawStdEncoding} {
			if b, err := enc.DecodeString(l); err == nil && printable(b) {
				return true
			}
		}
	}
	return false
}

// printable: at least four bytes, all printable ASCII.
func printable(b []byte) bool {
	if len(b) < 4 {
		return false
	}
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return false
		}
	}
	return true
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func lowerAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

func mixedCase(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r >= 'a' && r <= 'z' }) &&
		strings.ContainsFunc(s, func(r rune) bool { return r >= 'A' && r <= 'Z' })
}

// base32Shaped: letters of one case and at least two digits, all of them
// 2–7, the base32 alphabet's. Ids and hashes use all ten digits.
func base32Shaped(s string) bool {
	if !upperOrDigit(s) && !lowerOrDigit(s) {
		return false
	}
	digits := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '2' && c <= '7':
			digits++
		case c >= '0' && c <= '9':
			return false
		}
	}
	return digits >= 2 && digits < len(s)
}

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

func upperOrDigit(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') })
}

func lowerOrDigit(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') })
}
