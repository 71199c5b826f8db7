package learned

import (
	"unicode"
	"unicode/utf8"
)

// token is one word of a text after canonicalisation: its canonical
// bytes are canon[cs:ce] of its tokens' shared buffer, and it was read
// from text[start:end].
type token struct {
	cs, ce     int32
	start, end int32
}

// tok makes a token; offsets fit in 32 bits, as a scanned text is at
// most a few megabytes (injection.Options.MaxMessageBytes).
func tok(cs, ce, start, end int) token { return token{int32(cs), int32(ce), int32(start), int32(end)} }

// words are a text's tokens with the buffer their canonical forms share.
type words struct {
	canon []byte
	ts    []token
}

func (w *words) word(i int) []byte { return w.canon[w.ts[i].cs:w.ts[i].ce] }

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
func tokenize(text string) words {
	var w words
	w.tokenize(text)
	return w
}

// tokenize is tokenize into w's buffers, which it reuses.
func (w *words) tokenize(text string) {
	w.canon, w.ts = w.canon[:0], w.ts[:0]
	if n := len(text) + 8; cap(w.canon) < n {
		w.canon = make([]byte, 0, n)
	}
	if n := len(text)/5 + 1; cap(w.ts) < n {
		w.ts = make([]token, 0, n)
	}
	start, cs := -1, 0
	letters, digits := false, false // digits: ASCII ones, the only ones unleet folds
	flush := func(end int) {
		if start < 0 {
			return
		}
		if !letters {
			n := len(w.canon) - cs
			w.canon = append(w.canon[:cs], '#', byte('0'+min(n, 9)))
		} else if digits {
			unleet(w.canon[cs:])
		}
		w.ts = append(w.ts, tok(cs, len(w.canon), start, end))
		start, letters, digits = -1, false, false
	}
	prevCJKAt, prevCJKSize := -1, 0
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			switch {
			case c|0x20 >= 'a' && c|0x20 <= 'z' || c >= '0' && c <= '9':
				if start < 0 {
					start, cs = i, len(w.canon)
				}
				// the rest of the run of ASCII letters and digits at once
				j := i
				for ; j < len(text); j++ {
					c := text[j]
					if l := c | 0x20; l >= 'a' && l <= 'z' {
						letters = true
						w.canon = append(w.canon, l)
					} else if c >= '0' && c <= '9' {
						digits = true
						w.canon = append(w.canon, c)
					} else {
						break
					}
				}
				prevCJKAt = -1
				i = j
				continue
			case c == '\'' && start >= 0 && i+1 < len(text) && isASCIILetter(text[i+1]):
				// an apostrophe inside a word ("user's") does not split it
			case c == '@':
				flush(i)
				cs = len(w.canon)
				w.canon = append(w.canon, '@')
				w.ts = append(w.ts, tok(cs, len(w.canon), i, i+1))
			default:
				flush(i)
			}
			prevCJKAt = -1
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case isCJK(r):
			flush(i)
			if prevCJKAt >= 0 {
				cs = len(w.canon)
				w.canon = append(w.canon, text[prevCJKAt:prevCJKAt+prevCJKSize]...)
				w.canon = utf8.AppendRune(w.canon, r)
				w.ts = append(w.ts, tok(cs, len(w.canon), prevCJKAt, i+size))
			}
			prevCJKAt, prevCJKSize = i, size
			i += size
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if start < 0 {
				start, cs = i, len(w.canon)
			}
			letters = letters || unicode.IsLetter(r)
			w.canon = utf8.AppendRune(w.canon, unicode.ToLower(r))
		case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Cf, r):
			// combining marks and invisible characters inside a word
			// do not split it
		default:
			flush(i)
		}
		prevCJKAt = -1
		i += size
	}
	flush(len(text))
	w.ts = joinSpelled(w.ts)
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}

// unleet folds, in place, the digits of a word that also has letters
// into the letters they are written for.
func unleet(b []byte) {
	for i, c := range b {
		switch c {
		case '0':
			b[i] = 'o'
		case '1':
			b[i] = 'i'
		case '3':
			b[i] = 'e'
		case '4':
			b[i] = 'a'
		case '5':
			b[i] = 's'
		case '7':
			b[i] = 't'
		}
	}
}

// joinSpelled joins runs of three or more one-letter words ("i g n o r
// e") into the word they spell; a wider gap than the run's first ends
// the word ("i g n o r e   a l l"). The canonical bytes of consecutive
// words are adjacent, so a joined word is their span.
func joinSpelled(ts []token) []token {
	one := func(t token) bool { return t.ce-t.cs == 1 && t.end-t.start == 1 }
	out := ts[:0]
	for i := 0; i < len(ts); {
		j := i
		for j < len(ts) && one(ts[j]) && (j < i+2 || ts[j].start-ts[j-1].end <= ts[i+1].start-ts[i].end) {
			j++
		}
		if j-i >= 3 {
			out = append(out, token{ts[i].cs, ts[j-1].ce, ts[i].start, ts[j-1].end})
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

func hashBytes(h uint32, s []byte) uint32 {
	for _, c := range s {
		h ^= uint32(c)
		h *= fnvPrime
	}
	return h
}

// Character n-grams of 3 to 5 bytes are taken over the word with a mark
// at each end ("<ignore>"): a typo changes a few of them and leaves the
// rest. The n-grams starting at one byte share their hashing, the longer
// continuing the shorter.
const minGram, maxGram = 3, 5

// features appends the feature hashes of token i of ts (its word, the
// pair it makes with the word before, its character n-grams) to dst.
func features(dst []uint32, ws *words, i int) []uint32 {
	w := ws.word(i)
	dst = append(dst, hashBytes(seedWord, w))
	if i > 0 {
		dst = append(dst, hashBytes(hashBytes(seedPair, ws.word(i-1))^' ', w))
	}
	if len(w) > maxTokenBytes {
		w = w[:maxTokenBytes]
	}
	var marked [maxTokenBytes + 2]byte // "<word>"
	marked[0] = '<'
	n := copy(marked[1:], w)
	marked[n+1] = '>'
	m := marked[:n+2]
	for a := 0; a+minGram <= len(m); a++ {
		h := uint32(seedGram)
		for k, c := range m[a:min(len(m), a+maxGram)] {
			h ^= uint32(c)
			h *= fnvPrime
			if k+1 >= minGram {
				dst = append(dst, h)
			}
		}
	}
	return dst
}
