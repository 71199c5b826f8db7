package injection

import (
	"sync"
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
	if r < 0xc0 || r >= 0x2000 { // precomposed letters of the three scripts lie between
		return 0
	}
	return int(markTable()[r])
}

// markTable holds marksOf for the runes below U+2000, computed once: the
// normaliser asks for every accented letter.
var markTable = sync.OnceValue(func() *[0x2000]uint8 {
	var t [0x2000]uint8
	for r := rune(0xc0); r < 0x2000; r++ {
		for _, d := range norm.NFD.String(string(r)) {
			if isMark(d) {
				t[r]++
			}
		}
	}
	return &t
})

// mark handles a combining mark at i: dropped when the word it is in is
// marked abnormally or when no letter carries it.
func (n *normaliser) mark(i, size int) int {
	prev, _ := utf8.DecodeLastRuneInString(n.src[:i])
	if i == 0 || !(unicode.In(prev, unicode.L, unicode.M) || isInvisible(prev)) || n.marksAbnormal(i) {
		n.ev.combiningMarks++
		n.ev.combiningSpan.add(i, i+size)
		n.repl(i, i+size, "")
		return i + size
	}
	n.ident(i, i+size)
	return i + size
}

// stripMarks writes a letter of an abnormally marked word as its base
// letter, before NFKC composes it with the marks that follow. ok is false
// when the letter stays as it is.
func (n *normaliser) stripMarks(i int, r rune, size int) (int, bool) {
	next, _ := utf8.DecodeRuneInString(n.src[i+size:])
	loose := isMark(next)
	// Precomposed letters with marks lie in the Latin, Greek and
	// Cyrillic blocks: other letters cost no more than this.
	if !loose && !(r >= 0xc0 && r < 0x530 || r >= 0x1e00 && r < 0x2000) || !alphabetic(r) {
		return i, false
	}
	if !loose && marksOf(r) == 0 || !n.marksAbnormal(i) {
		return i, false
	}
	var base []rune
	for _, d := range norm.NFD.String(n.src[i : i+size]) {
		if !isMark(d) {
			base = append(base, d)
		}
	}
	n.ev.combiningMarks++
	n.ev.combiningSpan.add(i, i+size)
	out := norm.NFKC.String(string(base))
	if len(base) == 1 {
		if l, ok := lookalike(base[0]); ok {
			// folded as an unmarked letter would be: only inside a word
			// that mixes scripts
			if i >= n.wordEnd {
				n.decideWord(i)
			}
			if n.foldWord {
				out = string(rune(l))
			}
		}
	}
	n.repl(i, i+size, out)
	return i + size, true
}

// marksAbnormal decides, once per word, whether the word around i carries
// its marks abnormally.
func (n *normaliser) marksAbnormal(i int) bool {
	if i < n.markEnd && i >= n.markStart {
		return n.markFold
	}
	t := n.src
	word := func(r rune) bool { return unicode.In(r, unicode.L, unicode.M) || isInvisible(r) }
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
	w := countMarks(t[ws:we])
	n.markStart, n.markEnd = ws, we
	n.markFold = w.abc && (w.deepest >= 3 || w.letters >= minMarkedLetters && w.marked*4 >= w.letters*3 &&
		// Separate marks after letters are not how a keyboard writes;
		// precomposed ones on a whole word are (Czech "šíří"), unless the
		// text around is marked as heavily.
		(w.loose*2 >= w.marked || n.markedAround(ws, we)))
	return n.markFold
}

type markCount struct {
	letters, marked, loose, deepest int
	abc                             bool // all letters Latin, Greek or Cyrillic
}

func countMarks(s string) markCount {
	c := markCount{abc: true}
	stack := 0
	for _, r := range s {
		switch {
		case isMark(r):
			if stack == 0 && c.letters > 0 {
				c.marked++
				c.loose++
			}
			stack++
		case unicode.IsLetter(r):
			c.letters++
			c.abc = c.abc && alphabetic(r)
			stack = marksOf(r)
			if stack > 0 {
				c.marked++
			}
		}
		c.deepest = max(c.deepest, stack)
	}
	return c
}

// markedAround: the text around [ws, we) carries marks on at least half
// its letters. No language accents half its letters.
func (n *normaliser) markedAround(ws, we int) bool {
	t := n.src
	a, b := max(0, ws-160), min(len(t), we+160)
	for a > 0 && !utf8.RuneStart(t[a]) {
		a--
	}
	for b < len(t) && !utf8.RuneStart(t[b]) {
		b++
	}
	c := countMarks(t[a:b])
	return c.letters >= 8 && c.marked*2 >= c.letters
}
