package unwrap

import (
	"bytes"
	"slices"
)

// Numbers written in English words ("one hundred and fifteen, ninety-eight")
// are numbers: a sender can spell the code of each character that way.
// They are written back in digits, the text between them kept, so that
// the readers of character codes read them. Only a text with at least
// minCodes numbers in words, one of them more than a digit's word (a
// teen, a ten, a hundred), is rewritten: digits' words alone are a
// spelled value, which unspell reads.

var (
	unitWords = map[string]int{"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
		"ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19}
	tenWords = map[string]int{"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
)

// numberWords returns text with its numbers in words written in digits.
// The text is read once to count them, and written again only if it
// qualifies: a letter's "seven" or "one" must not cost a copy of it (a
// 10 MB call allocated 20 MB here for nothing).
func numberWords(text []byte) ([]byte, bool) {
	if _, ok := rewriteNumberWords(text, false); !ok {
		return nil, false
	}
	return rewriteNumberWords(text, true)
}

// rewriteNumberWords is numberWords, writing the text only when build.
func rewriteNumberWords(text []byte, build bool) ([]byte, bool) {
	var out []byte
	last, numbers, compound := 0, 0, false
	for i := 0; i < len(text); {
		if !isLetter(text[i]) || i > 0 && isLetter(text[i-1]) {
			i++
			continue
		}
		end, v, words := wordNumber(text, i)
		if words == 0 {
			for i < len(text) && isLetter(text[i]) {
				i++
			}
			continue
		}
		numbers++
		compound = compound || words > 1 || v > 9
		if build {
			if out == nil {
				out = make([]byte, 0, len(text))
			}
			out = appendInt(append(out, text[last:i]...), v)
		}
		last, i = end, end
	}
	if numbers < minCodes || !compound {
		return nil, false
	}
	return append(out, text[last:]...), true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// Kinds of number words.
const (
	notNumber = iota
	unitWord
	tenWord
	hundredWord
	andWord
)

// numberWordAt reads the word at j: where it ends, its kind and value.
// It allocates nothing: prose is read word by word.
func numberWordAt(text []byte, j int) (end, kind, v int) {
	var lower [9]byte
	k := j
	for k < len(text) && isLetter(text[k]) {
		if k-j < len(lower) {
			lower[k-j] = text[k] | 0x20
		}
		k++
	}
	if k-j > len(lower) || k-j < 3 {
		return k, notNumber, 0
	}
	w := lower[:k-j]
	if w[0] < 'a' || w[0] > 'z' || w[len(w)-1] < 'a' || w[len(w)-1] > 'z' || !numberShape[len(w)][w[0]-'a'][w[len(w)-1]-'a'] {
		return k, notNumber, 0
	}
	if u, ok := unitWords[string(w)]; ok {
		return k, unitWord, u
	}
	if t, ok := tenWords[string(w)]; ok {
		return k, tenWord, t
	}
	switch string(w) {
	case "hundred":
		return k, hundredWord, 0
	case "and":
		return k, andWord, 0
	}
	return k, notNumber, 0
}

// numberShape holds the length, first and last letter of each number
// word: most words of prose fail it without a map lookup (two lookups a
// word were a fifth of the views' time on a megabyte of prose).
var numberShape = func() (t [10][26][26]bool) {
	add := func(w string) { t[len(w)][w[0]-'a'][w[len(w)-1]-'a'] = true }
	for w := range unitWords {
		add(w)
	}
	for w := range tenWords {
		add(w)
	}
	add("hundred")
	add("and")
	return t
}()

// nextWord is where the word after j starts past one blank or hyphen;
// -1 when none does.
func nextWord(text []byte, j int) int {
	if j+1 < len(text) && (text[j] == ' ' || text[j] == '-') && isLetter(text[j+1]) {
		return j + 1
	}
	return -1
}

// wordNumber reads a number below a thousand in words at i: [unit
// hundred [and]] [ten[-unit] | unit]. words is how many number words it
// took (0: none there).
func wordNumber(text []byte, i int) (end, v, words int) {
	k, kind, u := numberWordAt(text, i)
	switch kind {
	case unitWord:
		end, v, words = k, u, 1
		if s := nextWord(text, k); s > 0 && u > 0 && u < 10 {
			if k2, kind2, _ := numberWordAt(text, s); kind2 == hundredWord {
				end, v, words = k2, u*100, 2
				rest := nextWord(text, k2)
				if rest > 0 {
					if k3, kind3, _ := numberWordAt(text, rest); kind3 == andWord {
						rest = nextWord(text, k3)
					}
				}
				if rest > 0 {
					if e, r, n := tensAndUnits(text, rest); n > 0 {
						end, v, words = e, v+r, words+n
					}
				}
			}
		}
	case tenWord:
		end, v, words = tensAndUnits(text, i)
	}
	return end, v, words
}

// tensAndUnits reads a number below a hundred in words at i.
func tensAndUnits(text []byte, i int) (end, v, words int) {
	k, kind, t := numberWordAt(text, i)
	switch kind {
	case unitWord:
		return k, t, 1
	case tenWord:
		if s := nextWord(text, k); s > 0 {
			if k2, kind2, u := numberWordAt(text, s); kind2 == unitWord && u > 0 && u < 10 {
				return k2, t + u, 2
			}
		}
		return k, t, 1
	}
	return 0, 0, 0
}

func appendInt(out []byte, v int) []byte {
	if v >= 10 {
		out = appendInt(out, v/10)
	}
	return append(out, byte('0'+v%10))
}

// rawCodes appends to out each run of at least minCodes numbers up to
// 255 with the same text between each two, written as the bytes they
// are, when one of them is not the code of printable text (those,
// joinCodes writes as characters). Numbers that stand for characters
// under a mapping (an offset added, indexes into an alphabet sent along)
// are then bytes the comparisons with known secrets read.
func rawCodes(out [][]byte, text []byte) [][]byte {
	var run []byte
	for i := 0; i < len(text); {
		s := nextNumber(text, i)
		if s < 0 {
			break
		}
		var end int
		run, end = codeRun(text, s, run[:0], byteNumber)
		if len(run) < minCodes {
			i = s + 1
			continue
		}
		if slices.ContainsFunc(run, func(c byte) bool { return !codeByte(int(c)) }) {
			out = append(out, bytes.Clone(run))
		}
		i = end
	}
	return out
}

// byteNumber reads the decimal number at i, up to 255.
func byteNumber(text []byte, i int) (end int, c byte, ok bool) {
	v, k := 0, i
	for k < len(text) && text[k] >= '0' && text[k] <= '9' && k-i < 4 {
		v = v*10 + int(text[k]-'0')
		k++
	}
	if k == i || k < len(text) && text[k] >= '0' && text[k] <= '9' || k-i > 3 {
		return k, 0, false
	}
	return k, byte(v), v <= 255
}
