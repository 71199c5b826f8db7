package learned

import (
	"math"
	"unicode"
	"unicode/utf8"
)

// The scorer as it was before it was made faster (commit 0789c70),
// frozen: tokenizer, features and the window scan, copied verbatim but
// for their names. TestScoreMatchesReference holds Score to it bit for
// bit, so that a faster scorer changes no verdict.

func referenceTokenize(text string) words {
	w := words{canon: make([]byte, 0, len(text)+8), ts: make([]token, 0, len(text)/5+1)}
	start, cs := -1, 0
	letters := false
	flush := func(end int) {
		if start < 0 {
			return
		}
		if !letters {
			n := len(w.canon) - cs
			w.canon = append(w.canon[:cs], '#', byte('0'+min(n, 9)))
		} else {
			unleet(w.canon[cs:])
		}
		w.ts = append(w.ts, tok(cs, len(w.canon), start, end))
		start, letters = -1, false
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
				if c >= 'A' && c <= 'Z' {
					c += 'a' - 'A'
				}
				letters = letters || c > '9'
				w.canon = append(w.canon, c)
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
	w.ts = referenceJoinSpelled(w.ts)
	return w
}

func referenceJoinSpelled(ts []token) []token {
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

func referenceFeatures(dst []uint32, ws *words, i int) []uint32 {
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

func referenceScore(m *Model, text string) Window {
	ws := referenceTokenize(text)
	ts := ws.ts
	if len(ts) < MinWords {
		return Window{}
	}
	// The window's weights (in quantised units) and features are running
	// sums; rings of the window's length hold what each word added, to
	// take it off when the word leaves.
	w := min(m.Window, len(ts))
	ringW, ringN := make([]int32, w), make([]int32, w)
	var sumW, sumN int32
	var hs []uint32
	mask := uint32(1)<<m.Bits - 1
	best, at := float32(math.Inf(-1)), 0
	for i := range ts {
		hs = referenceFeatures(hs[:0], &ws, i)
		var s int32
		for _, h := range hs {
			s += int32(m.Weights[h&mask])
		}
		k := i % w
		sumW += s - ringW[k]
		sumN += int32(len(hs)) - ringN[k]
		ringW[k], ringN[k] = s, int32(len(hs))
		if i+1 < w {
			continue
		}
		if z := float32(sumW) * m.Scale / float32(math.Sqrt(float64(sumN))); z > best {
			best, at = z, i+1-w
		}
	}
	return Window{P: sigmoid(float64(m.Bias + best)), Start: int(ts[at].start), End: int(ts[at+w-1].end)}
}
