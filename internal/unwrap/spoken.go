package unwrap

import (
	"bytes"
	"strings"
)

// A value read out over the phone is spelled in words: letters by the
// NATO alphabet, digits and symbols by name, upper case said aloud. An
// agent can spell a key the same way to get it past a matcher; the words
// are put back into characters here. Only a run of minSpoken such words
// is read, so prose that names a digit or says "alpha" keeps its words.

// minSpoken is how many spelled words in a row make a spelled value.
const minSpoken = 8

// spokenChar is what a spelled word stands for: a character, or (caseUp,
// caseDown) a word that sets the case of the next letter.
const (
	caseUp   = 1
	caseDown = 2
)

var spokenWords = func() map[string]byte {
	m := map[string]byte{}
	for i, w := range []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliett", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor", "whiskey", "xray", "yankee", "zulu"} {
		m[w] = 'a' + byte(i)
	}
	// Spellings the alphabet is often written with.
	for w, c := range map[string]byte{"alfa": 'a', "juliet": 'j', "x-ray": 'x', "whisky": 'w'} {
		m[w] = c
	}
	for i, w := range []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"} {
		m[w] = '0' + byte(i)
	}
	m["niner"] = '9'
	// Digits by name in other common languages (ASCII spellings; a word
	// with an accent is read as it is).
	for _, ws := range []string{
		"null eins zwei drei vier funf sechs sieben acht neun",
		"zero un deux trois quatre cinq six sept huit neuf",
		"cero uno dos tres cuatro cinco seis siete ocho nueve",
		"zero uno due tre quattro cinque sei sette otto nove",
		"zero um dois tres quatro cinco seis sete oito nove",
		"nul een twee drie vier vijf zes zeven acht negen",
	} {
		for i, w := range strings.Fields(ws) {
			if _, taken := m[w]; !taken {
				m[w] = '0' + byte(i)
			}
		}
	}
	for w, c := range map[string]byte{
		"underscore": '_', "dash": '-', "hyphen": '-', "minus": '-', "dot": '.', "period": '.', "point": '.',
		"slash": '/', "colon": ':', "equals": '=', "equal": '=', "plus": '+', "at": '@', "hash": '#',
	} {
		m[w] = c
	}
	for _, w := range []string{"capital", "uppercase", "upper", "cap", "caps", "big"} {
		m[w] = caseUp
	}
	for _, w := range []string{"small", "lowercase", "lower"} {
		m[w] = caseDown
	}
	return m
}()

// unspell returns text with runs of spelled words put back into the
// characters they spell; ok is false when there are none. Between the
// words of a run may stand any separators (blanks, commas, line breaks,
// slashes) and characters written as themselves (a digit in a run of
// letters spelled out).
func unspell(text []byte) ([]byte, bool) {
	var out []byte
	last := 0
	for i := 0; i < len(text); {
		j := wordEnd(text, i)
		if j == i {
			i++
			continue
		}
		if _, ok := lookupSpoken(text[i:j]); !ok {
			i = j
			continue
		}
		end, joined := spokenRun(text, i)
		if joined == nil {
			i = max(j, end)
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(text))
		}
		out = append(out, text[last:i]...)
		out = append(out, joined...)
		last, i = end, end
	}
	if out == nil {
		return nil, false
	}
	return append(out, text[last:]...), true
}

// spokenRun reads the run of spelled words starting at text[i]: where it
// ends and what it spells; joined is nil when it spells too little.
func spokenRun(text []byte, i int) (end int, joined []byte) {
	words, up := 0, false
	j := i
	for {
		k := wordEnd(text, j)
		if k == j {
			break
		}
		c, ok := lookupSpoken(text[j:k])
		switch {
		case ok && (c == caseUp || c == caseDown):
			up = c == caseUp
		case ok:
			if up && c >= 'a' && c <= 'z' {
				c -= 'a' - 'A'
			}
			joined = append(joined, c)
			words, up = words+1, false
		case k-j == 1:
			// A character written as itself.
			joined = append(joined, text[j])
		default:
			k = j
		}
		if k == j {
			break
		}
		end = k
		j = skipSeparator(text, k)
		if j == k || j >= len(text) {
			break
		}
	}
	if words < minSpoken {
		// end says how far the run went: no run starting inside it
		// spells more, so the caller skips it (read again from each of
		// its words, "big big big …" was quadratic).
		return end, nil
	}
	return end, joined
}

// wordEnd returns where the word (ASCII letters and digits; "x-ray" with
// its hyphen) starting at text[i] ends; i when none starts there.
func wordEnd(text []byte, i int) int {
	if i > 0 && isAlnumByte(text[i-1]) {
		return i
	}
	j := alnumRun(text, i)
	if j == i+1 && text[i]|0x20 == 'x' && j+3 < len(text) && text[j] == '-' && bytes.EqualFold(text[j+1:j+4], []byte("ray")) {
		j = alnumRun(text, j+1)
	}
	return j
}

// skipSeparator returns where the separator at text[i] (blanks, commas,
// line breaks, slashes, bars, quotes: up to maxSep bytes, no letters)
// ends; i when there is none, or it is longer.
func skipSeparator(text []byte, i int) int {
	j := i
	for j < len(text) && j-i < maxSep && strings.IndexByte(" \t\r\n,;/|.'\"-", text[j]) >= 0 {
		j++
	}
	if j < len(text) && j-i == maxSep && !isAlnumByte(text[j]) {
		return i
	}
	return j
}

// spokenShape holds, by length, first and last letter, the spelled word
// of that shape, or that several are: most words of prose fail it, and
// most that pass it are told apart from their one candidate without
// hashing them for the map (a megabyte of prose spent a twentieth of
// its views' time there: "the" is Italian "tre"'s shape).
type spokenEntry struct {
	word    string
	c       byte
	several bool
}

var spokenShape = func() (t [11][26][26]spokenEntry) {
	for w, c := range spokenWords {
		e := &t[len(w)][w[0]-'a'][w[len(w)-1]-'a']
		e.several = e.word != ""
		e.word, e.c = w, c
	}
	return t
}()

// lookupSpoken is the character a spelled word stands for, case-folded.
func lookupSpoken(w []byte) (byte, bool) {
	if len(w) < 2 || len(w) > 10 {
		return 0, false
	}
	first, last := w[0]|0x20, w[len(w)-1]|0x20
	if first < 'a' || first > 'z' || last < 'a' || last > 'z' {
		return 0, false
	}
	e := &spokenShape[len(w)][first-'a'][last-'a']
	if e.word == "" {
		return 0, false
	}
	var buf [10]byte
	for k, c := range w {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[k] = c
	}
	if e.several {
		c, ok := spokenWords[string(buf[:len(w)])]
		return c, ok
	}
	return e.c, string(buf[:len(w)]) == e.word
}
