// Package opaque finds the parts of a text that carry data a reader cannot
// read: runs of characters with the statistics of random bytes (a key, or
// a key after any reversible transformation an attacker picks: a
// rotation, XOR and hex, another base, a shuffled alphabet, filler
// letters), and invisible characters that spell something. It does not
// try to decode them: it says how much unreadable payload a text carries,
// so that a session holding a secret can judge a call by that amount
// instead of by a list of encodings.
//
// Benign shapes are not payload: UUIDs, hex digests of the usual sizes,
// base64 that decodes to readable text, words, identifiers in camelCase or
// snake_case, version strings, numbers up to the length of timestamps and
// phone numbers. It is pure and linear in the text's size.
package opaque

import (
	"encoding/base64"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Run is one stretch of payload.
type Run struct {
	Text string // as found (for invisible characters, what they spell)
	Len  int    // characters of payload it carries
}

// MinRun is the shortest run judged by itself: below it, random and
// ordinary tokens cannot be told apart by their statistics.
const MinRun = 12

// minWord is the shortest word judged whole before it is cut at quotes,
// brackets and structure: shorter code (useState([]);) has the class
// changes of random text.
const minWord = 16

// MinPiece is the shortest run counted as one of several pieces of a
// payload cut up (numbered chunks, a key spread over arguments): it must
// switch character classes at almost every character, as ordinary tokens
// do not.
const MinPiece = 4

// Find returns the payload runs of text, longest judged first within the
// order they appear. Pieces (shorter runs) are returned too, with Len
// their length, for the caller to add up.
func Find(text string) []Run {
	var out []Run
	if r, ok := invisible(text); ok {
		out = append(out, r)
	}
	for rest := text; rest != ""; {
		// The words one by one: a long text is not copied into a slice.
		rest = rest[spaceEnd(rest):]
		end := wordEnd(rest)
		word := rest[:end]
		rest = rest[end:]
		if word == "" {
			break
		}
		// Judged whole first: ROT47 or ASCII85 output uses the quotes,
		// brackets and punctuation that delimit strings in code.
		// notRandom: the word was judged whole and is not random, so a
		// piece that is the whole word is not judged again.
		notRandom := false
		if n := utf8.RuneCountInString(word); n >= minWord && !strings.Contains(word, "://") {
			if !random(word) {
				notRandom = true
			} else if words(word) == 0 {
				out = append(out, Run{Text: word, Len: n})
				continue
			}
		}
		piece := func(part string) {
			if notRandom && len(part) == len(word) {
				return
			}
			if n := utf8.RuneCountInString(part); n >= MinPiece && random(part) {
				out = append(out, Run{Text: part, Len: n})
			}
		}
		fields(word, separator, func(tok string) {
			if structured(tok) {
				fields(tok, structure, piece)
			} else {
				piece(tok)
			}
		})
	}
	return out
}

// spaceEnd is where the white space (unicode.IsSpace) that starts s ends.
func spaceEnd(s string) int {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if !asciiSpace[c] {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			return i
		}
		i += n
	}
	return len(s)
}

// wordEnd is where the first white space of s starts, or len(s).
func wordEnd(s string) int {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if asciiSpace[c] {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			return i
		}
		i += n
	}
	return len(s)
}

// asciiSpace is unicode.IsSpace of the ASCII bytes.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// Total is the payload a text carries: the sum of its runs.
func Total(runs []Run) int {
	n := 0
	for _, r := range runs {
		n += r.Len
	}
	return n
}

// words counts the parts of a word, cut at quotes and brackets, that are
// words or identifiers of three letters or more: a word with one is
// markup or code, not a rotated key, and is judged by its parts.
func words(word string) int {
	n := 0
	fields(word, func(r rune) bool { return separator(r) || r == '/' || r == ':' || r == ';' || r == '.' }, func(part string) {
		if len(part) >= 3 && identifier(part) {
			n++
		}
	})
	return n
}

// separator splits a word into tokens at the quotes and brackets that
// delimit strings in code and JSON.
func separator(r rune) bool {
	return r == '"' || r == '\'' || r == '`' || r == '(' || r == ')' || r == '[' || r == ']' ||
		r == '{' || r == '}' || r == '<' || r == '>' || r == ','
}

// structured reports a token with the structure of a URL, a path, a
// key=value pair or a numbered chunk ("3:abc"), whose parts are judged
// apart; a token with no such structure is judged whole, so that ROT47
// or ASCII85 output, which uses the same punctuation, is not cut into
// short pieces.
func structured(tok string) bool {
	return strings.Contains(tok, "://") || strings.HasPrefix(tok, "/") || strings.HasPrefix(tok, "./") ||
		strings.Count(tok, "/") >= 2 || strings.Count(tok, "=") == 1 && !strings.HasSuffix(tok, "=") ||
		numbered(tok)
}

// structure separates the parts of a structured token.
func structure(r rune) bool {
	return r == '/' || r == '?' || r == '&' || r == '=' || r == '#' || r == ':' || r == ';'
}

// fields calls fn with each non-empty field of s between runes sep
// accepts, without collecting them in a slice.
func fields(s string, sep func(rune) bool, fn func(string)) {
	for s != "" {
		i := strings.IndexFunc(s, sep)
		if i < 0 {
			fn(s)
			return
		}
		if i > 0 {
			fn(s[:i])
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		s = s[i+size:]
	}
}

// numbered reports a chunk label: digits then a colon or a dot.
func numbered(tok string) bool {
	i := 0
	for i < len(tok) && tok[i] >= '0' && tok[i] <= '9' {
		i++
	}
	return i > 0 && i < 4 && i < len(tok) && (tok[i] == ':' || tok[i] == '.' || tok[i] == ')')
}

// random reports whether a token has the statistics of random data in its
// alphabet and no benign shape.
func random(s string) bool {
	s = strings.Trim(s, "=<>()[]{}'\"`,;:.!?")
	n := utf8.RuneCountInString(s)
	// Switches count changes of class between letters and digits,
	// punctuation left out: random data changes class at most
	// characters, words and numbers at their joins.
	var classes [5]int // lower, upper, digit, punctuation, other
	var freq [128]uint16
	prev, switches, alnum := -1, 0, 0
	for _, r := range s {
		c := class(r)
		if c == 4 {
			return false // letters of other scripts: text, not an encoding of bytes
		}
		classes[c]++
		freq[r]++
		if c > 2 {
			continue
		}
		if alnum++; prev >= 0 && c != prev {
			switches++
		}
		prev = c
	}
	if classes[0]+classes[1] == 0 {
		// Numbers, lists of them, dates, addresses and versions, unless
		// one number runs longer than timestamps, phone and card numbers.
		return digitRun(s) >= 24
	}
	// The cheap tests first: most words of a text fail them, and only the
	// rest are matched against benign shapes.
	ratio := float64(switches) / float64(max(alnum-1, 1))
	oneCase := classes[0] == 0 || classes[1] == 0
	switch {
	case n < MinRun && !(classes[0] > 0 && classes[1] > 0 && classes[2] > 0 && ratio >= 0.6),
		n >= MinRun && !oneCase && ratio < 0.35,
		n >= MinRun && oneCase && !hexDigits(s) && !strings.ContainsAny(s, "-_.") && pronounceable(s):
		return false
	}
	if benign(s) {
		return false
	}
	h := entropy(&freq, n)
	if hexDigits(s) && classes[2] > 0 && classes[0]+classes[1] > 0 {
		// Hex of bytes that are not a digest (benign has those lengths):
		// its nibbles need not change class, and ASCII bytes give it a
		// narrow first nibble.
		return n >= 2*MinRun && n != 24 && h >= 2.8
	}
	alphabet := 0
	for c, size := range []int{26, 26, 10, 32} {
		if classes[c] > 0 {
			alphabet += size
		}
	}
	best := math.Log2(math.Min(float64(n), float64(alphabet)))
	switch {
	case n < MinRun:
		// A piece: it mixes lower and upper case letters and digits and
		// changes class at nearly every character (units, part numbers
		// and code points mix two).
		return classes[0] > 0 && classes[1] > 0 && classes[2] > 0 && ratio >= 0.6 && h >= 0.8*best && distinct(&freq) >= n-1
	case classes[0] == 0 || classes[1] == 0:
		// Letters of one case, with digits or not (a word, base32,
		// base36): random letters have runs of consonants no language
		// has; their class changes say little. base32 and base36 have no
		// dashes, underscores or dots: a name made of parts
		// (ipython-input-43-d710bb467cdd) is judged by its longest.
		if strings.ContainsAny(s, "-_.") {
			parts := strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || r == '.' })
			longest := slices.MaxFunc(parts, func(a, b string) int { return len(a) - len(b) })
			return len(longest) >= MinRun && random(longest)
		}
		return !pronounceable(s) && h >= 0.7*best
	}
	return h >= 0.7*best && ratio >= 0.35
}

// digitRun is the longest run of digits in s.
func digitRun(s string) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

func class(r rune) int {
	switch {
	case r >= 'a' && r <= 'z':
		return 0
	case r >= 'A' && r <= 'Z':
		return 1
	case r >= '0' && r <= '9':
		return 2
	case r > ' ' && r < 0x7f:
		return 3
	}
	return 4
}

func entropy(freq *[128]uint16, n int) float64 {
	h := 0.0
	for _, c := range freq {
		if c > 0 {
			p := float64(c) / float64(n)
			h -= p * math.Log2(p)
		}
	}
	return h
}

func distinct(freq *[128]uint16) int {
	d := 0
	for _, c := range freq {
		if c > 0 {
			d++
		}
	}
	return d
}

// pronounceable reports whether the letters of s have vowels spread as
// in words of natural languages: no word with six consonants in a row
// ("strengths" has five). Digits between letters are skipped, so that
// base36 letters are judged together.
func pronounceable(s string) bool {
	run := 0
	for _, r := range s {
		r = lower(r)
		switch {
		case r >= '0' && r <= '9':
		case strings.ContainsRune("aeiouy", r) || r < 'a' || r > 'z':
			run = 0
		default:
			if run++; run >= 6 {
				return false
			}
		}
	}
	return true
}

// benign reports the high-entropy shapes ordinary calls carry.
func benign(s string) bool {
	t := strings.Trim(s, ".:;!?-_")
	switch {
	case uuid(t):
		return true
	case hexDigits(t) && (len(t) <= 12 || len(t) == 32 || len(t) == 40 || len(t) == 64 || len(t) == 128):
		return true // short and full git object names, md5, sha1, sha256, sha512
	case identifier(t):
		return true
	case readableBase64(t):
		return true
	}
	return false
}

func uuid(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, r := range s {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if r != '-' {
				return false
			}
		} else if !isHex(r) {
			return false
		}
	}
	return true
}

func hexDigits(s string) bool {
	if s == "" {
		return false
	}
	lower, upper := false, false
	for _, r := range s {
		if !isHex(r) {
			return false
		}
		lower = lower || r >= 'a' && r <= 'f'
		upper = upper || r >= 'A' && r <= 'F'
	}
	return !(lower && upper)
}

func isHex(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F'
}

// identifier reports names made of words: camelCase, PascalCase,
// snake_case, kebab-case and dotted names whose parts are pronounceable
// words of two letters or more, with at most a short number in each.
func identifier(s string) bool {
	words, abbrevs := 0, 0
	// The word being read is s[start:end]: each rune is either a
	// separator, which ends it, or the next of it.
	start, end := 0, 0
	flush := func() bool {
		if end == start {
			return true
		}
		w := s[start:end]
		start = end
		letters := strings.TrimRightFunc(w, unicode.IsDigit)
		if inner := strings.IndexFunc(letters, unicode.IsDigit); inner >= 0 {
			// One short number inside a word (Pool1d, utf8mb4), not
			// digits strewn through it.
			rest := strings.TrimLeftFunc(letters[inner:], unicode.IsDigit)
			if len(letters)-len(rest)-inner > 2 || strings.IndexFunc(rest, unicode.IsDigit) >= 0 || inner < 3 {
				return false
			}
			letters = letters[:inner] + rest
		}
		switch {
		case len(w)-len(letters) > 3:
			return false
		case len(letters) <= 1 && len(w) <= 4:
			return true // a letter or a number (x_y, X-Request-Id, v2.3.1)
		case len(letters) <= 3 && len(w) == len(letters) && !hasVowel(letters):
			abbrevs++ // pd, df, Mc, fmt: judged by the words beside it
			return true
		case !pronounceable(letters) || !hasVowel(letters):
			return false
		}
		words++
		return true
	}
	prev := rune(-1) // none
	for i, r := range s {
		size := utf8.RuneLen(r)
		if r == utf8.RuneError {
			_, size = utf8.DecodeRuneInString(s[i:])
		}
		switch {
		case r == '_' || r == '-' || r == '.':
			if !flush() {
				return false
			}
			start = i + size
		case unicode.IsUpper(r) && prev >= 0 && (unicode.IsLower(prev) || unicode.IsUpper(prev) && nextLower(s[i+size:])):
			end = i
			if !flush() {
				return false
			}
		case r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
		default:
			return false
		}
		end, prev = i+size, r
	}
	return flush() && words > 0 && abbrevs <= words
}

// nextLower reports whether s starts with a lower-case letter.
func nextLower(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return s != "" && unicode.IsLower(r)
}

func hasVowel(s string) bool {
	for _, r := range s {
		switch lower(r) {
		case 'a', 'e', 'i', 'o', 'u', 'y':
			return true
		}
	}
	return false
}

// lower is r as strings.ToLower writes it, without building the string:
// the words of a long text are judged one by one.
func lower(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return r
	}
	return unicode.ToLower(r)
}

// readableBase64 reports base64 of readable text: a document or a
// message, not bytes.
func readableBase64(s string) bool {
	if len(s) < 16 {
		return false
	}
	// Decoded on the stack where it fits: most tokens tried are short.
	var small [192]byte
	buf := small[:]
	if n := base64.StdEncoding.DecodedLen(len(s)) + 3; n > len(small) {
		buf = make([]byte, n)
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		n, err := enc.Decode(buf, []byte(s))
		if err != nil || n == 0 {
			continue
		}
		b := buf[:n]
		letters, spaces := 0, 0
		for _, c := range b {
			switch {
			case c == ' ' || c == '\n':
				spaces++
			case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
				letters++
			case c < ' ' && c != '\t' && c != '\r' || c >= 0x7f:
				return false
			}
		}
		return spaces > 0 && letters*10 >= len(b)*6 && len(b)/(spaces+1) < 12
	}
	return false
}

// invisible returns what the invisible characters of text spell, when
// they carry MinRun characters or more: Unicode TAG characters map to
// ASCII one for one; other format characters (zero-width spaces and
// joiners, word joiners) carry at most a bit each, so eight count as one
// character.
func invisible(text string) (Run, bool) {
	var b strings.Builder
	tags, other := 0, 0
	for _, r := range text {
		switch {
		case r < utf8.RuneSelf:
			// No format character is ASCII.
		case r >= 0xE0020 && r <= 0xE007E:
			b.WriteRune(r - 0xE0000)
			tags++
		case unicode.Is(unicode.Cf, r) || r >= 0xE0100 && r <= 0xE01EF:
			other++
		}
	}
	n := tags + other/8
	return Run{Text: b.String(), Len: n}, n >= MinRun
}
