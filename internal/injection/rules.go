package injection

import (
	"regexp"
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
	// absolute submatch offsets into t); 0 drops the match.
	grade func(t string, m []int) float64
	// clause: the match must start a clause (an imperative, not a
	// description: "Act as…" but not "it acts as…").
	clause bool
	// lineStart: the match must start a line.
	lineStart bool
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
	return `(?:` + sep + word + `){0,` + itoa(n) + `}?` + sep
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func alt(words ...string) string { return `(?:` + strings.Join(words, "|") + `)` }

// re compiles a case-insensitive pattern.
func re(pattern string) *regexp.Regexp { return regexp.MustCompile(`(?i)` + pattern) }

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
