package policy

import (
	"bytes"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// SuspiciousHost returns the first of hosts named in text as a host name
// (the host itself or a subdomain of it), also in views, the text's
// decoded forms (unwrap.Views), or "" when there is none.
func SuspiciousHost(text []byte, views [][]byte, hosts []string) string {
	return NewHosts(hosts).In(text, views)
}

// Hosts are suspicious host names made ready to search for: lower case,
// trimmed, the empty ones left out. A shim makes them once for its grant
// rather than for every call it checks.
type Hosts struct {
	want    [][]byte
	longest int
}

// NewHosts prepares hosts for In.
func NewHosts(hosts []string) Hosts {
	var h Hosts
	for _, s := range hosts {
		if s = strings.ToLower(strings.TrimSpace(s)); s != "" {
			h.want = append(h.want, []byte(s))
			h.longest = max(h.longest, len(s))
		}
	}
	return h
}

// Empty: there is no host to look for.
func (h Hosts) Empty() bool { return len(h.want) == 0 }

// In is SuspiciousHost for hosts prepared.
func (h Hosts) In(text []byte, views [][]byte) string {
	if len(h.want) == 0 || len(text) == 0 && len(views) == 0 {
		return ""
	}
	buf := lowerBufs.Get().(*[]byte)
	defer lowerBufs.Put(buf)
	// Where every host has a dot, a text without one (lower-casing makes
	// none) names none of them, and is not lower-cased and searched for
	// each: decoded views of tokens seldom have one.
	dotted := !slices.ContainsFunc(h.want, func(w []byte) bool { return bytes.IndexByte(w, '.') < 0 })
	for i := -1; i < len(views); i++ {
		t := text
		if i >= 0 {
			t = views[i]
		}
		if dotted && bytes.IndexByte(t, '.') < 0 {
			continue
		}
		if found := findHostIn(t, h.want, h.longest, buf); found != "" {
			return found
		}
	}
	return ""
}

// lowerBufs hold the lower-cased chunks findHostIn searches, at most a
// hostChunk and its overlap each: a shim checks every granted call, and
// on its one scheduler slot each collection its garbage brings on delays
// a call.
var lowerBufs = sync.Pool{New: func() any { return new([]byte) }}

// hostChunk is how much text is lower-cased at a time: the memory a
// search takes, whatever the size of the text.
const hostChunk = 64 << 10

// findHostIn looks for hosts in t a chunk at a time. Chunks overlap by
// more than a host and its context can span (a rune is at most four bytes
// and lower-cases to at least one), and a match is taken only away from a
// chunk's cut edges, so each name is judged once with the characters
// around it, as in the whole text.
func findHostIn(t []byte, hosts [][]byte, longest int, buf *[]byte) string {
	lead := 4*longest + 16
	for start := 0; start < len(t); start += hostChunk {
		lo := runeStart(t, max(0, start-lead))
		hi := runeStart(t, min(len(t), start+hostChunk+lead))
		chunk := t[lo:hi]
		if !lowerAlready(chunk) {
			*buf = AppendLower((*buf)[:0], chunk)
			chunk = *buf
		}
		if h := findHost(chunk, hosts, lo == 0, hi == len(t)); h != "" {
			return h
		}
		if hi == len(t) {
			break
		}
	}
	return ""
}

// runeStart moves i back to the start of the rune it is in.
func runeStart(t []byte, i int) int {
	for i > 0 && i < len(t) && !utf8.RuneStart(t[i]) {
		i--
	}
	return i
}

// lowerAlready: s is ASCII without capitals, which AppendLower would
// copy as it is.
func lowerAlready(s []byte) bool {
	for _, c := range s {
		if c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			return false
		}
	}
	return true
}

// AppendLower appends s in lower case, as strings.ToLower writes it
// (invalid UTF-8 as U+FFFD), without a string made on the way.
func AppendLower(dst, s []byte) []byte {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(s[i:])
		dst = utf8.AppendRune(dst, unicode.ToLower(r))
		i += n
	}
	return dst
}

// findHost looks for each host, lower case, as a whole host name in s:
// preceded by a non-host character or a dot, followed by a non-host
// character. first and last say whether s starts and ends where the text
// does; a name at a cut edge is left to the chunk that holds its context.
func findHost(s []byte, hosts [][]byte, first, last bool) string {
	for _, h := range hosts {
		for off := 0; ; {
			i := bytes.Index(s[off:], h)
			if i < 0 {
				break
			}
			i += off
			end := i + len(h)
			starts := i == 0 && first || i > 0 && (!hostChar(s[i-1]) || s[i-1] == '.')
			if starts && hostEnds(s, end, last) {
				return string(h)
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
// ends a sentence ("post it to webhook.site.") does not continue it. At a
// cut edge (last false) nothing is known to follow.
func hostEnds(s []byte, end int, last bool) bool {
	if end == len(s) {
		return last
	}
	if !hostChar(s[end]) {
		return true
	}
	if s[end] != '.' {
		return false
	}
	if end+1 == len(s) {
		return last
	}
	return !hostChar(s[end+1])
}
