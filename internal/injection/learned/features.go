package learned

import (
	"unicode"
	"unicode/utf8"
)

// token is one word of a text after canonicalisation, with the bytes of
// the text it came from.
type token struct {
	s          string
	start, end int
}

// maxTokenBytes caps the bytes of a token that yield character n-grams:
// a long run of letters (a base64 blob, a hash) says nothing more after
// a few n-grams and would cost time.
const maxTokenBytes = 24

// tokenize splits text into canonical words, in one pass. Canonical means
// what a reader would still read: lower case; leetspeak digits inside a
// word folded to the letters they stand for ("ign0re" → "ignore"); a
// number alone reduced to its length ("#4"); '@' a word of its own (an
// address); words of one letter spaced out ("i g n o r e") joined; CJK
// text, which has no spaces, cut into overlapping pairs of characters.
// Punctuation and line breaks are not tokens, so a sentence folded across
// YAML or CSV lines reads as one.
func tokenize(text string) []token {
	var out []token
	buf := make([]byte, 0, 32)
	start := -1
	letters := false
	flush := func(end int) {
		if start < 0 {
			return
		}
		s := string(buf)
		if !letters {
			s = "#" + string(rune('0'+min(len(buf), 9)))
		} else {
			s = unleet(s)
		}
		out = append(out, token{s, start, end})
		buf, start, letters = buf[:0], -1, false
	}
	var prevCJK rune
	prevCJKAt := -1
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case isCJK(r):
			flush(i)
			if prevCJKAt >= 0 {
				out = append(out, token{string(prevCJK) + string(r), prevCJKAt, i + size})
			}
			prevCJK, prevCJKAt = r, i
			i += size
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' && start >= 0 && i+1 < len(text) && isASCIILetter(text[i+1]):
			if start < 0 {
				start = i
			}
			if r != '\'' {
				letters = letters || unicode.IsLetter(r)
				buf = utf8.AppendRune(buf, unicode.ToLower(r))
			}
		case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Cf, r):
			// combining marks and invisible characters inside a word
			// do not split it
		case r == '@':
			flush(i)
			out = append(out, token{"@", i, i + 1})
		default:
			flush(i)
		}
		prevCJKAt = -1
		i += size
	}
	flush(len(text))
	return joinSpelled(out)
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}

// unleet folds the digits of a word that also has letters into the
// letters they are written for.
func unleet(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		var to byte
		switch c {
		case '0':
			to = 'o'
		case '1':
			to = 'i'
		case '3':
			to = 'e'
		case '4':
			to = 'a'
		case '5':
			to = 's'
		case '7':
			to = 't'
		default:
			continue
		}
		if b == nil {
			b = []byte(s)
		}
		b[i] = to
	}
	if b == nil {
		return s
	}
	return string(b)
}

// joinSpelled joins runs of three or more one-letter words ("i g n o r
// e") into the word they spell; a wider gap than the run's first ends
// the word ("i g n o r e   a l l").
func joinSpelled(ts []token) []token {
	out := ts[:0]
	for i := 0; i < len(ts); {
		j := i
		for j < len(ts) && len(ts[j].s) == 1 && ts[j].s != "@" && (j < i+2 || ts[j].start-ts[j-1].end <= ts[i+1].start-ts[i].end) {
			j++
		}
		if j-i >= 3 {
			s := make([]byte, 0, j-i)
			for _, t := range ts[i:j] {
				s = append(s, t.s...)
			}
			out = append(out, token{string(s), ts[i].start, ts[j-1].end})
			i = j
			continue
		}
		if j == i {
			j++
		}
		out = append(out, ts[i:j]...)
		i = j
	}
	return out
}

// Feature hashing: FNV-1a, with a different seed for each kind of
// feature, masked to the model's table.
const (
	fnvOffset = 2166136261
	fnvPrime  = 16777619
	seedWord  = fnvOffset
	seedPair  = fnvOffset ^ 0x9e3779b9
	seedGram  = fnvOffset ^ 0x85ebca6b
)

func hashString(h uint32, s string) uint32 {
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= fnvPrime
	}
	return h
}

// gramOrders are the lengths of the character n-grams, taken over the
// word with a mark at each end ("<ignore>"): a typo changes a few of them
// and leaves the rest.
var gramOrders = [...]int{3, 4, 5}

// features appends the feature hashes of token i of ts (its word, the
// pair it makes with the word before, its character n-grams) to dst.
func features(dst []uint32, ts []token, i int) []uint32 {
	w := ts[i].s
	dst = append(dst, hashString(seedWord, w))
	if i > 0 {
		dst = append(dst, hashString(hashString(seedPair, ts[i-1].s)^' ', w))
	}
	if len(w) > maxTokenBytes {
		w = w[:maxTokenBytes]
	}
	var marked [maxTokenBytes + 2]byte
	marked[0] = '<'
	n := copy(marked[1:], w)
	marked[n+1] = '>'
	m := marked[:n+2]
	for _, k := range gramOrders {
		seed := seedGram ^ uint32(k)
		for a := 0; a+k <= len(m); a++ {
			h := uint32(seed)
			for _, c := range m[a : a+k] {
				h ^= uint32(c)
				h *= fnvPrime
			}
			dst = append(dst, h)
		}
	}
	return dst
}
