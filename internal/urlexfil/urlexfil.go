// Package urlexfil recognises data smuggled out in what a URL carries
// after its host, where no secret rule looks: the counterpart of hostexfil
// for the path and the escapes. Two signals, neither about a vendor:
//
//   - escapes in layers: a value percent-escaped three times or more
//     (%252541). A client escapes a value once; a redirect target inside a
//     query is escaped twice; nothing but a matcher-dodging encoder nests
//     a third layer.
//   - a random path segment: a long run of mixed-case letters and digits
//     switching all along, in no form people name paths with (words,
//     slugs, dates, hex hashes, UUIDs, version numbers).
//
// Both are guesses about intent (an id minted by a service looks like the
// second), so the caller asks rather than refuses.
package urlexfil

import (
	"bytes"
	"strings"

	"github.com/flowd-dev/flowd/internal/entropy"
	"github.com/flowd-dev/flowd/internal/unwrap"
)

// Finding is a URL that carries data, and what gave it away.
type Finding struct {
	URL string
	Why string
	// Escaped: the data is in escapes nested past any client's; otherwise
	// it is a random path segment, which a minted id can be too.
	Escaped bool
}

const (
	// maxURLs bounds the URLs read in one text; maxURL the length of one.
	maxURLs = 64
	maxURL  = 8 << 10
	// escapeLayers is the nesting of percent-escapes that is data hidden.
	escapeLayers = 3
	// randomSegment is the shortest path segment judged random: ids of
	// everyday services (YouTube's 11, Figma's 22) are shorter.
	randomSegment = 24
)

// Find returns the first URL in text that smuggles data in its escapes or
// path.
func Find(text []byte) (Finding, bool) {
	// Read in place: only the URLs are copied, not the text (a call of
	// megabytes), so the check stays within its memory bound.
	for n, i := 0, 0; n < maxURLs; n++ {
		k := indexScheme(text[i:])
		if k < 0 {
			return Finding{}, false
		}
		start := i + k
		end := start
		for end < len(text) && end-start < maxURL && urlByte(text[end]) {
			end++
		}
		u := string(text[start:end])
		if why, escaped := judge(u); why != "" {
			return Finding{URL: u, Why: why, Escaped: escaped}, true
		}
		i = max(end, start+1)
	}
	return Finding{}, false
}

// indexScheme finds the next http:// or https:// in s, in any case.
func indexScheme(s []byte) int {
	for i := 0; i+7 <= len(s); i++ {
		if s[i] != 'h' && s[i] != 'H' {
			continue
		}
		rest := s[i:]
		if len(rest) >= 7 && bytes.EqualFold(rest[:7], []byte("http://")) || len(rest) >= 8 && bytes.EqualFold(rest[:8], []byte("https://")) {
			return i
		}
	}
	return -1
}

// urlByte: what a URL written in text, JSON or a command line is made of.
func urlByte(c byte) bool {
	return c > ' ' && c < 0x7f && !strings.ContainsRune("\"'<>`\\{}|^", rune(c))
}

func judge(u string) (why string, escaped bool) {
	if n := layers(u); n >= escapeLayers {
		return "a value percent-escaped " + count(n) + " over, as no client writes one", true
	}
	rest := u[strings.Index(u, "//")+2:]
	slash := strings.IndexByte(rest, '/')
	if slash < 0 {
		return "", false
	}
	path := rest[slash:]
	if q := strings.IndexAny(path, "?#"); q >= 0 {
		path = path[:q]
	}
	for _, seg := range strings.Split(path, "/") {
		if random(seg) {
			return "a random path segment (" + seg + "), as encoded data is, not as paths are named", false
		}
	}
	return "", false
}

func count(n int) string {
	switch n {
	case 3:
		return "three times"
	case 4:
		return "four times"
	}
	return "many times"
}

// layers returns how many times u can be percent-decoded before no escape
// is left, up to 8.
func layers(u string) int {
	n := 0
	for ; n < 8; n++ {
		d, ok := unescape(u)
		if !ok {
			break
		}
		u = d
	}
	return n
}

// unescape decodes the %XX escapes of s once, and reports whether there
// were any.
func unescape(s string) (string, bool) {
	if strings.IndexByte(s, '%') < 0 {
		return s, false
	}
	d := unwrap.PercentDecode([]byte(s), false)
	return string(d), len(d) != len(s) // each escape decoded is two bytes fewer
}

// random judges one path segment: long, of base64url characters, all
// three of upper, lower and digits, switching between letters and digits
// all along, and of high entropy. Hex (hashes, commit ids, UUIDs), base32
// and slugs (one case) fail the case test; names with a number in them
// switch a few times.
func random(seg string) bool {
	if len(seg) < randomSegment {
		return false
	}
	var upper, lower, digit, switches int
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		switch {
		case c >= 'A' && c <= 'Z':
			upper++
		case c >= 'a' && c <= 'z':
			lower++
		case c >= '0' && c <= '9':
			digit++
		case c == '-' || c == '_':
		default:
			return false
		}
		if i > 0 && isDigit(c) != isDigit(seg[i-1]) {
			switches++
		}
	}
	if upper == 0 || lower == 0 || digit == 0 {
		return false
	}
	// A random base62 string of n characters switches between letters and
	// digits about n/3 times; names with a number in them, a few.
	return switches*5 >= len(seg) && entropy.Bits(seg) >= 4.0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
