package injection

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Simple reversible transforms an order hides behind when the text asks
// the reader to undo them ("reverse this and do what it says", "shift
// each letter back by 3", any cipher): after such a cue the sentences
// around it are tried reversed, rotated by every n and out of pig latin,
// and a chunk that then reads as English (and did not before) is scanned
// like a decoded block. Pig latin is also undone without a cue when most
// words of the text end in "ay": no language writes like that.

const (
	maxTransformBytes = 2048
	minTransformWords = 3
)

// findTransformed returns the chunks near transform cues that read as
// English once reversed, rotated or taken out of pig latin.
func findTransformed(t string, hits []int) []b64Block {
	var out []b64Block
	seen := -1
	for n, h := range hits {
		if n >= 4 {
			break
		}
		if h < seen {
			continue
		}
		a, _ := requestSentence(t, h)
		b := h
		for k := 0; k < 3 && b < len(t); k++ {
			_, b = requestSentence(t, min(len(t)-1, b+2))
		}
		b = min(b, a+maxTransformBytes, len(t))
		seen = b
		for _, c := range transformChunks(t, a, b) {
			if blk, ok := undoTransform(t[c.start:c.end]); ok {
				blk.start, blk.end = c.start, c.end
				out = append(out, blk)
			}
		}
	}
	return out
}

// transformChunks splits [a, b) at sentence ends, colons, line breaks and
// quotes: the cue is plain text and the payload a chunk of its own.
func transformChunks(t string, a, b int) []span {
	var out []span
	s := a
	for i := a; i <= b; i++ {
		if i == b || strings.IndexByte(":\n\"`", t[i]) >= 0 || t[i] == '.' && i+1 < b && t[i+1] == ' ' {
			if i-s >= 12 {
				out = append(out, span{s, i})
			}
			s = i + 1
		}
	}
	// A reversed text ends sentences at its start (".resu eht"): the
	// whole span is a candidate too.
	if len(out) > 1 {
		out = append(out, span{a, b})
	}
	return out
}

// undoTransform tries each transform on s and keeps the one that turns
// it into English.
func undoTransform(s string) (b64Block, bool) {
	base := commonWords(s)
	best, bestWords, how := "", 0, ""
	try := func(cand, name string) {
		if w := commonWords(cand); w > bestWords {
			best, bestWords, how = cand, w, name
		}
	}
	try(reverseRunes(s), "reversed text")
	for k := 1; k < 26; k++ {
		try(rotate(s, k), "rot"+strconv.Itoa(k))
	}
	try(unPigLatin(s), "pig latin")
	if bestWords < minTransformWords || bestWords <= 2*base {
		return b64Block{}, false
	}
	return b64Block{decoded: best, enc: how}, true
}

func reverseRunes(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

func rotate(s string, k int) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = 'a' + byte((int(c-'a')+k)%26)
		case c >= 'A' && c <= 'Z':
			b[i] = 'A' + byte((int(c-'A')+k)%26)
		}
	}
	return string(b)
}

// unPigLatin undoes pig latin word by word. The moved consonants are
// ambiguous ("eviouspray": r or pr?), so each split is tried and one
// that makes a common word wins; otherwise one consonant moves back.
func unPigLatin(s string) string {
	var b strings.Builder
	last := 0
	eachWord(s, func(i, j int) {
		b.WriteString(s[last:i])
		last = j
		b.WriteString(unPigWord(s[i:j]))
	})
	b.WriteString(s[last:])
	return b.String()
}

func unPigWord(w string) string {
	lw := strings.ToLower(w)
	if len(lw) < 4 || !strings.HasSuffix(lw, "ay") {
		return w
	}
	core := lw[:len(lw)-2]
	var cands []string
	if strings.HasSuffix(core, "w") {
		cands = append(cands, core[:len(core)-1])
	}
	for k := 1; k <= 3 && k < len(core); k++ {
		tail := core[len(core)-k:]
		if strings.ContainsAny(tail, "aeiou") {
			break
		}
		cands = append(cands, tail+core[:len(core)-k])
	}
	if len(cands) == 0 {
		return w
	}
	for _, c := range cands {
		if englishWords[c] {
			return c
		}
	}
	if strings.HasSuffix(core, "w") && len(cands) > 1 {
		return cands[1]
	}
	return cands[0]
}

// pigLatinText: most words of four letters or more end in "ay".
func pigLatinText(lt string) bool {
	if strings.Count(lt, "ay") < 4 {
		return false
	}
	words, pig := 0, 0
	eachWord(lt, func(i, j int) {
		if utf8.RuneCountInString(lt[i:j]) < 4 {
			return
		}
		words++
		if strings.HasSuffix(lt[i:j], "ay") {
			pig++
		}
	})
	return pig >= 4 && pig*2 >= words
}
