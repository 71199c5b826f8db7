package injection

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Combining marks: an accent after every letter ("i\u0301g\u0301n\u0301…")
// renders as accented text a person reads through, but hides the words
// from a matcher. Marks are folded away only where they are abnormal: on
// most letters of a Latin, Greek or Cyrillic word, stacked three deep, or
// with no letter to sit on. Scripts whose vowels are marks (Devanagari,
// Arabic, Thai) and ordinary accents (été, tiếng, příští) are kept.

// minMarkedLetters is the shortest word whose marks are judged: short words
// in Vietnamese or French are often all accent.
const minMarkedLetters = 3

func isMark(r rune) bool {
	return r >= 0x300 && !isVariationSelector(r) && (unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r))
}

// alphabetic: the scripts in which a mark on most letters is not writing.
func alphabetic(r rune) bool {
	return r < 0x80 && isASCIILetter(r) || unicode.In(r, unicode.Latin, unicode.Greek, unicode.Cyrillic)
}

// marksOf counts the marks a precomposed letter decomposes into.
func marksOf(r rune) int {
	if r < 0xc0 {
		return 0
	}
	n := 0
	for _, d := range norm.NFD.String(string(r)) {
		if isMark(d) {
			n++
		}
	}
	return n
}

// mark handles a combining mark at i: dropped when the word it is in is
// marked abnormally or when no letter carries it.
func (n *normaliser) mark(i, size int) int {
	prev, _ := utf8.DecodeLastRuneInString(n.src[:i])
	if i == 0 || !(unicode.IsLetter(prev) || isMark(prev) || isInvisible(prev)) || n.marksAbnormal(i) {
		n.ev.combiningMarks++
		n.ev.combiningSpan.add(i, i+size)
		n.repl(i, i+size, "")
		return i + size
	}
	n.ident(i, i+size)
	return i + size
}

// stripMarks writes a precomposed letter of an abnormally marked word as
// its base letter. ok is false when the letter stays as it is.
func (n *normaliser) stripMarks(i int, r rune, size int) (int, bool) {
	if marksOf(r) == 0 || !alphabetic(r) || !n.marksAbnormal(i) {
		return i, false
	}
	var base []rune
	for _, d := range norm.NFD.String(string(r)) {
		if !isMark(d) {
			base = append(base, d)
		}
	}
	n.ev.combiningMarks++
	n.ev.combiningSpan.add(i, i+size)
	n.repl(i, i+size, foldReplacement(norm.NFKC.String(string(base))))
	return i + size, true
}

// marksAbnormal decides, once per word, whether the word around i carries
// its marks abnormally.
func (n *normaliser) marksAbnormal(i int) bool {
	if i < n.markEnd && i >= n.markStart {
		return n.markFold
	}
	t := n.src
	word := func(r rune) bool { return unicode.IsLetter(r) || isMark(r) || isInvisible(r) }
	ws := i
	for ws > 0 && i-ws < 4*maxWordScan {
		r, size := utf8.DecodeLastRuneInString(t[:ws])
		if !word(r) {
			break
		}
		ws -= size
	}
	we := i
	for we < len(t) && we-i < 4*maxWordScan {
		r, size := utf8.DecodeRuneInString(t[we:])
		if !word(r) {
			break
		}
		we += size
	}
	letters, marked, stack, deepest, abc := 0, 0, 0, 0, true
	for _, r := range t[ws:we] {
		switch {
		case isMark(r):
			if stack == 0 && letters > 0 {
				marked++
			}
			stack++
		case unicode.IsLetter(r):
			letters++
			abc = abc && alphabetic(r)
			stack = marksOf(r)
			if stack > 0 {
				marked++
			}
		}
		deepest = max(deepest, stack)
	}
	n.markStart, n.markEnd = ws, we
	n.markFold = abc && (letters >= minMarkedLetters && marked*4 >= letters*3 || deepest >= 3)
	return n.markFold
}
