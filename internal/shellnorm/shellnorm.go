// Package shellnorm reads a shell command line the way the shell would
// run it, without running anything: quotes and escapes removed, $'…'
// decoded, variables set on the same line substituted (IFS included),
// brace lists expanded, literal text decoded where a pipeline decodes it
// (echo … | base64 -d | sh), and eval, sh -c and decoded text parsed as
// commands of their own. Alongside the commands it reports the tricks
// that wrote a command name in a form a reader, or a pattern, would not
// recognise: a command written plainly needs none of them, so each is
// evidence that the line was made to hide what it runs.
//
// The work is linear in the input per nesting level, and nesting is
// bounded (maxDepth), as is the input read (MaxInput).
package shellnorm

import (
	"encoding/base64"
	"encoding/hex"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// Trick is a way of writing a command that hides it from a reader but not
// from the shell.
type Trick string

const (
	Escaped     Trick = "backslash inside a command name"
	QuoteSplit  Trick = "quotes splitting a command name"
	ANSIC       Trick = "escape codes spelling a command name ($'…')"
	Substituted Trick = "command name printed by a command substitution"
	Variable    Trick = "command name held in a variable set on the same line"
	IFS         Trick = "IFS changed or used to split words"
	Brace       Trick = "brace expansion building a command"
	Glob        Trick = "wildcards standing for a command name"
	Lookalike   Trick = "lookalike (non-ASCII) characters in a command name"
	Decoded     Trick = "encoded text decoded and run as commands"
)

// Found is a trick and the word it was found in, as written.
type Found struct {
	Trick Trick
	Word  string
}

// Command is one simple command.
type Command struct {
	// Words after quote removal and the expansions shellnorm can do;
	// Words[0] is what runs (wrappers such as sudo included).
	Words []string
	// Redirects are the redirection targets, with their operator (">",
	// "<", ">&"…) in front.
	Redirects []string
	// Stdin is text fed by a here-document or here-string.
	Stdin string
	// PipedFrom is the index in Line.Commands of the command whose output
	// this one reads through a pipe, or -1.
	PipedFrom int
	// Inner: the command runs inside $(…), `…` or <(…), its output used
	// as text, or inside eval, sh -c or decoded text.
	Inner bool
	// Decoded: the command came from decoded text.
	Decoded bool
	// Substituted holds, per word, the commands (indexes in
	// Line.Commands) whose output that word contains.
	Substituted map[int][]int
	// Env are the variables set for this command alone (FOO=1 cmd), as
	// NAME=value: some name a program the command runs (GIT_PAGER,
	// LD_PRELOAD, PATH).
	Env []string
	// Given: the command came from text given to another command, which
	// runs it (Given); it is Inner too.
	Given bool
}

// Name is the command's name: the last path element of Words[0].
func (c Command) Name() string {
	if len(c.Words) == 0 {
		return ""
	}
	n := c.Words[0]
	if i := strings.LastIndexByte(n, '/'); i >= 0 {
		n = n[i+1:]
	}
	return n
}

// Line is a whole command line, read.
type Line struct {
	Commands []Command
	Tricks   []Found
	// Broken: the line has an unterminated quote or substitution, or
	// nests too deep; what was read is kept.
	Broken bool
}

// Unknown stands in a word for the output of a substitution that is only
// known at run time.
const Unknown = "$(...)"

// MaxInput bounds the bytes of a command line read; the rest is ignored
// and the line marked Broken.
const MaxInput = 256 << 10

// maxDepth bounds nesting of substitutions, eval, sh -c and decoded text.
const maxDepth = 8

// Parse reads a command line.
func Parse(src string) Line {
	var l Line
	if len(src) > MaxInput {
		src, l.Broken = src[:MaxInput], true
	}
	p := &parser{line: &l, vars: map[string]string{}, varSubs: map[string][]int{}}
	p.parse(src, 0, false, false)
	return l
}

// Text is the line's commands as plain text, one a line: what the line
// runs, written without its disguises.
func (l Line) Text() string {
	var b strings.Builder
	for _, c := range l.Commands {
		b.WriteString(strings.Join(c.Words, " "))
		for _, r := range c.Redirects {
			b.WriteString(" " + r)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// parser holds what persists across the commands of a line: the
// variables set so far.
type parser struct {
	line *Line
	vars map[string]string
	// varSubs are the substitutions a variable was set from
	// (P=$(pgrep x)): a command that uses $P uses their output.
	varSubs map[string][]int
	ifs     string // "" for the default
	// allExport: set -a is on, so every assignment is exported;
	// pending holds those not yet carried by a command (NAME=value).
	allExport bool
	pending   []string
	// aliases defined on the line: a command named by one runs its
	// value (with shopt -s expand_aliases, or in an interactive shell).
	aliases map[string]string
}

func (p *parser) trick(t Trick, word string) {
	for _, f := range p.line.Tricks {
		if f.Trick == t {
			return
		}
	}
	if len(word) > 80 {
		word = word[:80] + "…"
	}
	p.line.Tricks = append(p.line.Tricks, Found{t, word})
}

// word is one word as read, before it becomes zero or more words.
type word struct {
	raw    string // as written
	parts  []string
	split  []bool // parts[i] came from an unquoted expansion and splits on IFS
	subs   []int  // commands whose output the word holds
	quoted bool   // some of it was quoted
	// Evidence of the tricks, judged only for a command name.
	quoteInside, escapeInside, ansiC, subst, textSubst, varSet, ifsUsed, glob, brace bool
	nonASCII                                                                         bool
	// Most words have one or two parts: kept inline, not allocated.
	partsBuf [2]string
	splitBuf [2]bool
}

func (w *word) add(s string, split bool) {
	w.parts = append(w.parts, s)
	w.split = append(w.split, split)
}

func (w *word) value() string { return strings.Join(w.parts, "") }

// reader is one pass over a text.
type reader struct {
	p      *parser
	src    string
	pos    int
	depth  int
	inner  bool
	decode bool
	cmds   []int // indexes of the commands this reader added
	inCase int   // open case statements: their patterns are no commands
}

// casePattern skips a case statement's pattern list ("linux*|darwin*)")
// where one can start: after "case WORD in", or first in a command inside
// the statement. It reports whether it skipped one.
func (r *reader) casePattern(words []*word) bool {
	header := len(words) == 3 && words[0].value() == "case" && words[2].value() == "in"
	if !header && (r.inCase == 0 || len(words) > 0) {
		return false
	}
	for i := r.pos; i < len(r.src); i++ {
		switch r.src[i] {
		case ')':
			r.pos = i + 1
			return true
		case ';', '\n', '(', '`', '$', '&', '<', '>':
			return false
		}
	}
	return false
}

func (p *parser) parse(src string, depth int, inner, decoded bool) []int {
	if depth > maxDepth {
		p.line.Broken = true
		return nil
	}
	r := &reader{p: p, src: src, depth: depth, inner: inner, decode: decoded}
	r.list(false)
	return r.cmds
}

func (r *reader) peek(off int) byte {
	if i := r.pos + off; i < len(r.src) {
		return r.src[i]
	}
	return 0
}

// list reads commands up to the end, or, when nested, the ")" closing a
// $( or <( that the caller consumed.
func (r *reader) list(nested bool) {
	var words []*word
	var redirects []string
	stdin := ""
	pipedFrom := -1
	var heredocs []string
	lineStart := len(r.cmds)
	finish := func(pipe bool) {
		idx := r.command(words, redirects, stdin, pipedFrom)
		words, redirects, stdin = nil, nil, ""
		pipedFrom = -1
		if pipe && idx >= 0 {
			pipedFrom = idx
		}
	}
	for r.pos < len(r.src) {
		c := r.src[r.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			r.pos++
		case c == '\\' && r.peek(1) == '\n':
			r.pos += 2
		case c == '\n':
			r.pos++
			finish(false)
			for _, d := range heredocs {
				body := r.heredoc(d)
				cmds := slices.Clone(r.cmds[lineStart:])
				for _, i := range cmds {
					r.p.line.Commands[i].Stdin += body
				}
				for _, i := range cmds {
					r.script(i, body)
				}
			}
			heredocs, lineStart = nil, len(r.cmds)
		case c == '#': // a word that starts with # starts a comment
			for r.pos < len(r.src) && r.src[r.pos] != '\n' {
				r.pos++
			}
		case c == '|' && r.peek(1) != '|':
			r.pos++
			if r.peek(0) == '&' {
				r.pos++
			}
			finish(true)
		case c == ';' || c == '&' || c == '|':
			if c == '&' && r.peek(1) == '>' {
				redirects = append(redirects, r.redirect())
				continue
			}
			r.pos++
			if n := r.peek(0); n == c {
				r.pos++
			}
			finish(false)
		case c == '(':
			r.pos++
			finish(false)
		case c == ')':
			r.pos++
			finish(false)
			if nested {
				return
			}
		case c == '<' || c == '>':
			if r.peek(1) == '(' { // process substitution: its commands run beside this one
				r.pos += 2
				cmds, ok := r.sublist()
				if !ok {
					continue
				}
				r.cmds = append(r.cmds, cmds...)
				w := &word{raw: "<(…)"}
				w.add("<(…)", false)
				w.subs = cmds
				words = append(words, w)
				continue
			}
			if c == '<' && r.peek(1) == '<' && r.peek(2) != '<' {
				r.pos += 2
				if r.peek(0) == '-' {
					r.pos++
				}
				r.blanks()
				heredocs = append(heredocs, r.word().value())
				continue
			}
			if c == '<' && r.peek(1) == '<' && r.peek(2) == '<' {
				r.pos += 3
				r.blanks()
				stdin += r.word().value() + "\n"
				continue
			}
			redirects = append(redirects, r.redirect())
		default:
			if r.casePattern(words) {
				if len(words) > 0 {
					finish(false) // the case header
				}
				continue
			}
			w := r.word()
			if isFD(w.raw) && (r.peek(0) == '<' || r.peek(0) == '>') {
				continue // the 2 in 2>&1
			}
			switch v := w.value(); {
			case len(words) == 0 && v == "case":
				r.inCase++
			case len(words) == 0 && v == "esac" && r.inCase > 0:
				r.inCase--
			}
			words = append(words, w)
		}
	}
	finish(false)
	if nested {
		r.p.line.Broken = true
	}
}

func (r *reader) blanks() {
	for r.pos < len(r.src) && (r.src[r.pos] == ' ' || r.src[r.pos] == '\t') {
		r.pos++
	}
}

func isFD(w string) bool {
	return w != "" && len(w) <= 2 && strings.Trim(w, "0123456789") == ""
}

// redirect reads an operator and its target.
func (r *reader) redirect() string {
	start := r.pos
	for r.pos < len(r.src) && strings.IndexByte("<>&|", r.src[r.pos]) >= 0 && r.pos-start < 3 {
		r.pos++
	}
	op := r.src[start:r.pos]
	r.blanks()
	return op + r.word().value()
}

// heredoc reads a here-document's body up to its delimiter line.
func (r *reader) heredoc(delim string) string {
	var b strings.Builder
	for r.pos < len(r.src) {
		end := strings.IndexByte(r.src[r.pos:], '\n')
		if end < 0 {
			end = len(r.src) - r.pos
		}
		ln := r.src[r.pos : r.pos+end]
		r.pos = min(r.pos+end+1, len(r.src))
		if strings.TrimSpace(ln) == delim {
			break
		}
		b.WriteString(ln)
		b.WriteByte('\n')
	}
	return b.String()
}

// word reads one word up to an unquoted blank or operator.
func (r *reader) word() *word {
	w := &word{}
	w.parts, w.split = w.partsBuf[:0], w.splitBuf[:0]
	start := r.pos
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			w.add(lit.String(), false)
			lit.Reset()
		}
	}
	braceAt := -1
loop:
	for r.pos < len(r.src) {
		c := r.src[r.pos]
		switch c {
		case ' ', '\t', '\r', '\n', ';', '&', '|', '(', ')', '<', '>':
			break loop
		case '\\':
			if n := r.peek(1); n != '\n' && n != 0 {
				if r.pos > start && isAlnum(n) {
					w.escapeInside = true
				}
				lit.WriteByte(n)
			}
			// A backslash that ends the line escapes nothing.
			r.pos = min(r.pos+2, len(r.src))
		case '\'':
			w.quoted = true
			if r.pos > start {
				w.quoteInside = true
			}
			r.pos++
			end := strings.IndexByte(r.src[r.pos:], '\'')
			if end < 0 {
				r.p.line.Broken = true
				end = len(r.src) - r.pos
			}
			lit.WriteString(r.src[r.pos : r.pos+end])
			r.pos = min(r.pos+end+1, len(r.src))
			if r.pos < len(r.src) && !isBreak(r.src[r.pos]) {
				w.quoteInside = true
			}
		case '"':
			w.quoted = true
			if r.pos > start {
				w.quoteInside = true
			}
			r.pos++
			flush()
			r.doubleQuoted(w, &lit)
			if r.pos < len(r.src) && !isBreak(r.src[r.pos]) {
				w.quoteInside = true
			}
		case '`':
			r.pos++
			flush()
			r.backtick(w)
		case '$':
			flush()
			r.dollar(w, &lit, false)
		case '{':
			if braceAt < 0 {
				braceAt = lit.Len()
			}
			lit.WriteByte(c)
			r.pos++
		case '*', '?', '[':
			w.glob = true
			lit.WriteByte(c)
			r.pos++
		default:
			if c >= utf8.RuneSelf {
				w.nonASCII = true
			}
			lit.WriteByte(c)
			r.pos++
		}
	}
	flush()
	w.raw = r.src[start:r.pos]
	if braceAt >= 0 && !w.quoted && strings.Contains(w.raw, ",") && strings.Contains(w.raw, "}") {
		w.brace = true
	}
	return w
}

func isBreak(c byte) bool {
	return strings.IndexByte(" \t\r\n;&|()<>", c) >= 0
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (r *reader) doubleQuoted(w *word, lit *strings.Builder) {
	for r.pos < len(r.src) {
		switch c := r.src[r.pos]; {
		case c == '"':
			r.pos++
			w.add(lit.String(), false)
			lit.Reset()
			return
		case c == '\\':
			switch n := r.peek(1); n {
			case '$', '`', '"', '\\':
				lit.WriteByte(n)
				r.pos += 2
			case '\n':
				r.pos += 2
			default:
				lit.WriteByte(c)
				r.pos++
			}
		case c == '`':
			r.pos++
			w.add(lit.String(), false)
			lit.Reset()
			r.backtick(w)
		case c == '$':
			w.add(lit.String(), false)
			lit.Reset()
			r.dollar(w, lit, true)
		default:
			lit.WriteByte(c)
			r.pos++
		}
	}
	r.p.line.Broken = true
}

// dollar reads what follows a "$".
func (r *reader) dollar(w *word, lit *strings.Builder, quoted bool) {
	switch n := r.peek(1); {
	case n == '(' && r.peek(2) == '(':
		r.pos += 3
		r.expansion(w, '(', ')', 2)
		w.add("$((…))", false)
	case n == '(':
		r.pos += 2
		if cmds, ok := r.sublist(); ok {
			r.substituted(w, cmds, !quoted)
		}
	case n == '{':
		r.pos += 2
		r.variable(w, r.expansion(w, '{', '}', 1), quoted)
	case n == '\'' && !quoted:
		r.pos += 2
		s, escapes := r.ansiC()
		if escapes {
			w.ansiC = true
		}
		lit.WriteString(s)
	case n == '"' && !quoted:
		r.pos++
	case n == '_' || n >= 'a' && n <= 'z' || n >= 'A' && n <= 'Z':
		r.pos++
		start := r.pos
		for r.pos < len(r.src) && (isAlnum(r.src[r.pos]) || r.src[r.pos] == '_') {
			r.pos++
		}
		r.variable(w, r.src[start:r.pos], quoted)
	default:
		lit.WriteByte('$')
		r.pos++
	}
}

// expansion reads the rest of a ${…} or $((…)) whose depth opening
// brackets are consumed, and returns its text. Any $(…), `…` or ${…}
// inside it is read too, and its commands are the line's: the shell runs
// them (${x:-$(cmd)} where x is unset, $(( $(cmd) + 1 ))), so a command
// hidden there must be seen as one.
func (r *reader) expansion(w *word, open, close byte, depth int) string {
	start := r.pos
	for r.pos < len(r.src) {
		switch c := r.src[r.pos]; {
		case c == '\\':
			r.pos = min(r.pos+2, len(r.src))
		case c == '$' && r.peek(1) == '(' && r.peek(2) != '(':
			r.pos += 2
			cmds, ok := r.sublist()
			if !ok {
				return r.src[start:r.pos]
			}
			r.cmds = append(r.cmds, cmds...)
			w.subs = append(w.subs, cmds...)
		case c == '`':
			r.pos++
			cmds := r.backtickCommands()
			r.cmds = append(r.cmds, cmds...)
			w.subs = append(w.subs, cmds...)
		case c == open:
			depth++
			r.pos++
		case c == close:
			if depth--; depth == 0 {
				r.pos++
				return r.src[start : r.pos-len(closing(open))]
			}
			r.pos++
		default:
			r.pos++
		}
	}
	r.p.line.Broken = true
	return r.src[start:]
}

// closing is what closes an expansion opened with open: "))" for $((, "}"
// for ${.
func closing(open byte) string {
	if open == '(' {
		return "))"
	}
	return "}"
}

// variable expands ${expr} or $NAME where the line set it.
func (r *reader) variable(w *word, expr string, quoted bool) {
	name, rest := expr, ""
	for i := 0; i < len(expr); i++ {
		if !isAlnum(expr[i]) && expr[i] != '_' {
			name, rest = expr[:i], expr[i:]
			break
		}
	}
	if name == "IFS" {
		w.ifsUsed = true
		w.add(" ", true)
		return
	}
	v, ok := r.p.vars[name]
	if !ok {
		w.add("$"+expr, false)
		return
	}
	w.varSet = true
	w.subs = append(w.subs, r.p.varSubs[name]...)
	if rest != "" && rest[0] == ':' {
		v = substring(v, rest[1:])
	}
	w.add(v, !quoted)
}

// substring applies ${NAME:offset:length} with literal numbers.
func substring(v, spec string) string {
	off, n, ok := 0, -1, true
	parts := strings.SplitN(spec, ":", 2)
	off, ok = atoi(parts[0])
	if len(parts) == 2 {
		var ok2 bool
		n, ok2 = atoi(parts[1])
		ok = ok && ok2
	}
	if !ok || off < 0 || off > len(v) {
		return v
	}
	v = v[off:]
	if n >= 0 && n < len(v) {
		v = v[:n]
	}
	return v
}

func atoi(s string) (int, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 6 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

// sublist reads the command list that starts at r.pos and ends at its
// ")", one level deeper, and returns its commands. Past maxDepth it reads
// nothing: the line is broken and the rest of it skipped (ok false).
func (r *reader) sublist() (cmds []int, ok bool) {
	sub := &reader{p: r.p, src: r.src, pos: r.pos, depth: r.depth + 1, inner: true, decode: r.decode}
	if sub.depth > maxDepth {
		r.p.line.Broken = true
		r.pos = len(r.src)
		return nil, false
	}
	sub.list(true)
	r.pos = sub.pos
	return sub.cmds, true
}

// backtick reads a `…` substitution, the opening ` consumed.
func (r *reader) backtick(w *word) {
	r.substituted(w, r.backtickCommands(), true)
}

// backtickCommands reads the text of a `…` substitution, the opening `
// consumed, and returns its commands.
func (r *reader) backtickCommands() []int {
	var inner strings.Builder
	closed := false
	for r.pos < len(r.src) {
		c := r.src[r.pos]
		if c == '`' {
			r.pos++
			closed = true
			break
		}
		if n := r.peek(1); c == '\\' && (n == '`' || n == '\\' || n == '$') {
			inner.WriteByte(n)
			r.pos += 2
			continue
		}
		inner.WriteByte(c)
		r.pos++
	}
	if !closed {
		r.p.line.Broken = true
	}
	return r.p.parse(inner.String(), r.depth+1, true, r.decode)
}

// substituted adds a command substitution's output to a word: the text
// it prints where that is static (echo, printf, a decoder of a literal),
// else a placeholder.
func (r *reader) substituted(w *word, cmds []int, split bool) {
	w.subst = true
	w.subs = append(w.subs, cmds...)
	r.cmds = append(r.cmds, cmds...)
	out, ok := r.p.printed(cmds)
	if ok {
		w.textSubst = true
		w.add(out, split)
		return
	}
	w.add(Unknown, false)
}

// ansiC decodes a $'…' string, the opening $' consumed, and reports
// whether it held escapes that spell characters.
func (r *reader) ansiC() (string, bool) {
	var b strings.Builder
	escapes := false
	for r.pos < len(r.src) {
		c := r.src[r.pos]
		r.pos++
		switch {
		case c == '\'':
			return b.String(), escapes
		case c != '\\' || r.pos >= len(r.src):
			b.WriteByte(c)
		default:
			n, size := unescape(r.src[r.pos:])
			if size == 0 {
				b.WriteByte('\\')
				continue
			}
			if isAlnum(r.src[r.pos]) && r.src[r.pos] != 'n' && r.src[r.pos] != 't' {
				escapes = true
			}
			b.WriteString(n)
			r.pos += size
		}
	}
	r.p.line.Broken = true
	return b.String(), escapes
}

// unescape decodes one backslash escape (the backslash consumed) as
// $'…', printf and echo -e read them; size 0: not an escape.
func unescape(s string) (string, int) {
	if s == "" {
		return "", 0
	}
	simple := map[byte]string{'n': "\n", 't': "\t", 'r': "\r", 'a': "\a", 'b': "\b", 'e': "\x1b", 'E': "\x1b",
		'f': "\f", 'v': "\v", '\\': "\\", '\'': "'", '"': "\"", '?': "?"}
	switch c := s[0]; {
	case c == 'x':
		v, n := number(s[1:], 16, 2)
		if n == 0 {
			return "", 0
		}
		return string(rune(v)), 1 + n
	case c == 'u' || c == 'U':
		digits := 4
		if c == 'U' {
			digits = 8
		}
		v, n := number(s[1:], 16, digits)
		if n == 0 || !utf8.ValidRune(rune(v)) {
			return "", 0
		}
		return string(rune(v)), 1 + n
	case c == '0' && len(s) > 1 && s[1] >= '0' && s[1] <= '7':
		v, n := number(s[1:], 8, 3) // echo -e's \0NNN
		return string(rune(v & 0xff)), 1 + n
	case c >= '0' && c <= '7':
		v, n := number(s, 8, 3)
		return string(rune(v & 0xff)), n
	default:
		if t, ok := simple[c]; ok {
			return t, 1
		}
	}
	return "", 0
}

func number(s string, base, maxDigits int) (int, int) {
	v, n := 0, 0
	for n < maxDigits && n < len(s) {
		d := digit(s[n])
		if d < 0 || d >= base {
			break
		}
		v = v*base + d
		n++
	}
	return v, n
}

func digit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// DecodeEscapes decodes the backslash escapes of a printf format or an
// echo -e argument (\xNN, \NNN, \uNNNN and the letters), as most
// languages' string literals write them too.
func DecodeEscapes(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		t, n := unescape(s[i+1:])
		if n == 0 {
			b.WriteByte(s[i])
			continue
		}
		b.WriteString(t)
		i += n
	}
	return b.String()
}

// command turns a simple command's words into a Command and returns its
// index, or -1 when it has none. Assignments alone set variables for the
// rest of the line; eval, sh -c and decoded pipelines are read as
// commands of their own.
func (r *reader) command(ws []*word, redirects []string, stdin string, pipedFrom int) int {
	assigning := true
	var words, env []string
	var subs map[int][]int
	for i, w := range ws {
		if assigning {
			if name, val, ok := assignment(w); ok {
				env = append(env, name+"="+val)
				if len(ws) == 1 || allAssignments(ws) {
					if name == "IFS" {
						r.p.ifs = val
						r.p.trick(IFS, w.raw)
					}
					r.p.vars[name] = val
					if len(w.subs) > 0 {
						r.p.varSubs[name] = w.subs
					}
					if r.p.allExport {
						r.p.pending = append(r.p.pending, name+"="+val)
					}
				}
				continue
			}
			assigning = false
			r.judgeName(w)
			// The name after wrappers (sudo, env, xargs …) runs too.
			if wrappers[baseName(w.value())] {
				values := make([]string, 0, len(ws)-i)
				for _, v := range ws[i:] {
					values = append(values, v.value())
				}
				if k := len(values) - len(skipWrappers(values)); k > 0 {
					r.judgeName(ws[i+k])
				}
			}
		}
		if len(w.subs) > 0 {
			if subs == nil {
				subs = map[int][]int{}
			}
			subs[len(words)] = w.subs
		}
		words = append(words, r.expand(w)...)
	}
	if len(words) == 0 && len(redirects) == 0 && stdin == "" {
		return -1
	}
	if len(words) > 0 {
		if v, ok := r.p.aliases[words[0]]; ok {
			// The worse of the two readings: where aliases are not
			// expanded the command is the one named, which the alias's
			// value was chosen to hide.
			words = append(strings.Fields(v), words[1:]...)
		}
	}
	exported := r.setsVariable(words, stdin)
	c := Command{Words: words, Redirects: redirects, Stdin: stdin, PipedFrom: pipedFrom, Inner: r.inner || r.depth > 0,
		Decoded: r.decode}
	if len(words) > 0 {
		c.Env = append(append(env, exported...), r.p.pending...)
		r.p.pending = nil
	}
	if len(subs) > 0 {
		c.Substituted = subs
	}
	if len(c.Words) > 0 {
		if n := c.Words[0]; hasNonASCII(n) {
			c.Words[0] = fold(n)
		}
	}
	l := r.p.line
	l.Commands = append(l.Commands, c)
	idx := len(l.Commands) - 1
	r.cmds = append(r.cmds, idx)
	r.nested(idx)
	return idx
}

// setsVariable reads the builtins that assign a variable as an
// assignment: printf -v NAME FORMAT (a format without conversions, or
// %s of one argument), read NAME <<< WORD, and export, declare, typeset,
// local and readonly, so that a command name put in a variable through
// them is read as one set on the line. It returns the variables the
// command exports (NAME=value): they are set for every command after
// it, so the command carries them as its Env (export GIT_PAGER=…,
// export LD_PRELOAD=…).
func (r *reader) setsVariable(words []string, stdin string) (exported []string) {
	if len(words) < 2 {
		return nil
	}
	switch name := baseName(words[0]); name {
	case "set":
		for i, a := range words[1:] {
			switch {
			case a == "-o" && i+2 < len(words) && words[i+2] == "allexport", strings.HasPrefix(a, "-") && strings.Contains(a, "a") && !strings.HasPrefix(a, "--"):
				r.p.allExport = true
			case a == "+o" && i+2 < len(words) && words[i+2] == "allexport", strings.HasPrefix(a, "+") && strings.Contains(a, "a"):
				r.p.allExport = false
			}
		}
		return nil
	case "export", "declare", "typeset", "local", "readonly":
		exports := name == "export"
		for _, a := range words[1:] {
			if strings.HasPrefix(a, "-") {
				exports = exports || strings.Contains(a, "x")
				continue
			}
			if n, v, ok := strings.Cut(a, "="); ok && isName(n) {
				r.p.vars[n] = v
			}
		}
		if !exports {
			return nil
		}
		for _, a := range words[1:] {
			n, v, ok := strings.Cut(a, "=")
			if !ok {
				v, ok = r.p.vars[n]
			}
			if ok && isName(n) {
				exported = append(exported, n+"="+v)
			}
		}
		return exported
	}
	switch baseName(words[0]) {
	case "ln", "cp", "install", "mv":
		// A program copied or linked under another name runs as itself
		// when that name is used: ln -s /usr/bin/curl ./ls; ./ls ….
		var ops []string
		for _, a := range words[1:] {
			if !strings.HasPrefix(a, "-") {
				ops = append(ops, a)
			}
		}
		if len(ops) == 2 && !strings.HasSuffix(ops[1], "/") {
			r.alias(ops[1], ops[0])
			if !strings.Contains(ops[1], "/") {
				r.alias("./"+ops[1], ops[0])
			}
		}
	case "printf":
		if len(words) >= 4 && words[1] == "-v" {
			name, format := words[2], words[3]
			switch {
			case !strings.Contains(format, "%"):
				r.p.vars[name] = format
			case format == "%s" && len(words) == 5:
				r.p.vars[name] = words[4]
			}
		}
	case "alias":
		for _, a := range words[1:] {
			if name, v, ok := strings.Cut(a, "="); ok && name != "" && v != "" {
				r.alias(name, v)
			}
		}
	case "read":
		args := words[1:]
		for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) > 1 && !strings.ContainsAny(args[0][1:], "adinpt") {
			args = args[1:] // -r, -s: no value of their own
		}
		if len(args) == 1 && stdin != "" {
			line, _, _ := strings.Cut(stdin, "\n")
			r.p.vars[args[0]] = strings.TrimSpace(line)
		}
	}
	return nil
}

// alias records that a command named name runs value.
func (r *reader) alias(name, value string) {
	if r.p.aliases == nil {
		r.p.aliases = map[string]string{}
	}
	r.p.aliases[name] = value
}

// isName reports whether s is a shell variable's name.
func isName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isAlnum(s[i]) && s[i] != '_' {
			return false
		}
	}
	return true
}

func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// fold turns full-width and other compatibility forms into ASCII.
func fold(s string) string { return width.Fold.String(s) }

func allAssignments(ws []*word) bool {
	for _, w := range ws {
		if _, _, ok := assignment(w); !ok {
			return false
		}
	}
	return true
}

// assignment reads NAME=value.
func assignment(w *word) (string, string, bool) {
	raw := w.raw
	eq := strings.IndexByte(raw, '=')
	if eq <= 0 {
		return "", "", false
	}
	for i := 0; i < eq; i++ {
		c := raw[i]
		if !(isAlnum(c) || c == '_') || i == 0 && c >= '0' && c <= '9' {
			return "", "", false
		}
	}
	v := w.value()
	return raw[:eq], v[min(eq+1, len(v)):], true
}

// judgeName notes the tricks in a word that names a command.
// bareNameInside reports whether w substitutes a command with no
// arguments (`rm`): run, it prints nothing a shell could use as a name;
// written, it reads as the name it holds, hidden from a reader that
// looks for names. $(which python) is not one.
func (r *reader) bareNameInside(w *word) bool {
	for _, i := range w.subs {
		if i < len(r.p.line.Commands) && len(r.p.line.Commands[i].Words) == 1 {
			return true
		}
	}
	return false
}

func (r *reader) judgeName(w *word) {
	p := r.p
	switch {
	case w.escapeInside:
		p.trick(Escaped, w.raw)
	case w.quoteInside && !strings.ContainsAny(w.value(), " /$"):
		p.trick(QuoteSplit, w.raw)
	}
	if w.ansiC {
		p.trick(ANSIC, w.raw)
	}
	if w.subst && (w.textSubst || len(w.parts) > 1 || r.bareNameInside(w)) {
		p.trick(Substituted, w.raw)
	}
	if w.varSet {
		p.trick(Variable, w.raw)
	}
	if w.ifsUsed {
		p.trick(IFS, w.raw)
	}
	if w.brace {
		p.trick(Brace, w.raw)
	}
	if w.glob && w.raw != "[" && w.raw != "[[" {
		p.trick(Glob, w.raw)
	}
	if w.nonASCII {
		p.trick(Lookalike, w.raw)
	}
}

// expand turns a word into the words the shell would make of it: brace
// lists expanded, unquoted expansions split on IFS.
func (r *reader) expand(w *word) []string {
	if w.brace {
		return braceExpand(w.value())
	}
	ifs := r.p.ifs
	if ifs == "" {
		ifs = " \t\n"
	}
	var out []string
	var cur strings.Builder
	for i, part := range w.parts {
		if !w.split[i] {
			cur.WriteString(part)
			continue
		}
		fields := strings.FieldsFunc(part, func(c rune) bool { return strings.ContainsRune(ifs, c) })
		for j, f := range fields {
			if j > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
			cur.WriteString(f)
		}
		if len(fields) == 0 || strings.ContainsRune(ifs, rune(part[len(part)-1])) {
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
		}
	}
	if cur.Len() > 0 || len(out) == 0 {
		out = append(out, cur.String())
	}
	return out
}

// braceExpand expands the first {a,b,…} list of a word.
func braceExpand(s string) []string {
	open := strings.IndexByte(s, '{')
	end := strings.IndexByte(s[open:], '}')
	if open < 0 || end < 0 {
		return []string{s}
	}
	end += open
	pre, body, post := s[:open], s[open+1:end], s[end+1:]
	if !strings.Contains(body, ",") {
		return []string{s}
	}
	var out []string
	for _, alt := range strings.Split(body, ",") {
		if v := pre + alt + post; v != "" {
			out = append(out, v)
		}
	}
	return out
}

// nested reads as commands what the command at idx would run as a line:
// eval's arguments, sh -c's string, and decoded text fed to a shell.
func (r *reader) nested(idx int) {
	c := r.p.line.Commands[idx]
	words := skipWrappers(c.Words)
	if len(words) == 0 {
		return
	}
	stdin := c.Stdin
	if stdin == "" && c.PipedFrom >= 0 {
		// What a pipe feeds the command, where it is static text: a
		// program that reads its commands there (make -f -, at) runs it.
		stdin, _ = r.p.printed([]int{c.PipedFrom})
	}
	for _, text := range Given(words, c.Env, stdin) {
		first := len(r.p.line.Commands)
		r.cmds = append(r.cmds, r.p.parse(text, r.depth+1, true, r.decode)...)
		for i := first; i < len(r.p.line.Commands); i++ {
			r.p.line.Commands[i].Given = true
		}
	}
	name := baseName(words[0])
	if (IsShell(name) || name == "source" || name == ".") && len(words) > 1 {
		// bash <(echo …), . <(printf …), source /dev/stdin <<< …: the
		// script is what the substitution prints, or the input.
		if subs := c.Substituted[len(c.Words)-len(words)+1]; len(subs) > 0 {
			if text, ok := r.p.printed(subs); ok {
				r.cmds = append(r.cmds, r.p.parse(text, r.depth+1, true, r.decode)...)
			}
		} else if words[1] == "/dev/stdin" && c.Stdin != "" {
			r.cmds = append(r.cmds, r.p.parse(c.Stdin, r.depth+1, true, r.decode)...)
		}
	}
	switch {
	case name == "eval":
		text := strings.ReplaceAll(strings.Join(words[1:], " "), Unknown, "")
		if r.p.decodes(c, idx) {
			r.p.trick(Decoded, "eval "+text)
		}
		r.cmds = append(r.cmds, r.p.parse(text, r.depth+1, true, r.decode)...)
	case name == "powershell" || name == "pwsh" || name == "powershell.exe" || name == "pwsh.exe" || name == "cmd" || name == "cmd.exe":
		for i := 1; i+1 < len(words); i++ {
			a := strings.ToLower(words[i])
			switch {
			case a == "/c" || a == "/k" || strings.HasPrefix(a, "-c") && strings.HasPrefix("-command", a):
				r.cmds = append(r.cmds, r.p.parse(strings.Join(words[i+1:], " "), r.depth+1, true, r.decode)...)
				return
			case strings.HasPrefix(a, "-e") && strings.HasPrefix("-encodedcommand", a):
				if text, ok := decodeUTF16Base64(words[i+1]); ok {
					r.p.trick(Decoded, name+" "+words[i])
					r.cmds = append(r.cmds, r.p.parse(text, r.depth+1, true, true)...)
				}
				return
			}
		}
	case IsShell(name):
		if last := words[len(words)-1]; len(words) > 1 && strings.HasPrefix(last, "-") && strings.Contains(last, "c") &&
			!strings.HasPrefix(last, "--") && baseName(c.Words[0]) == "xargs" {
			// xargs … sh -c: the shell's script is what xargs reads.
			text, ok := c.Stdin, c.Stdin != ""
			if !ok && c.PipedFrom >= 0 {
				text, ok = r.p.printed([]int{c.PipedFrom})
			}
			if ok {
				r.cmds = append(r.cmds, r.p.parse(text, r.depth+1, true, r.decode)...)
			}
			return
		}
		for i := 1; i < len(words); i++ {
			if a := words[i]; strings.HasPrefix(a, "-") && strings.Contains(a, "c") && !strings.HasPrefix(a, "--") && i+1 < len(words) {
				if r.p.decodes(c, idx) {
					r.p.trick(Decoded, name+" -c")
				}
				r.cmds = append(r.cmds, r.p.parse(strings.ReplaceAll(words[i+1], Unknown, ""), r.depth+1, true, r.decode)...)
				return
			}
		}
		// A shell with no script of its own runs what it reads: the text a
		// pipe feeds it (printf 'x' | sh, decoded or not), or its here-string
		// or here-document.
		script := len(words) == 1 || words[1] == "-" || words[1] == "-s"
		if c.PipedFrom >= 0 && script {
			text, ok := r.p.printed([]int{c.PipedFrom})
			decoded := r.p.decodesChain(c.PipedFrom)
			if decoded {
				r.p.trick(Decoded, strings.Join(c.Words, " "))
			}
			if ok {
				r.cmds = append(r.cmds, r.p.parse(text, r.depth+1, true, decoded || r.decode)...)
			}
		}
		r.script(idx, c.Stdin)
	}
}

// script reads text given on the standard input of the command at idx (a
// here-string or here-document) as the commands it runs, when that
// command is a shell with no script of its own.
func (r *reader) script(idx int, text string) {
	c := r.p.line.Commands[idx]
	words := skipWrappers(c.Words)
	if text == "" || c.PipedFrom >= 0 || len(words) == 0 || !IsShell(baseName(words[0])) ||
		len(words) > 1 && words[1] != "-" && words[1] != "-s" {
		return
	}
	r.cmds = append(r.cmds, r.p.parse(text, r.depth+1, true, r.decode)...)
}

// IsShell reports whether name is a shell that runs a script.
func IsShell(name string) bool {
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish":
		return true
	}
	return false
}

// wrappers run the command that follows them.
var wrappers = map[string]bool{"sudo": true, "doas": true, "env": true, "command": true, "builtin": true, "exec": true,
	"nohup": true, "time": true, "nice": true, "stdbuf": true, "setsid": true, "timeout": true, "xargs": true,
	"busybox": true, "toybox": true,
	// The shell's reserved words that a command follows: for …; do X;
	// done, if X; then Y; fi, { X; }, ! X.
	"do": true, "then": true, "else": true, "elif": true, "if": true, "while": true, "until": true, "{": true, "!": true}

// skipWrappers drops wrappers and their options from the front of a
// command: sudo -u x env A=b timeout 5 curl … is curl.
// A wrapper with no command after it (env, time) is the command itself.
func skipWrappers(words []string) []string {
	for len(words) > 0 && wrappers[baseName(words[0])] {
		name := baseName(words[0])
		rest := words[1:]
		for len(rest) > 0 && (strings.HasPrefix(rest[0], "-") || strings.Contains(rest[0], "=") && name == "env") {
			if name == "sudo" && (rest[0] == "-u" || rest[0] == "-g") && len(rest) > 1 {
				rest = rest[1:]
			}
			rest = rest[1:]
		}
		if name == "timeout" && len(rest) > 0 {
			rest = rest[1:]
		}
		if len(rest) == 0 {
			return words
		}
		words = rest
	}
	return words
}

// Run returns the command's words with its wrappers dropped.
func (c Command) Run() []string { return skipWrappers(c.Words) }

func baseName(w string) string {
	if i := strings.LastIndexByte(w, '/'); i >= 0 {
		return w[i+1:]
	}
	return w
}

// decoders turn encoded text back into text.
func isDecoder(c Command) bool {
	words := c.Run()
	if len(words) == 0 {
		return false
	}
	switch baseName(words[0]) {
	case "base64", "base32", "basenc":
		return hasFlag(words[1:], "-d", "--decode", "-D")
	case "xxd":
		return hasFlag(words[1:], "-r")
	case "rev", "openssl", "gunzip", "zcat", "uudecode":
		return true
	case "printf":
		return len(words) > 1 && strings.Contains(words[1], `\`)
	case "echo":
		return hasFlag(words[1:], "-e") && strings.Contains(strings.Join(words, " "), `\`)
	case "tr":
		return true
	}
	return false
}

func hasFlag(args []string, flags ...string) bool {
	for _, a := range args {
		for _, f := range flags {
			if a == f || len(f) == 2 && strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a[1:], f[1:]) {
				return true
			}
		}
	}
	return false
}

// decodes reports whether a command decodes text, or reads the output
// of a substitution or pipeline that does.
func (p *parser) decodes(c Command, idx int) bool {
	if isDecoder(c) {
		return true
	}
	for _, subs := range c.Substituted {
		for _, s := range subs {
			if p.decodesChain(s) {
				return true
			}
		}
	}
	return c.PipedFrom >= 0 && p.decodesChain(c.PipedFrom)
}

// decodesChain reports whether the command at idx, or one feeding it,
// decodes text.
func (p *parser) decodesChain(idx int) bool {
	for n := 0; idx >= 0 && n < 64; n++ {
		c := p.line.Commands[idx]
		if isDecoder(c) {
			return true
		}
		for _, subs := range c.Substituted {
			for _, s := range subs {
				if isDecoder(p.line.Commands[s]) {
					return true
				}
			}
		}
		idx = c.PipedFrom
	}
	return false
}

// printed returns what the last of cmds prints where that is static text:
// echo and printf of literals, a bare word (`rm` prints nothing, but as a
// command name it stands for itself), and decoders of such text.
func (p *parser) printed(cmds []int) (string, bool) {
	if len(cmds) == 0 {
		return "", false
	}
	// A command is added after the substitutions in its words: the last
	// one added is the one whose output this is.
	return p.output(slices.Max(cmds), 0)
}

func (p *parser) output(idx, n int) (string, bool) {
	if idx < 0 || n > 16 {
		return "", false
	}
	c := p.line.Commands[idx]
	words := c.Run()
	if len(words) == 0 {
		return "", false
	}
	var in string
	if c.PipedFrom >= 0 {
		var ok bool
		if in, ok = p.output(c.PipedFrom, n+1); !ok {
			return "", false
		}
	}
	args := words[1:]
	switch baseName(words[0]) {
	case "echo":
		e := false
		for len(args) > 0 && strings.HasPrefix(args[0], "-") && strings.Trim(args[0], "-neE") == "" {
			e = e || strings.Contains(args[0], "e")
			args = args[1:]
		}
		s := strings.Join(args, " ")
		if e {
			s = DecodeEscapes(s)
		}
		return s, !strings.Contains(s, Unknown)
	case "printf":
		if len(args) == 0 {
			return "", false
		}
		s := DecodeEscapes(args[0])
		if strings.Contains(s, "%") {
			s = strings.ReplaceAll(s, "%s", strings.Join(args[1:], ""))
		}
		return s, true
	case "base64", "base32":
		if c.PipedFrom < 0 || !hasFlag(args, "-d", "--decode", "-D") {
			return "", false
		}
		return decodeBase64(in)
	case "xxd":
		if c.PipedFrom < 0 || !hasFlag(args, "-r") {
			return "", false
		}
		b, err := hex.DecodeString(strings.Join(strings.Fields(in), ""))
		return string(b), err == nil
	case "rev":
		if c.PipedFrom < 0 {
			return "", false
		}
		rs := []rune(strings.TrimRight(in, "\n"))
		for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
			rs[i], rs[j] = rs[j], rs[i]
		}
		return string(rs), true
	case "cat":
		if c.PipedFrom >= 0 && len(args) == 0 {
			return in, true
		}
	}
	return "", false
}

func decodeBase64(s string) (string, bool) {
	s = strings.Join(strings.Fields(s), "")
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil && utf8.Valid(b) {
			return string(b), true
		}
	}
	return "", false
}

// decodeUTF16Base64 decodes PowerShell's -EncodedCommand: base64 of
// UTF-16LE text.
func decodeUTF16Base64(s string) (string, bool) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b)%2 != 0 {
		return "", false
	}
	rs := make([]rune, 0, len(b)/2)
	for i := 0; i < len(b); i += 2 {
		rs = append(rs, rune(b[i])|rune(b[i+1])<<8)
	}
	return string(rs), true
}
