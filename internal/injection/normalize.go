package injection

import (
	"bytes"
	"html"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/flowd-dev/flowd/internal/jsontext"
)

// charEvidence is what normalisation saw that a reader of the rendered text
// would not: invisible and direction-changing characters, look-alike
// letters, encodings, terminal escapes. Spans are in source offsets.
type charEvidence struct {
	zeroWidthInWord, zeroWidthOther int
	zeroWidthSpan                   span
	invisibleText                   int // Unicode tag characters or variation selectors carrying text
	invisibleSpan                   span
	bidiOverride, bidiOther         int
	bidiSpan                        span
	mixedScript                     []span // the first few mixed-script words
	mixedWords                      int
	encodedChars                    int // letters and digits written as %XX or &#NN;
	encodedSpan                     span
	nestedEncoding                  int
	ansi                            int
	ansiSeverity                    float64
	ansiSpan                        span
	softHyphen, carriageReturn      int
	combiningMarks                  int // marks folded away as abnormal (see marks.go)
	combiningSpan                   span
}

type span struct{ start, end int }

func (s *span) add(a, b int) {
	if s.end == 0 && s.start == 0 {
		*s = span{a, b}
		return
	}
	s.start, s.end = min(s.start, a), max(s.end, b)
}

// first records [a, b) unless a span is already recorded: the first
// occurrence is what a detection points at.
func (s *span) first(a, b int) {
	if s.empty() {
		*s = span{a, b}
	}
}

func (s span) empty() bool { return s.end <= s.start }

// maxMixedSpans bounds how many mixed-script words are remembered per field.
const maxMixedSpans = 16

// plainByte marks ASCII bytes that normalisation copies unchanged.
var plainByte = func() (t [256]bool) {
	for c := 0x21; c < 0x7f; c++ {
		t[c] = c != '&' && c != '%' && c != '\\'
	}
	return t
}()

// normaliser rewrites a text for matching: NFKC, invisible and bidi
// characters removed, look-alike letters folded inside mixed-script words,
// HTML entities and %XX decoded, ANSI escapes removed, whitespace runs
// collapsed to one space (or one newline when the run holds a line break).
type normaliser struct {
	src      string
	out      []byte
	m        spanMap
	ev       *charEvidence
	wordEnd  int // end of the word whose fold decision is cached
	foldWord bool
	quickEnd int // source bytes before this are known to be NFKC
	// the word whose combining marks were judged (see marks.go)
	markStart, markEnd int
	markFold           bool
}

// normalise returns the normalised form of text and its map. Nested
// encodings (an entity that decodes to another entity, %25XX) get further
// passes, at most three in all.
func normalise(text string, ev *charEvidence) (string, *spanMap) {
	if unchanged(text) {
		m := &spanMap{}
		if len(text) > 0 {
			m.segs = []seg{{nl: len(text), ol: len(text), ident: true}}
		}
		return text, m
	}
	n := &normaliser{src: text, ev: ev, out: make([]byte, 0, len(text))}
	n.run()
	out, m := string(n.out), &n.m
	for pass := 1; pass < 3 && n.nested(); pass++ {
		next := &normaliser{src: out, ev: &charEvidence{}, out: make([]byte, 0, len(out))}
		next.run()
		ev.nestedEncoding += next.ev.nestedEncoding
		ev.encodedChars += next.ev.encodedChars
		next.m.prev = m
		out, m, n = string(next.out), &next.m, next
	}
	return out, m
}

// unchanged reports text that normalisation copies byte for byte: plain
// printable ASCII with single spaces and newlines. Most text fields are;
// they skip the copy and its map.
func unchanged(text string) bool {
	for i := 0; i < len(text); i++ {
		if c := text[i]; !plainByte[c] && (c != ' ' && c != '\n' || i+1 < len(text) && !plainByte[text[i+1]]) {
			return false
		}
	}
	return true
}

// nested reports whether the last pass produced text that still decodes.
func (n *normaliser) nested() bool {
	return n.ev.nestedEncoding > 0 && bytes.ContainsAny(n.out, "%&")
}

func (n *normaliser) ident(a, b int) {
	if b <= a {
		return
	}
	if k := len(n.m.segs) - 1; k >= 0 {
		s := &n.m.segs[k]
		if s.ident && s.o+s.ol == a && s.n+s.nl == len(n.out) {
			s.nl += b - a
			s.ol += b - a
			n.out = append(n.out, n.src[a:b]...)
			return
		}
	}
	n.m.segs = append(n.m.segs, seg{n: len(n.out), o: a, nl: b - a, ol: b - a, ident: true})
	n.out = append(n.out, n.src[a:b]...)
}

func (n *normaliser) repl(a, b int, s string) {
	n.m.segs = append(n.m.segs, seg{n: len(n.out), o: a, nl: len(s), ol: b - a})
	n.out = append(n.out, s...)
}

func (n *normaliser) run() {
	t := n.src
	for i := 0; i < len(t); {
		c := t[i]
		if plainByte[c] {
			j := i + 1
			for j < len(t) && plainByte[t[j]] {
				j++
			}
			n.ident(i, j)
			i = j
			continue
		}
		switch {
		case c == '&':
			i = n.entity(i)
		case c == '%':
			i = n.percent(i)
		case c == '\\':
			i = n.backslash(i)
		case c == 0x1b:
			i = n.escape(i, i+1)
		case c < 0x80:
			i = n.space(i)
		default:
			i = n.nonASCII(i)
		}
	}
}

// space handles a run of ASCII whitespace, control characters and Unicode
// spaces and separators.
func (n *normaliser) space(i int) int {
	t := n.src
	j, newline := i, false
	for j < len(t) {
		c := t[j]
		if c < 0x80 {
			if c > ' ' && c != 0x7f || c == 0x1b {
				break
			}
			switch c {
			case '\n', '\v', '\f':
				newline = true
			case '\r':
				if j+1 < len(t) && t[j+1] != '\n' && t[j+1] != '\r' && j > 0 && t[j-1] != '\n' {
					n.ev.carriageReturn++
				}
				newline = true
			}
			j++
			continue
		}
		r, size := utf8.DecodeRuneInString(t[j:])
		if !isUnicodeSpace(r) {
			break
		}
		if r == 0x2028 || r == 0x2029 || r == 0x85 {
			newline = true
		}
		j += size
	}
	if j == i {
		// A lone control character that is not whitespace (e.g. 0x1b is
		// handled elsewhere); keep the scan moving.
		n.repl(i, i+1, " ")
		return i + 1
	}
	if j == i+1 && (t[i] == ' ' || t[i] == '\n') {
		n.ident(i, j)
		return j
	}
	if newline {
		n.repl(i, j, "\n")
	} else {
		n.repl(i, j, " ")
	}
	return j
}

// backslash reads an escaped line break left in text (a backslash and
// an n, as calendar files and logs write one) as the line break its
// reader sees, so that the sentences on either side stay apart; one
// before a lower case letter or a digit is left (`\nodes` in code).
func (n *normaliser) backslash(i int) int {
	t := n.src
	if i+1 < len(t) && t[i+1] == 'n' && (i+2 == len(t) || !(t[i+2] >= 'a' && t[i+2] <= 'z' || t[i+2] >= '0' && t[i+2] <= '9')) {
		n.repl(i, i+2, "\n")
		return i + 2
	}
	n.ident(i, i+1)
	return i + 1
}

func isUnicodeSpace(r rune) bool {
	switch r {
	case 0x85, 0xa0, 0x1680, 0x202f, 0x205f, 0x3000, 0x2028, 0x2029:
		return true
	}
	return r >= 0x80 && r <= 0x9f && r != 0x9b || r >= 0x2000 && r <= 0x200a
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// percent decodes %XX when it stands for printable ASCII or a line break.
// Letters and digits have no reason to be escaped, so they count as
// obfuscation.
func (n *normaliser) percent(i int) int {
	t := n.src
	if i+2 < len(t) && jsontext.IsHex(t[i+1]) && jsontext.IsHex(t[i+2]) {
		b := jsontext.Unhex(t[i+1])<<4 | jsontext.Unhex(t[i+2])
		if b >= 0x20 && b < 0x7f || b == '\n' || b == '\t' {
			if isAlnum(b) {
				n.ev.encodedChars++
				n.ev.encodedSpan.add(i, i+3)
			}
			if (b == '%' || b == '&') && i+3 < len(t) && (jsontext.IsHex(t[i+3]) || t[i+3] == '#') {
				n.ev.nestedEncoding++
			}
			n.repl(i, i+3, string(rune(b)))
			return i + 3
		}
	}
	n.ident(i, i+1)
	return i + 1
}

// entity decodes an HTML character reference ending in ';'.
func (n *normaliser) entity(i int) int {
	t := n.src
	j := i + 1
	numeric := j < len(t) && t[j] == '#'
	if numeric {
		j++
	}
	for j < len(t) && j-i < 33 && isAlnum(t[j]) {
		j++
	}
	if j >= len(t) || t[j] != ';' || j == i+1 || numeric && j == i+2 {
		n.ident(i, i+1)
		return i + 1
	}
	ref := t[i : j+1]
	dec := html.UnescapeString(ref)
	if dec == ref {
		n.ident(i, i+1)
		return i + 1
	}
	if numeric && len(dec) == 1 && isAlnum(dec[0]) {
		n.ev.encodedChars++
		n.ev.encodedSpan.add(i, j+1)
	}
	if (dec == "&" || dec == "%") && j+1 < len(t) && (t[j+1] == '#' || isAlnum(t[j+1])) {
		n.ev.nestedEncoding++
	}
	if dec == "\u00a0" {
		dec = " "
	}
	n.repl(i, j+1, dec)
	return j + 1
}

// escape removes an ANSI escape sequence starting at i (ESC, or the C1 CSI
// whose body starts at body) and grades it: colours are common in command
// output, but concealed text, cursor movement, clipboard writes and hidden
// strings are terminal tricks.
func (n *normaliser) escape(i, body int) int {
	t := n.src
	end, sev := body, 0.0
	var kind byte
	if body < len(t) {
		kind = t[body]
	}
	if body == i+2 { // C1 CSI is already a CSI
		kind = '['
		body--
	}
	switch kind {
	case '[':
		j := body + 1
		for j < len(t) && j-i < 64 && t[j] >= 0x30 && t[j] <= 0x3f {
			j++
		}
		params := t[body+1 : j]
		for j < len(t) && j-i < 64 && t[j] >= 0x20 && t[j] <= 0x2f {
			j++
		}
		if j < len(t) && t[j] >= 0x40 && t[j] <= 0x7e {
			switch final := t[j]; {
			case final == 'm':
				for _, p := range strings.Split(params, ";") {
					if p == "8" {
						sev = 0.5
					}
				}
			case strings.IndexByte("ABCDEFGHJKSTfsuhl", final) >= 0:
				sev = 0.25
			}
			j++
		}
		end = j
	case ']', 'P', '_', '^', 'X':
		j := body + 1
		for j < len(t) && j-i < 4096 {
			if t[j] == 0x07 {
				j++
				break
			}
			if t[j] == 0x1b && j+1 < len(t) && t[j+1] == '\\' {
				j += 2
				break
			}
			j++
		}
		sev = 0.5
		if kind == ']' {
			// OSC 52 writes the clipboard; others set titles or links.
			sev = 0.3
			if strings.HasPrefix(t[body+1:j], "52;") {
				sev = 0.7
			}
		}
		end = j
	default:
		end = min(body+1, len(t))
	}
	n.ev.ansi++
	n.ev.ansiSeverity = max(n.ev.ansiSeverity, sev)
	if sev > 0 {
		n.ev.ansiSpan.first(i, end)
	}
	// Colours vanish; a sequence that moves the cursor or erases separates
	// what was on either side of it.
	sepr := ""
	if sev >= 0.25 && len(n.out) > 0 && n.out[len(n.out)-1] != ' ' && n.out[len(n.out)-1] != '\n' {
		sepr = " "
	}
	n.repl(i, end, sepr)
	return end
}

// nonASCII handles the rune at i.
func (n *normaliser) nonASCII(i int) int {
	t := n.src
	r, size := utf8.DecodeRuneInString(t[i:])
	switch {
	case r == utf8.RuneError && size == 1:
		n.repl(i, i+1, "\ufffd")
		return i + 1
	case r == 0x9b:
		return n.escape(i, i+2)
	case isUnicodeSpace(r):
		return n.space(i)
	case isInvisible(r):
		return n.invisible(i)
	case isMark(r):
		return n.mark(i, size)
	case isBidi(r):
		if r == 0x202d || r == 0x202e {
			n.ev.bidiOverride++
			n.ev.bidiSpan.first(i, i+size)
		} else {
			n.ev.bidiOther++
		}
		n.repl(i, i+size, "")
		return i + size
	case r >= 0xe0000 && r <= 0xe007f || isVariationSelector(r):
		return n.hiddenText(i)
	case r == '‘' || r == '’' || r == '‚' || r == '‛' || r == '′':
		// Typographic quotes fold to ASCII so that "you’re" is "you're".
		n.repl(i, i+size, "'")
		return i + size
	case r == '“' || r == '”' || r == '„' || r == '‟' || r == '″' || r == '«' || r == '»':
		n.repl(i, i+size, `"`)
		return i + size
	}
	if j, ok := n.stripMarks(i, r, size); ok {
		return j
	}
	if i >= n.quickEnd {
		n.quickEnd = i + norm.NFKC.QuickSpanString(t[i:])
		if n.quickEnd == i {
			k := norm.NFKC.NextBoundaryInString(t[i:], true)
			if k <= 0 {
				k = size
			}
			n.quickEnd = i + k
			if s := norm.NFKC.String(t[i : i+k]); s != t[i:i+k] {
				n.repl(i, i+k, foldReplacement(s))
				return i + k
			}
		}
	}
	if _, ok := lookalike(r); ok {
		return n.homoglyph(i, r, size)
	}
	n.ident(i, i+size)
	return i + size
}

// foldReplacement cleans what NFKC produced: compatibility forms of
// invisible characters are dropped and look-alikes folded (a replaced
// segment is already not what the author typed).
func foldReplacement(s string) string {
	var b strings.Builder
	for _, r := range s {
		if isInvisible(r) || isBidi(r) {
			continue
		}
		if l, ok := lookalike(r); ok {
			b.WriteByte(l)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// isInvisible reports zero-width and other characters that render as
// nothing.
func isInvisible(r rune) bool {
	switch r {
	case 0x200b, 0x200c, 0x200d, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xfeff,
		0x180e, 0x034f, 0x115f, 0x1160, 0x3164, 0xffa0, 0x17b4, 0x17b5, 0x00ad:
		return true
	}
	return false
}

func isBidi(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c
}

func isVariationSelector(r rune) bool {
	return r >= 0xfe00 && r <= 0xfe0f || r >= 0xe0100 && r <= 0xe01ef
}

func isASCIILetter(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

// invisible removes a run of invisible characters. A run inside a Latin
// word ("ig\u200bnore") is the classic way to split a keyword; joiners
// next to emoji or non-Latin scripts are ordinary text shaping, and a
// byte-order mark at the start is an encoding artefact.
func (n *normaliser) invisible(i int) int {
	t := n.src
	j, count, soft := i, 0, 0
	for j < len(t) {
		r, size := utf8.DecodeRuneInString(t[j:])
		if !isInvisible(r) {
			break
		}
		if r == 0xad {
			soft++
		}
		count++
		j += size
	}
	prev, _ := utf8.DecodeLastRuneInString(t[:i])
	next, _ := utf8.DecodeRuneInString(t[j:])
	n.repl(i, j, "")
	switch {
	case soft == count:
		n.ev.softHyphen += soft
	case i == 0 && strings.HasPrefix(t, "\ufeff") && count == 1:
	case isASCIILetter(prev) && isASCIILetter(next):
		n.ev.zeroWidthInWord += count - soft
		n.ev.zeroWidthSpan.first(i, j)
	case prev >= 0x80 && prev != utf8.RuneError || next >= 0x80 && next != utf8.RuneError:
		// shaping joiners in emoji sequences and complex scripts
	default:
		n.ev.zeroWidthOther += count - soft
		n.ev.zeroWidthSpan.first(i, j)
	}
	return j
}

// hiddenText handles Unicode tag characters (U+E0000 block, each the
// invisible twin of an ASCII character) and runs of variation selectors
// (which can carry one byte each). Models read both; people see nothing.
// The decoded text is put into the normalised text so that the rules see
// it. Tag characters after a black flag spell a subdivision flag (🏴 of
// England) and are left alone, as is a short run of variation selectors
// (emoji presentation).
func (n *normaliser) hiddenText(i int) int {
	t := n.src
	r, _ := utf8.DecodeRuneInString(t[i:])
	if r >= 0xe0000 && r <= 0xe007f {
		var b strings.Builder
		j := i
		for j < len(t) {
			r, size := utf8.DecodeRuneInString(t[j:])
			if r < 0xe0000 || r > 0xe007f {
				break
			}
			if r >= 0xe0020 && r <= 0xe007e {
				b.WriteByte(byte(r - 0xe0000))
			}
			j += size
		}
		prev, _ := utf8.DecodeLastRuneInString(t[:i])
		if prev == 0x1f3f4 {
			n.repl(i, j, "")
			return j
		}
		n.ev.invisibleText += utf8.RuneCountInString(t[i:j])
		n.ev.invisibleSpan.add(i, j)
		n.repl(i, j, " "+b.String()+" ")
		return j
	}
	var b []byte
	j := i
	for j < len(t) {
		r, size := utf8.DecodeRuneInString(t[j:])
		if !isVariationSelector(r) {
			break
		}
		if r < 0xe0100 {
			b = append(b, byte(r-0xfe00))
		} else {
			b = append(b, byte(r-0xe0100+16))
		}
		j += size
	}
	if len(b) < 4 || !utf8.Valid(b) || !mostlyPrintable(string(b)) {
		n.repl(i, j, "")
		return j
	}
	n.ev.invisibleText += len(b)
	n.ev.invisibleSpan.add(i, j)
	n.repl(i, j, " "+string(b)+" ")
	return j
}

// homoglyph folds a Cyrillic or Greek look-alike to its Latin twin when
// the word it is in also holds Latin letters. Whole words in one script
// are left alone: Russian text stays Russian.
func (n *normaliser) homoglyph(i int, r rune, size int) int {
	if i >= n.wordEnd {
		n.decideWord(i)
	}
	if n.foldWord {
		l, _ := lookalike(r)
		n.repl(i, i+size, string(rune(l)))
	} else {
		n.ident(i, i+size)
	}
	return i + size
}

const maxWordScan = 64

func isWordRune(r rune) bool {
	return r < 0x80 && isASCIILetter(r) || r >= 0x80 && (unicode.IsLetter(r) || isInvisible(r))
}

func (n *normaliser) decideWord(i int) {
	t := n.src
	ws := i
	for ws > 0 && i-ws < maxWordScan {
		r, size := utf8.DecodeLastRuneInString(t[:ws])
		if !isWordRune(r) {
			break
		}
		ws -= size
	}
	we := i
	latin := false
	for we < len(t) && we-i < maxWordScan {
		r, size := utf8.DecodeRuneInString(t[we:])
		if !isWordRune(r) {
			break
		}
		we += size
	}
	for _, r := range t[ws:we] {
		if isASCIILetter(r) {
			latin = true
			break
		}
	}
	n.wordEnd, n.foldWord = we, latin
	if latin {
		n.ev.mixedWords++
		if len(n.ev.mixedScript) < maxMixedSpans {
			n.ev.mixedScript = append(n.ev.mixedScript, span{ws, we})
		}
	}
}

// lookalike returns the Latin letter a Cyrillic or Greek letter is
// mistaken for, if it is one that renders (nearly) identically.
func lookalike(r rune) (byte, bool) {
	if r < 0x370 || r > 0x52f {
		return 0, false
	}
	switch r {
	// Cyrillic
	case 'а':
		return 'a', true
	case 'е':
		return 'e', true
	case 'о':
		return 'o', true
	case 'р':
		return 'p', true
	case 'с':
		return 'c', true
	case 'у':
		return 'y', true
	case 'х':
		return 'x', true
	case 'і':
		return 'i', true
	case 'ј':
		return 'j', true
	case 'ѕ':
		return 's', true
	case 'ԁ':
		return 'd', true
	case 'һ':
		return 'h', true
	case 'ԛ':
		return 'q', true
	case 'ԝ':
		return 'w', true
	case 'ӏ':
		return 'l', true
	case 'к':
		return 'k', true
	case 'А':
		return 'A', true
	case 'В':
		return 'B', true
	case 'Е':
		return 'E', true
	case 'К':
		return 'K', true
	case 'М':
		return 'M', true
	case 'Н':
		return 'H', true
	case 'О':
		return 'O', true
	case 'Р':
		return 'P', true
	case 'С':
		return 'C', true
	case 'Т':
		return 'T', true
	case 'У':
		return 'Y', true
	case 'Х':
		return 'X', true
	case 'І':
		return 'I', true
	case 'Ј':
		return 'J', true
	case 'Ѕ':
		return 'S', true
	case 'Ӏ':
		return 'I', true
	// Greek
	case 'Α':
		return 'A', true
	case 'Β':
		return 'B', true
	case 'Ε':
		return 'E', true
	case 'Ζ':
		return 'Z', true
	case 'Η':
		return 'H', true
	case 'Ι':
		return 'I', true
	case 'Κ':
		return 'K', true
	case 'Μ':
		return 'M', true
	case 'Ν':
		return 'N', true
	case 'Ο':
		return 'O', true
	case 'Ρ':
		return 'P', true
	case 'Τ':
		return 'T', true
	case 'Υ':
		return 'Y', true
	case 'Χ':
		return 'X', true
	case 'ο':
		return 'o', true
	case 'ι':
		return 'i', true
	case 'κ':
		return 'k', true
	case 'ν':
		return 'v', true
	case 'ρ':
		return 'p', true
	case 'υ':
		return 'u', true
	case 'χ':
		return 'x', true
	case 'ϲ':
		return 'c', true
	case 'ϳ':
		return 'j', true
	}
	return 0, false
}

// mostlyPrintable reports whether s reads as text: at most one in twenty
// runes is a control character or invalid.
func mostlyPrintable(s string) bool {
	bad, total := 0, 0
	for _, r := range s {
		total++
		if r == utf8.RuneError || r < 0x20 && r != '\n' && r != '\r' && r != '\t' || r == 0x7f {
			bad++
		}
	}
	return total > 0 && bad*20 <= total
}
