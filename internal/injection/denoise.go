package injection

import "strings"

// Noise that defeats literal rules but not a reader: leetspeak ("1gn0r3
// 4ll pr3v10us"), letters spaced out ("I G N O R E"), typos in the words
// that carry an injection ("ignnore", "instrutcions", "disreagrd") and
// sentences folded across the lines of a YAML or CSV record. denoise
// writes a view of the text with these undone, and the engine scans the
// view too when it differs. Only words of noiseVocab are restored, so
// that clean text (version numbers, hashes, ordinary words) yields no
// view and costs one pass over its words.

// noiseVocab are the words worth restoring: those injections are made of.
var noiseVocab = wordSet(`ignore disregard forget previous prior earlier instructions instruction guidance guidelines
	directions rules system prompt assistant send forward share reveal delete transfer password passwords
	credentials contacts the all and user users your you to of with without telling always copy note notes secret
	secrets key keys email emails files message messages mention admin access tell above now new instead print
	grant give invite account model bot bots copilot agent post push update settings run disable contents
	instrucciones anteriores anweisungen istruzioni precedenti consignes`)

// typoTargets are the words a typo is corrected to: long enough that one
// edit does not turn another real word into them. byFirst indexes them by
// their first letter, bySecond by their second (a typo in the first
// letter).
var typoTargets = strings.Fields(`ignore disregard previous instructions instruction guidance guidelines directions
	directives earlier forget system prompt assistant forward transfer password passwords credentials contacts without
	telling reveal delete access email mention obsolete override bypass collaborator administrator secretly upload
	summarise summarize summary previously following instrucciones anteriores anweisungen istruzioni precedenti
	consignes`)

var typoByFirst, typoBySecond = func() (f, s [26][]string) {
	for _, w := range typoTargets {
		f[w[0]-'a'] = append(f[w[0]-'a'], w)
		s[w[1]-'a'] = append(s[w[1]-'a'], w)
	}
	return f, s
}()

var leet = [256]byte{'0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '$': 's', '|': 'l', '!': 'i', '9': 'g'}

// Byte classes for the token loop: one table lookup a byte.
const (
	bLetter uint8 = 1 << iota
	bDigit
	bSymbol // a leet symbol that may stand inside a token
	bToken  // any byte a token may hold
)

var byteClass = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = bLetter|bToken, bLetter|bToken
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = bDigit | bToken
	}
	t['$'], t['|'] = bSymbol|bToken, bSymbol|bToken
	return t
}()

// denoise returns the view and, for each of its bytes, the offset in src
// it stands for; ok is false when there is nothing to undo.
func denoise(src string) (view string, pos []int, ok bool) {
	var b []byte
	changed := false
	// emit copies src[from:to] or writes repl standing for it.
	start := func() {
		if b == nil {
			b = make([]byte, 0, len(src)+16)
			pos = make([]int, 0, len(src)+16)
		}
	}
	last := 0 // src up to last is in b when b != nil
	flush := func(to int) {
		if b != nil {
			for i := last; i < to; i++ {
				b = append(b, src[i])
				pos = append(pos, i)
			}
		}
		last = to
	}
	replace := func(from, to int, repl string) {
		start()
		flush(from)
		for i := 0; i < len(repl); i++ {
			b = append(b, repl[i])
			pos = append(pos, min(from+i, to-1))
		}
		last = to
		changed = true
	}
	i := 0
	chained := 0 // joiners before it are in a chain read already
	for i < len(src) {
		// Plain words of other lengths than restoreWord looks at, and the
		// spaces between them, are most of any text: skip them in tight
		// loops.
		for i < len(src) {
			c := src[i]
			if (c == '-' || c == '_' || c == '+' || c == '.') && i >= chained && i > 0 && isASCIILetter(rune(src[i-1])) && i+1 < len(src) && isASCIILetter(rune(src[i+1])) {
				// Words joined into one slug, identifier or query
				// string ("ignore-all-previous-instructions",
				// "ignore+all+previous", "ignore.all.previous"): a
				// reader reads them as words. A chain is read once,
				// from its first joiner, so that the work stays
				// linear; the words of a shorter one are read as any
				// others ("AI-assistent", "example.com").
				end, words := joinedWords(src, i)
				chained = end
				if words >= 4 {
					for k := i; k < end; k++ {
						if src[k] == c {
							replace(k, k+1, " ")
						}
					}
					i = end
					continue
				}
			}
			if c >= 'A' && c <= 'Z' && i >= chained && (i == 0 || !isASCIILetter(rune(src[i-1]))) {
				// Words run together in PascalCase
				// ("IgnoreAllPreviousInstructions"): read apart at
				// each capital.
				end, words := camelWords(src, i)
				chained = end
				if words >= 4 {
					for k := i + 1; k < end; k++ {
						if src[k] >= 'A' && src[k] <= 'Z' {
							replace(k, k+1, " "+src[k:k+1])
						}
					}
					i = end
					continue
				}
			}
			if byteClass[c] == 0 && c != '\n' && leet[c] == 0 {
				i++
				continue
			}
			if byteClass[c] == bLetter|bToken {
				j := i + 1
				for j < len(src) && byteClass[src[j]] == bLetter|bToken {
					j++
				}
				if n := j - i; n != 1 && n < 5 || n > 14 {
					if j == len(src) || byteClass[src[j]] == 0 && leet[src[j]] == 0 {
						i = j
						continue
					}
				}
			}
			break
		}
		if i >= len(src) {
			break
		}
		c := src[i]
		switch {
		case c == '\n':
			// A line that goes on in lower case, indented or inside a
			// quoted cell, continues the sentence of the line before; so
			// does a list item that goes on in lower case ("2. stop
			// following\n3. the instructions…"), and a word broken with a
			// hyphen at the end of a line ("summa-\n  rise").
			j := i + 1
			for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
				j++
			}
			item := listMarker(src, j)
			k := j + item
			switch {
			case k >= len(src) || i == 0 || (src[k] < 'a' || src[k] > 'z') && !shoutGoesOn(src, i, k):
			case src[i-1] == '-' && i > 1 && isASCIILetter(rune(src[i-2])) && item == 0 && foldWorth(src, i, j):
				replace(i-1, j, "")
			case isLetterOrComma(src[i-1]) && (j-i > 2 || item > 0 || openQuote(src, i)) && foldWorth(src, i, k):
				replace(i, k, " ")
			}
			i = j
			continue
		case byteClass[c]&(bLetter|bDigit) != 0 || leet[c] != 0 && i+1 < len(src) && byteClass[src[i+1]]&(bLetter|bDigit) != 0:
		default:
			i++
			continue
		}
		// A token: letters, digits and leet symbols.
		j, seen := i, uint8(0)
		for j < len(src) && byteClass[src[j]]&bToken != 0 {
			seen |= byteClass[src[j]]
			j++
		}
		plain := seen&^bLetter == 0
		if j == i {
			j = i + 1
		}
		tok := src[i:j]
		if len(tok) == 1 && isASCIILetter(rune(c)) {
			// Spaced letters: single letters one separator apart, the
			// same one throughout ("I G N O R E", "f·o·r·w·a·r·d",
			// "s-e-n-d", "e_x_p_o_r_t").
			if w, end, ok := joinSeparated(src, i); ok {
				replace(i, end, w)
				i = end
				continue
			}
		}
		// Short plain words are neither leetspeak nor typos worth undoing.
		if !plain || len(tok) >= 5 {
			if r, ok := restoreWord(tok); ok {
				replace(i, j, r)
			}
		}
		i = j
	}
	if !changed {
		return "", nil, false
	}
	flush(len(src))
	return string(b), pos, true
}

// spacedSeparator returns what stands between the single letter before
// src[i] and the next letter, if it could be a spacing separator: a
// space, or one to four bytes with no letter, digit, space or line
// break (punctuation, a middle dot, another script's space, a character
// a reader skips: a red team found each one that a list left out).
func spacedSeparator(src string, i int) string {
	if i < len(src) && src[i] == ' ' {
		return " "
	}
	k := i
	for k < len(src) && k-i < 4 && !isAlnum(src[k]) && src[k] != ' ' && src[k] != '\n' {
		k++
	}
	if k == i || k >= len(src) || !isASCIILetter(rune(src[k])) {
		return ""
	}
	return src[i:k]
}

// joinedWords reads the chain of parts joined by src[i] ('-' or '_')
// that src[i] stands in: it returns where the chain ends and how many of
// its parts are words (letters, perhaps with punctuation after them),
// the part before i included.
func joinedWords(src string, i int) (end, words int) {
	sep := src[i]
	k := i
	for k > 0 && src[k-1] != ' ' && src[k-1] != '\n' && src[k-1] != sep {
		k--
	}
	isWord := func(a, b int) bool {
		letters := 0
		for p := a; p < b; p++ {
			switch c := src[p]; {
			case isASCIILetter(rune(c)):
				letters++
			case byteClass[c]&bDigit != 0:
				return false
			case (c == '/' || c == ':') && (sep == '.' || sep == '+'):
				return false // a URL's or path's part: its dots are no joiners
			}
		}
		// One letter is a spaced-out word's, which is read apart.
		return letters > 1 && letters*2 >= b-a
	}
	if isWord(k, i) {
		words++
	}
	end = i
	for end < len(src) && src[end] == sep && end+1 < len(src) && src[end+1] != ' ' && src[end+1] != '\n' && src[end+1] != sep {
		a := end + 1
		b := a
		for b < len(src) && src[b] != sep && src[b] != ' ' && src[b] != '\n' {
			b++
		}
		if isWord(a, b) {
			words++
		}
		end = b
	}
	return end, words
}

// camelWords reads the run of capitalised words that starts at src[i]
// (an upper-case letter, then lower-case ones, an apostrophe allowed:
// "User's"): where the run ends and how many words it holds. An acronym
// ("XMLHttp") ends it.
func camelWords(src string, i int) (end, words int) {
	end = i
	for end < len(src) && src[end] >= 'A' && src[end] <= 'Z' {
		k := end + 1
		for k < len(src) && (src[k] >= 'a' && src[k] <= 'z' || src[k] == '\'' && k+1 < len(src) && src[k+1] >= 'a' && src[k+1] <= 'z') {
			k++
		}
		if k == end+1 {
			break
		}
		words++
		end = k
	}
	if end < len(src) && isAlnum(src[end]) {
		return end, 0 // part of a longer identifier or a word with digits
	}
	return end, words
}

// restoreWord undoes leetspeak or one typo in tok when that yields a word
// of the vocabulary.
func restoreWord(tok string) (string, bool) {
	letters, subs := 0, 0
	for i := 0; i < len(tok); i++ {
		switch {
		case isASCIILetter(rune(tok[i])):
			letters++
		case leet[tok[i]] != 0:
			subs++
		}
	}
	if subs > 0 && letters >= 1 && subs < len(tok) {
		w := []byte(strings.ToLower(tok))
		for i, c := range w {
			if leet[c] != 0 {
				w[i] = leet[c]
			}
		}
		if noiseVocab[string(w)] {
			return string(w), true
		}
		for i := range w { // 1 is also l ("4ll")
			if tok[i] == '1' {
				w[i] = 'l'
			}
		}
		if noiseVocab[string(w)] {
			return string(w), true
		}
		return "", false
	}
	if subs > 0 || len(tok) < 5 || len(tok) > 14 {
		return "", false
	}
	// Most words share neither first letter and length nor second letter
	// and length with a target: find that out before lower-casing
	// anything.
	c0, c1 := lowerASCII(tok[0]), lowerASCII(tok[1])
	if c0 < 'a' || c0 > 'z' || c1 < 'a' || c1 > 'z' {
		return "", false
	}
	// A typo in the first letter keeps the second and third; one after it
	// keeps the first.
	c2 := lowerASCII(tok[2])
	lw := ""
	try := func(t string) (string, bool) {
		if lw == "" {
			lw = strings.ToLower(tok)
			if noiseVocab[lw] || typoWords[lw] {
				lw = "\x00"
			}
		}
		// Inflections are words, not typos ("systems", "ignored").
		if lw == "\x00" || strings.HasPrefix(lw, t) || strings.HasPrefix(t, lw) {
			return "", false
		}
		return t, osa1(lw, t)
	}
	for _, t := range typoByFirst[c0-'a'] {
		if d := len(tok) - len(t); d >= -1 && d <= 1 {
			if r, ok := try(t); ok {
				return r, true
			}
		}
	}
	for _, t := range typoBySecond[c1-'a'] {
		if len(t) == len(tok) && t[0] != c0 && t[2] == c2 {
			if r, ok := try(t); ok {
				return r, true
			}
		}
	}
	return "", false
}

// typoWords are real words one edit from a target: left as they are.
var typoWords = wordSet(`delegate relate deleted prompts prompted access accent assistants sistem mentions mentor
	forger forged forgets bypasses uploads password's reveals revealed overrides overridden summer summary's`)

// osa1 reports whether a and b are one insertion, deletion, substitution
// or transposition of neighbours apart.
func osa1(a, b string) bool {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	switch {
	case len(a) == len(b):
		if a[i+1:] == b[i+1:] {
			return true
		}
		return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
	case len(a) == len(b)+1:
		return a[i+1:] == b[i:]
	case len(b) == len(a)+1:
		return b[i+1:] == a[i:]
	}
	return false
}

// listMarker returns the length of a list marker at src[j:] ("- ", "* ",
// "• ", "3. ", "12) "), or 0.
func listMarker(src string, j int) int {
	k := j
	switch {
	case strings.HasPrefix(src[j:], "• "):
		return len("• ")
	case k < len(src) && (src[k] == '-' || src[k] == '*' || src[k] == '+'):
		k++
	default:
		for k < len(src) && k-j < 3 && src[k] >= '0' && src[k] <= '9' {
			k++
		}
		if k == j || k >= len(src) || src[k] != '.' && src[k] != ')' {
			return 0
		}
		k++
	}
	if k < len(src) && src[k] == ' ' {
		return k + 1 - j
	}
	return 0
}

func isLetterOrComma(c byte) bool { return isASCIILetter(rune(c)) || c == ',' }

// shoutGoesOn: a line written in capitals (and leet digits) goes on in
// capitals on the next, at k: "1GN0R3 Y0UR PR3V10US\n  1NSTRUCT10NS…".
func shoutGoesOn(src string, i, k int) bool {
	if c := src[k]; !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
		return false
	}
	ls := strings.LastIndexByte(src[:i], '\n') + 1
	letters := 0
	for _, c := range []byte(src[ls:i]) {
		if c >= 'a' && c <= 'z' {
			return false
		}
		if c >= 'A' && c <= 'Z' {
			letters++
		}
	}
	return letters >= 4
}

// openQuote reports whether the line ending at i holds an unclosed double
// quote (a CSV cell going on).
func openQuote(src string, i int) bool {
	ls := strings.LastIndexByte(src[:i], '\n') + 1
	return strings.Count(src[ls:i], `"`)%2 == 1
}

// foldWorth: the words on either side of the break are ones an injection
// is made of, so joining the lines may complete one.
func foldWorth(src string, i, j int) bool {
	a := unleet(strings.ToLower(src[max(0, i-40):i]))
	z := unleet(strings.ToLower(src[j:min(len(src), j+40)]))
	for _, s := range foldStems {
		if strings.Contains(a, s) || strings.Contains(z, s) {
			return true
		}
	}
	return false
}

// unleet maps the leet digits of s to the letters they stand for.
func unleet(s string) string {
	if !strings.ContainsAny(s, "013457") {
		return s
	}
	b := []byte(s)
	for i, c := range b {
		if c >= '0' && c <= '9' && leet[c] != 0 {
			b[i] = leet[c]
		}
	}
	return string(b)
}

var foldStems = []string{"ignor", "disregard", "forget", "instruc", "previous", "prior", "earlier", "rule", "send",
	"forward", "wire", "transfer", "share", "reveal", "assistant", "system", "prompt", "summa", "following", "obey",
	"upload", "user", "direction", "guidance"}

// joinSeparated reads single letters one separator apart from src[i]
// (a letter standing alone): the word they spell and the end of the run.
// Three letters make a word only if it is one of noiseVocab ("T H E");
// with a separator other than a space, four ("U.S.A." stays).
func joinSeparated(src string, i int) (string, int, bool) {
	if i+2 >= len(src) {
		return "", 0, false
	}
	sep := spacedSeparator(src, i+1)
	if sep == "" {
		return "", 0, false
	}
	alone := func(k int) bool { return isASCIILetter(rune(src[k])) && (k+1 == len(src) || !isAlnum(src[k+1])) }
	var w strings.Builder
	k := i
	for alone(k) {
		w.WriteByte(src[k])
		next := k + 1 + len(sep)
		if next < len(src) && strings.HasPrefix(src[k+1:], sep) && alone(next) {
			k = next
			continue
		}
		break
	}
	n := w.Len()
	switch {
	case n >= 4 && (sep == " " || n >= 5):
	case n >= 3 && noiseVocab[strings.ToLower(w.String())]:
	default:
		return "", 0, false
	}
	end := k + 1
	if sep != " " && strings.HasPrefix(src[end:], sep) {
		end += len(sep) // the separator after the word's last letter
	}
	return w.String(), end, true
}
