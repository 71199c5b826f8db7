package secrets

import (
	"strings"
)

// Signals about a candidate value's shape, shared by the rules. They decide
// between "a credential", "not a credential at all" (a placeholder, a
// variable, a word) and "a documented example".

// padded reports a value dominated by one repeated character
// (AKIAXXXXXXXXXXXXXXXX, ghp_xxxx…, xoxa-2-511111111-311111…): a template
// or an illustration. In a random key of 12 or more characters no byte
// comes near 40% of the value; real formats with a fixed run (Twitter's
// 22 leading A's) stay well under it.
func padded(v string) bool {
	if len(v) < 12 {
		return false
	}
	var counts [256]int
	top := 0
	for i := 0; i < len(v); i++ {
		counts[v[i]]++
		top = max(top, counts[v[i]])
	}
	return top*5 >= len(v)*2
}

// looksLikeExample reports a documented or illustrative value: one that says
// EXAMPLE, contains a counting sequence ("abcdef", "123456", "klmnop") that
// a random key practically never does, or is shown elided ("ops_eyJz...").
func looksLikeExample(v string) bool {
	if containsFold(v, "example") || strings.HasSuffix(v, "...") || strings.Contains(v, "…") {
		return true
	}
	return sequenceRun(v) >= 6
}

// sequenceRun returns the longest run of consecutive ascending letters or
// digits (case-insensitive).
func sequenceRun(v string) int {
	best, run := 1, 1
	for i := 1; i < len(v); i++ {
		a, b := lowerASCII(v[i-1]), lowerASCII(v[i])
		if b == a+1 && (isDigit(a) && isDigit(b) || isLower(a) && isLower(b)) {
			run++
			best = max(best, run)
		} else {
			run = 1
		}
	}
	if len(v) == 0 {
		return 0
	}
	return best
}

func containsFold(s, sub string) bool {
	n := len(sub)
	for i := 0; i+n <= len(s); i++ {
		if strings.EqualFold(s[i:i+n], sub) {
			return true
		}
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isAlpha(c byte) bool { return isLower(c) || isUpper(c) }
func isAlnum(c byte) bool { return isAlpha(c) || isDigit(c) }

// wordish reports whether v reads as words or an identifier (camelCase,
// snake_case, dotted names, "NEXUS-GPT4-API-KEY", "SalesResults-1.2") rather
// than random characters. Random tokens split into short, vowel-poor or
// consonant-heavy pieces; words do not.
func wordish(v string) bool {
	letters, wordLetters, segs := 0, 0, 0
	g := segmenter{v: v}
	for seg, ok := g.next(); ok; seg, ok = g.next() {
		if !isAlpha(seg[0]) {
			continue
		}
		segs++
		letters += len(seg)
		if wordLike(seg) {
			wordLetters += len(seg)
		}
	}
	if letters == 0 {
		return false
	}
	// Words are mostly word-like pieces of some length; random mixed-case
	// text breaks into many short pieces, a few of which look like words.
	return float64(wordLetters) >= 0.8*float64(letters) && letters >= 3*segs
}

// segmenter splits a string into runs of letters or digits, also breaking
// at lower-to-upper case changes ("genericToken" → "generic", "Token";
// "APIKey" → "API", "Key"), without allocating.
type segmenter struct {
	v string
	i int
}

func (g *segmenter) next() (string, bool) {
	v := g.v
	// A byte of another script is part of a word: a name's words may
	// be in any language (contraseña, пароль).
	for g.i < len(v) && !isAlnum(v[g.i]) && v[g.i] < 0x80 {
		g.i++
	}
	if g.i >= len(v) {
		return "", false
	}
	start := g.i
	wide := v[g.i] >= 0xE0
	g.i++
	for ; g.i < len(v) && (isAlnum(v[g.i]) || v[g.i] >= 0x80); g.i++ {
		p, c := v[g.i-1], v[g.i]
		if c >= 0xC0 {
			wide = c >= 0xE0
		}
		// A word of a script written three bytes a rune (CJK) meets a
		// Latin one with no separator (设置key): two words. Two-byte
		// letters (ñ, ö, Cyrillic) are part of a word (contraseña).
		if c >= 0xE0 && p < 0x80 || c < 0x80 && p >= 0x80 && wide {
			break
		}
		if isDigit(p) != isDigit(c) ||
			isLower(p) && isUpper(c) ||
			isUpper(p) && isUpper(c) && g.i+1 < len(v) && isLower(v[g.i+1]) {
			break
		}
	}
	return v[start:g.i], true
}

func countSegments(v string) int {
	g := segmenter{v: v}
	n := 0
	for _, ok := g.next(); ok; _, ok = g.next() {
		n++
	}
	return n
}

// wordLike reports whether a letter segment could be a word or a common
// abbreviation: long enough, with vowels, without long consonant clusters,
// and cased like a word (lower, Capitalised or an ACRONYM).
func wordLike(seg string) bool {
	if len(seg) < 3 {
		return false
	}
	upper := 0
	for i := 0; i < len(seg); i++ {
		if isUpper(seg[i]) {
			upper++
		}
	}
	switch {
	case upper == 0, upper == len(seg):
	case upper == 1 && isUpper(seg[0]):
	default:
		return false
	}
	vowels, cluster, maxCluster := 0, 0, 0
	for i := 0; i < len(seg); i++ {
		switch lowerASCII(seg[i]) {
		case 'a', 'e', 'i', 'o', 'u', 'y':
			vowels++
			cluster = 0
		default:
			cluster++
			maxCluster = max(maxCluster, cluster)
		}
	}
	if vowels == 0 || maxCluster >= 6 {
		return false
	}
	ratio := float64(vowels) / float64(len(seg))
	return ratio >= 0.15 && ratio <= 0.75
}

// charKinds counts which of lower-case, upper-case, digits and other
// printable characters v uses.
// digitSwitches counts the places where letters and digits alternate in
// v. Names and words carry a number or two at their ends (utf8mb4,
// base64url, v2beta1); random tokens switch all along.
func digitSwitches(v string) int {
	n := 0
	for i := 1; i < len(v); i++ {
		a, b := v[i-1], v[i]
		if isDigit(a) && isAlpha(b) || isAlpha(a) && isDigit(b) {
			n++
		}
	}
	return n
}

func charKinds(v string) int {
	var lower, upper, digit, other bool
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case isLower(c):
			lower = true
		case isUpper(c):
			upper = true
		case isDigit(c):
			digit = true
		default:
			other = true
		}
	}
	n := 0
	for _, b := range []bool{lower, upper, digit, other} {
		if b {
			n++
		}
	}
	return n
}

// templated reports a reference to a value held elsewhere rather than the
// value: ${VAR}, $VAR, {{ .Values.x }}, %VAR%, <your-token>, @VAR@, $(cmd),
// #{x}, [PASSWORD], process.env.X…
func templated(v string) bool {
	if v == "" {
		return true
	}
	switch {
	case strings.Contains(v, "${"), strings.Contains(v, "{{"), strings.Contains(v, "}}"),
		strings.Contains(v, "$("), strings.Contains(v, "#{"):
		return true
	case v[0] == '$' && len(v) > 1 && (isAlpha(v[1]) || v[1] == '_' || v[1] == '{'):
		return true
	case v[0] == '<' && v[len(v)-1] == '>',
		v[0] == '[' && v[len(v)-1] == ']',
		v[0] == '{' && v[len(v)-1] == '}',
		v[0] == '%' && v[len(v)-1] == '%' && len(v) > 2,
		v[0] == '@' && v[len(v)-1] == '@' && len(v) > 2:
		return true
	}
	lower := strings.ToLower(v)
	for _, p := range []string{"process.env", "os.environ", "getenv", "env[", "env.", "secrets.", "vault:", "os.getenv"} {
		if strings.Contains(lower, p) {
			return true
		}
	}
	return false
}

// nonValues are values that name a credential or its absence rather than
// being one.
var nonValues = map[string]bool{
	"password": true, "passwd": true, "pass": true, "pwd": true, "secret": true, "token": true,
	"key": true, "apikey": true, "api_key": true, "changeme": true, "changeit": true,
	"none": true, "null": true, "nil": true, "undefined": true, "true": true, "false": true,
	"empty": true, "string": true, "str": true, "required": true, "optional": true,
	"redacted": true, "hidden": true, "masked": true, "removed": true, "omitted": true,
	"example": true, "sample": true, "test": true, "default": true, "unset": true,
	"username": true, "user": true, "admin": true,
}

// masked reports values that are mostly mask characters (****, xxxx, ....).
func masked(v string) bool {
	n := 0
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '*', 'x', 'X', '.', '#', '-', '_':
			n++
		}
	}
	return n*2 >= len(v)
}
