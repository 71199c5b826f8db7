package unwrap

import (
	"bytes"
	"unicode/utf8"
)

// Morse code is a spelling of characters like the NATO alphabet's: dots
// and dashes, a character a group, groups split by one blank, words by a
// slash or more blanks. What it spells is in lower case: the case of a
// key is lost, which only case-blind matching (the canonical forms of
// what flowd read) gets past.

// minMorse is the fewest characters of a run read as Morse: shorter
// runs of dots and dashes are rules and ellipses.
const minMorse = 16

var morseCodes = func() map[string]byte {
	m := map[string]byte{}
	for c, code := range map[byte]string{
		'a': ".-", 'b': "-...", 'c': "-.-.", 'd': "-..", 'e': ".", 'f': "..-.", 'g': "--.", 'h': "....",
		'i': "..", 'j': ".---", 'k': "-.-", 'l': ".-..", 'm': "--", 'n': "-.", 'o': "---", 'p': ".--.",
		'q': "--.-", 'r': ".-.", 's': "...", 't': "-", 'u': "..-", 'v': "...-", 'w': ".--", 'x': "-..-",
		'y': "-.--", 'z': "--..", '0': "-----", '1': ".----", '2': "..---", '3': "...--", '4': "....-",
		'5': ".....", '6': "-....", '7': "--...", '8': "---..", '9': "----.", '_': "..--.-", '-': "-....-",
		'=': "-...-", '.': ".-.-.-", '/': "-..-.", '+': ".-.-.", ':': "---...", '@': ".--.-.",
		'?': "..--..", '!': "-.-.--", ',': "--..--", '(': "-.--.", ')': "-.--.-", '&': ".-...", ';': "-.-.-.",
		'"': ".-..-.", '$': "...-..-", '\'': ".----.",
	} {
		m[code] = c
	}
	return m
}()

func morseByte(c byte) bool { return c == '.' || c == '-' }

// caseMark is a byte written right before a code to say the letter is a
// capital: Morse has no case, and a sender that keeps it marks it so.
func caseMark(c byte) bool {
	return c == '^' || c == '*' || c == '!' || c == '+' || c == '#' || c == '~'
}

// morseSep is a byte between codes: blanks, a slash or bar between words,
// a list's comma and quotes.
func morseSep(c byte) bool {
	return c == ' ' || c == '/' || c == '|' || c == ',' || c == '"' || c == '\'' || c == '\n' || c == '\t'
}

// maxMorseSep is the longest separator between two codes of a run.
const maxMorseSep = 4

// unmorse returns text with runs of Morse code spelled out; ok is false
// when there are none. Codes Morse has no letter for (or the sender made
// up) are written '?': a run is read while most of its codes are known.
func unmorse(text []byte) ([]byte, bool) {
	text = morseGlyphs(text)
	if !bytes.Contains(text, []byte(".-")) && !bytes.Contains(text, []byte("-.")) {
		return nil, false
	}
	var out, run []byte
	last := 0
	for i := 0; i < len(text); {
		if !morseStart(text, i) {
			i++
			continue
		}
		run = run[:0]
		unknown := 0
		j, end := i, i
		for j < len(text) {
			s := markedCode(text, j)
			up := s > j
			k := s
			for k < len(text) && morseByte(text[k]) && k-s < 7 {
				k++
			}
			if k == s || k < len(text) && morseByte(text[k]) {
				break
			}
			c, ok := morseCodes[string(text[s:k])]
			switch {
			case !ok:
				c = '?'
				unknown++
			case up && c >= 'a' && c <= 'z':
				c -= 'a' - 'A'
			}
			run = append(run, c)
			end = k
			// Separators between characters; " / " or more blanks
			// between words, which the value has none of.
			j = k
			for j < len(text) && morseSep(text[j]) && j-k < maxMorseSep {
				j++
			}
			if j == k || j >= len(text) || !morseByte(text[j]) && markedCode(text, j) == j {
				break
			}
		}
		if len(run) < minMorse || unknown*8 > len(run) {
			i = max(end, i+1)
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(text))
		}
		out = append(append(out, text[last:i]...), run...)
		last, i = end, end
	}
	if out == nil {
		return nil, false
	}
	return append(out, text[last:]...), true
}

// morseStart reports whether a code may start at text[i]: a dot or dash,
// or a case mark before one, not inside a code.
func morseStart(text []byte, i int) bool {
	if !morseByte(text[i]) && markedCode(text, i) == i {
		return false
	}
	return i == 0 || !morseByte(text[i-1]) && !caseMark(text[i-1]) && !isLetter(text[i-1])
}

// markedCode is where the code after a capital's mark at text[i] starts:
// a mark byte ("^.-"), or a word saying so ("cap-.-", "CAPITAL .-", as
// NATO spellings say it) and a hyphen or blank; i when there is none.
func markedCode(text []byte, i int) int {
	c := text[i]
	if caseMark(c) {
		if i+1 < len(text) && morseByte(text[i+1]) {
			return i + 1
		}
		return i
	}
	if !isLetter(c) || i > 0 && isAlnumByte(text[i-1]) {
		return i
	}
	k := alnumRun(text, i)
	if w, ok := lookupSpoken(text[i:k]); !ok || w != caseUp || k+1 >= len(text) || text[k] != '-' && text[k] != ' ' || !morseByte(text[k+1]) {
		return i
	}
	return k + 1
}

// morseGlyphs returns text with the other ways dots and dashes are
// written made '.' and '-': the middle dot, bullet and operator dot, the
// minus sign and en and em dashes, an underscore beside a dot, and the
// spoken "di-dah-dit" (elements joined by hyphens, a letter a word). It
// returns text itself when it holds none.
func morseGlyphs(text []byte) []byte {
	spoken := bytes.Contains(text, []byte("dah")) || bytes.Contains(text, []byte("Dah")) || bytes.Contains(text, []byte("DAH"))
	if !spoken && !glyphPair(text) && !bytes.Contains(text, []byte("._")) && !bytes.Contains(text, []byte("_.")) {
		return text
	}
	// out is written from the first change on: text that merely holds
	// "._" (Python's self._x) is read, not copied.
	var out []byte
	for i := 0; i < len(text); {
		n, c := i, byte(0)
		if spoken {
			n = spokenElements(text, i, nil)
		}
		if n == i {
			if c, n = glyphAt(text, i); n > 0 {
				n += i
			} else {
				n = underscoreCode(text, i)
			}
		}
		if n == i {
			if out != nil {
				out = append(out, text[i])
			}
			i++
			continue
		}
		if out == nil {
			out = append(make([]byte, 0, len(text)), text[:i]...)
		}
		switch {
		case c != 0:
			out = append(out, c)
		case spoken && spokenElements(text, i, &out) > i:
		default:
			for _, c := range text[i:n] {
				if c == '_' {
					c = '-'
				}
				out = append(out, c)
			}
		}
		i = n
	}
	if out == nil {
		return text
	}
	return out
}

// spokenElements reads a letter said as "di-dah-dit" at text[i] (a word
// of "di", "dit", "da", "dah" joined by hyphens), appends its dots and
// dashes to out unless out is nil, and returns where it ends; i when
// none starts there.
func spokenElements(text []byte, i int, out *[]byte) int {
	if i > 0 && isLetter(text[i-1]) {
		return i
	}
	j := i
	for {
		k := alnumRun(text, j)
		w := text[j:k]
		var el byte
		switch {
		case bytes.EqualFold(w, []byte("di")) || bytes.EqualFold(w, []byte("dit")):
			el = '.'
		case bytes.EqualFold(w, []byte("da")) || bytes.EqualFold(w, []byte("dah")):
			el = '-'
		case j == i:
			return i
		default:
			// The hyphen that ended the last element joined no other.
			return j - 1
		}
		if out != nil {
			*out = append(*out, el)
		}
		if k >= len(text) || text[k] != '-' {
			return k
		}
		j = k + 1
	}
}

// glyphAt is the dot or dash a glyph outside ASCII at text[i] writes,
// and its size; size is 0 when none is there.
func glyphAt(text []byte, i int) (byte, int) {
	if text[i] < utf8.RuneSelf {
		return 0, 0
	}
	switch r, size := utf8.DecodeRune(text[i:]); r {
	case '·', '•', '∙', '⋅':
		return '.', size
	case '−', '–', '—':
		return '-', size
	}
	return 0, 0
}

// glyphPair reports whether text holds a dot or dash glyph outside ASCII
// beside another element: a dash between words of prose is no code, and
// text with one is not copied.
func glyphPair(text []byte) bool {
	for _, lead := range [...]byte{0xC2, 0xE2} {
		for i := 0; ; i++ {
			k := bytes.IndexByte(text[i:], lead)
			if k < 0 {
				break
			}
			i += k
			_, n := glyphAt(text, i)
			if n == 0 {
				continue
			}
			if i > 0 && morseByte(text[i-1]) || i+n < len(text) && (morseByte(text[i+n]) || glyphAfter(text, i+n)) {
				return true
			}
		}
	}
	return false
}

// underscoreCode is where a code written with underscores for dashes
// ("._ _..") that starts at text[i] ends: a group of dots and
// underscores, both, no longer than a code, standing apart from words
// ("__init__.py" is no code); i when none starts there.
func underscoreCode(text []byte, i int) int {
	if i > 0 && (isAlnumByte(text[i-1]) || text[i-1] == '.' || text[i-1] == '_') {
		return i
	}
	j, bars := i, 0
	for ; j < len(text) && (text[j] == '.' || text[j] == '_') && j-i <= 7; j++ {
		bars += boolInt(text[j] == '_')
	}
	if bars == 0 || j-i > 7 || j < len(text) && isAlnumByte(text[j]) {
		return i
	}
	return j
}

func glyphAfter(text []byte, i int) bool {
	_, n := glyphAt(text, i)
	return n > 0
}
