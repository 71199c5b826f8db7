package injection

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Tier says what kind of evidence a rule is: technical markers that
// benign content rarely carries (structural), or what the text is trying to
// get the model to do (contextual).
type Tier string

const (
	Structural Tier = "structural"
	Contextual Tier = "contextual"
)

// kind decides how a match is discounted by where it sits.
type kind uint8

const (
	// language: words addressed to the model. Quoted in a discussion of
	// attacks ("phrases like 'ignore previous instructions'") they are
	// mentioned, not used.
	language kind = iota
	// code: commands and programs. Inside a code block they are what a
	// tutorial shows; each rule says how much that lowers it.
	code
	// markup: tags, URIs and tool-call syntax. Inside a code block in a
	// text about templates or formats they are documentation.
	markup
)

// rule is a regular expression run only near its keywords.
type rule struct {
	id       string
	tier     Tier
	kind     kind
	keywords []string // lower-case; ASCII case is ignored when matching
	// before and after widen each keyword hit into the window the regex
	// runs in: the regex may start up to before bytes ahead of the keyword.
	before, after int
	re            *regexp.Regexp
	sev           float64 // severity of a match when grade is nil
	// codeFactor, when set, scales the severity of a match inside a code
	// block (a tutorial showing a command is not telling the model to run
	// it).
	codeFactor float64
	// htmlDocFactor and xmlDocFactor, when set, scale a match in a field
	// that is a whole HTML or XML document: a web page has scripts and an
	// XML file has <task> elements as a matter of course.
	htmlDocFactor, xmlDocFactor float64
	// grade, when set, decides the severity from the match (m holds
	// absolute submatch offsets into t, the text as written); 0 drops the
	// match. It may move m[0] and m[1] to take in what the regex did not
	// (the verb that governs a matched object, the destination after it).
	grade func(t string, m []int) float64
	// clause: the match must start a clause (an imperative, not a
	// description: "Act as…" but not "it acts as…").
	clause bool
	// lineStart: the match must start a line.
	lineStart bool
	// cased: the regex runs on the text as written, not lower-cased.
	cased bool
	// anchored: a match starts at a keyword hit or at one of the lead
	// tokens before it, so the regex is tried anchored there instead of
	// searched for across a window: far less work on text that uses the
	// keyword innocently.
	anchored bool
	lead     int
	// needs, when set, is a second prefilter: one of these lower-case
	// strings must occur near the keyword (within before/after) for the
	// regex to run at all.
	needs []string
	// verbs, when set, must hold a word found within verbReach bytes
	// before the keyword, in the same sentence (the rule's regex starts at
	// the object; its grade finds the verb again).
	verbs     map[string]bool
	verbReach int
	at        *regexp.Regexp // re anchored at its start
	// starts, when set, finds the literals every match of a windowed rule
	// begins with, and atAfter is re anchored one byte after its start
	// (see starts.go).
	starts  *keywordSet
	atAfter *regexp.Regexp
	// match, when set, replaces re for an anchored rule: a hand-written
	// matcher of the same shape, for the hottest rule. It is given the
	// lower-cased text from a candidate start and returns offsets relative
	// to it (like FindStringSubmatchIndex anchored there), or nil.
	match func(lt string) []int
}

// Building blocks for patterns. Text is normalised first: whitespace runs
// are one space or one newline.
const (
	// sep and word let patterns allow a few words in between without
	// leaving the sentence.
	sep  = `[ ,;:"'“”‘’()*_\-]+`
	word = `[^ \n.!?,;:]+`
)

// gap allows up to n words between two parts of a pattern.
func gap(n int) string {
	return `(?:` + sep + word + `){0,` + strconv.Itoa(n) + `}?` + sep
}

func alt(words ...string) string { return `(?:` + strings.Join(words, "|") + `)` }

// re compiles a pattern for the lower-cased text: rules match ASCII
// letters in lower case, which keeps Go's matcher off its slow
// case-folding path. Bounded repetitions of 24 or more become unbounded:
// RE2 expands {0,300} into 300 states, and the windows around keyword hits
// already bound how far a match can reach.
func re(pattern string) *regexp.Regexp {
	for i := 0; i < len(pattern); i++ {
		if c := pattern[i]; c == '\\' {
			i++
		} else if c >= 'A' && c <= 'Z' {
			panic(fmt.Sprintf("pattern %q has upper-case %q: rules match lower-cased text", pattern, c))
		}
	}
	return regexp.MustCompile(unbound(pattern))
}

// anchoredAt is re matching only at the start of its input, with the same
// submatch numbering.
func anchoredAt(re *regexp.Regexp) *regexp.Regexp {
	return regexp.MustCompile(`^(?:` + re.String() + `)`)
}

// reFold compiles a case-insensitive pattern, for scripts other than
// Latin (the lower-cased text folds ASCII only).
func reFold(pattern string) *regexp.Regexp { return regexp.MustCompile(`(?i)` + unbound(pattern)) }

var longRepeat = regexp.MustCompile(`\{([01]),(\d+)\}`)

func unbound(pattern string) string {
	return longRepeat.ReplaceAllStringFunc(pattern, func(m string) string {
		sub := longRepeat.FindStringSubmatch(m)
		if n, _ := strconv.Atoi(sub[2]); n < 24 {
			return m
		}
		if sub[1] == "0" {
			return "*"
		}
		return "+"
	})
}

// clauseStart reports whether pos starts a clause: the text start, a
// sentence or line boundary, list bullet or quote, optionally followed by a
// softener ("please", "now", "also") or a modal aimed at the reader ("you
// must").
func clauseStart(t string, pos int) bool {
	i := pos
	for words := 0; ; words++ {
		for i > 0 && t[i-1] == ' ' {
			i--
		}
		if i == 0 {
			return true
		}
		switch c := t[i-1]; c {
		case '.', '!', '?', ':', ';', ',', '\n', '"', '\'', '(', '*', '-', '>', '|', '[', ']', '{', '}', ')', '#', '`', '=':
			return true
		}
		if strings.HasSuffix(t[:i], "“") || strings.HasSuffix(t[:i], "‘") || strings.HasSuffix(t[:i], "•") || strings.HasSuffix(t[:i], "—") {
			return true
		}
		if words == 2 {
			return false
		}
		j := i
		for j > 0 && t[j-1] != ' ' && t[j-1] != '\n' && i-j < 16 {
			j--
		}
		w := strings.ToLower(strings.Trim(t[j:i], ",;"))
		if !softeners[w] {
			return false
		}
		i = j
	}
}

var softeners = map[string]bool{
	"please": true, "kindly": true, "now": true, "also": true, "then": true, "and": true,
	"so": true, "just": true, "first": true, "next": true, "finally": true, "additionally": true,
	"furthermore": true, "simply": true, "immediately": true, "you": true, "must": true,
	"should": true, "will": true, "need": true, "to": true, "always": true, "instead": true,
	"but": true, "secondly": true, "lastly": true, "moreover": true, "therefore": true,
}

// lineStartAt reports whether only spaces precede pos on its line.
func lineStartAt(t string, pos int) bool {
	for i := pos - 1; i >= 0; i-- {
		switch t[i] {
		case '\n':
			return true
		case ' ', '\t', '>', '*', '#':
			continue
		default:
			return false
		}
	}
	return true
}

// has reports whether s, lower-cased, contains any of the words as whole
// words.
func hasWord(s string, words ...string) bool {
	s = strings.ToLower(s)
	for _, w := range words {
		for i := 0; ; {
			k := strings.Index(s[i:], w)
			if k < 0 {
				break
			}
			a, b := i+k, i+k+len(w)
			if (a == 0 || !isWordByte(s[a-1])) && (b == len(s) || !isWordByte(s[b])) {
				return true
			}
			i = a + 1
		}
	}
	return false
}

func isWordByte(c byte) bool { return isAlnum(c) || c == '_' || c >= 0x80 }

func group(t string, m []int, g int) string {
	if 2*g+1 >= len(m) || m[2*g] < 0 {
		return ""
	}
	return t[m[2*g]:m[2*g+1]]
}
