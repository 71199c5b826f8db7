// Package literal finds the literal text that every match of a regular
// expression begins with. A multi-string search for those few words then
// finds the only places where the expression can match, and the regexp
// runs anchored there instead of searching: detectors that scan every tool
// result (secrets, prompt injection) stay fast on text that merely
// contains their keywords.
package literal

import (
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// ZeroWidth reports whether op matches no text (an anchor or a word
// boundary): it neither starts nor ends a literal.
func ZeroWidth(op syntax.Op) bool {
	switch op {
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpEmptyMatch:
		return true
	}
	return false
}

// maxPrefixes bounds the literal-prefix sets built from alternations.
const maxPrefixes = 64

// Prefixes returns lower-cased literal text that every match of re starts
// with, one string per alternative ("a3t", "akia", "asia"… for AWS ids), or
// nil when some match can start with a non-literal. complete reports that
// the strings are whole matches, so a following literal can be appended.
func Prefixes(re *syntax.Regexp) (set []string, complete bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return []string{strings.ToLower(string(re.Rune))}, true
	case syntax.OpCharClass:
		// [Ss], [pe]: a few letters, either case.
		if cs := fewLetters(re.Rune); cs != nil {
			return cs, true
		}
		return nil, false
	case syntax.OpCapture:
		return Prefixes(re.Sub[0])
	case syntax.OpRepeat, syntax.OpPlus:
		if re.Op == syntax.OpRepeat && re.Min == 0 {
			return nil, false
		}
		s, _ := Prefixes(re.Sub[0])
		return s, false
	case syntax.OpAlternate:
		complete = true
		for _, sub := range re.Sub {
			p, c := Prefixes(sub)
			if p == nil || len(set)+len(p) > maxPrefixes {
				return nil, false
			}
			set = append(set, p...)
			complete = complete && c
		}
		return set, complete
	case syntax.OpConcat:
		set = []string{""}
		for i, sub := range re.Sub {
			if ZeroWidth(sub.Op) {
				continue
			}
			p, c := Prefixes(sub)
			if p == nil || len(set)*len(p) > maxPrefixes {
				if i == 0 || (len(set) == 1 && set[0] == "") {
					return nil, false
				}
				return set, false
			}
			next := make([]string, 0, len(set)*len(p))
			for _, a := range set {
				for _, b := range p {
					next = append(next, a+b)
				}
			}
			set = next
			if !c {
				return set, false
			}
		}
		return set, true
	}
	return nil, false
}

// fewLetters returns the lower-cased letters of a class of at most four
// letters (ignoring case), or nil.
func fewLetters(r []rune) []string {
	var seen [26]bool
	var out []string
	for i := 0; i+1 < len(r); i += 2 {
		if r[i+1]-r[i] > 26 {
			return nil
		}
		for x := r[i]; x <= r[i+1]; x++ {
			if x >= utf8.RuneSelf {
				if x == 'ſ' || x == 'K' { // Unicode folds of s and k
					continue
				}
				return nil
			}
			l := byte(x) | 0x20 // ASCII lower case
			if l < 'a' || l > 'z' {
				return nil
			}
			if !seen[l-'a'] {
				seen[l-'a'] = true
				out = append(out, string(l))
			}
		}
	}
	if len(out) == 0 || len(out) > 4 {
		return nil
	}
	return out
}
