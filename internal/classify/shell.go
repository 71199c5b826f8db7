package classify

import "strings"

// shellCommand is one simple command found in a command line: its words
// after quote removal, its redirection targets and any here-document or
// here-string text fed to it.
type shellCommand struct {
	words     []string
	redirects []string
	stdin     string
}

// substitution stands in for $(…) and `…` inside a word; the commands in
// them are collected on their own. The "$" marks the word as only known at
// run time.
const substitution = "$(…)"

// maxShellDepth bounds nesting of $(…), `…` and ${…} so hostile input cannot
// recurse without end; deeper input is reported as unparsable.
const maxShellDepth = 32

// shellParser is a tokenizer for POSIX-shell-like command lines, enough to
// find every command a line would run: it knows quoting, escapes, operators
// (| || & && ; newlines, subshell parentheses), redirections, here-documents,
// $'…' strings, and command substitution anywhere, including inside double
// quotes and ${…}. It never evaluates anything. Input it cannot close (an
// unterminated quote or substitution) sets broken; what was read is kept.
type shellParser struct {
	src      []rune
	pos      int
	depth    int
	cmds     []shellCommand
	heredocs []heredoc
	lineFrom int // first command of the current line, for here-documents
	broken   bool
}

type heredoc struct {
	delim     string
	stripTabs bool
}

// parseShell returns every simple command in src, nested ones included, and
// whether src was well-formed.
func parseShell(src string) ([]shellCommand, bool) {
	p := &shellParser{src: []rune(src)}
	p.list(false)
	return p.cmds, !p.broken
}

func (p *shellParser) peek(off int) rune {
	if i := p.pos + off; i < len(p.src) {
		return p.src[i]
	}
	return 0
}

func (p *shellParser) skip(n int) { p.pos = min(p.pos+n, len(p.src)) }

func (p *shellParser) blanks() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

// list reads commands until the end of input or, when nested, the ")"
// closing a $( or <( that the caller consumed.
func (p *shellParser) list(nested bool) {
	if p.depth >= maxShellDepth {
		p.broken = true
		p.pos = len(p.src)
		return
	}
	p.depth++
	defer func() { p.depth-- }()
	var cur shellCommand
	finish := func() {
		if len(cur.words) > 0 || len(cur.redirects) > 0 || cur.stdin != "" {
			p.cmds = append(p.cmds, cur)
		}
		cur = shellCommand{}
	}
	parens := 0
	for p.pos < len(p.src) {
		switch r := p.src[p.pos]; {
		case r == ' ' || r == '\t' || r == '\r':
			p.pos++
		case r == '\\' && p.peek(1) == '\n':
			p.skip(2)
		case r == '\n':
			p.pos++
			finish()
			p.readHeredocs()
		case r == '#':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		case r == '&' && p.peek(1) == '>':
			p.redirect(&cur)
		case r == ';' || r == '&' || r == '|':
			p.pos++
			if n := p.peek(0); n == r || n == '&' && (r == '|' || r == ';') {
				p.pos++
			}
			finish()
		case r == '(':
			p.pos++
			finish()
			parens++
		case r == ')':
			p.pos++
			finish()
			if parens > 0 {
				parens--
			} else if nested {
				return
			}
		case r == '<' || r == '>':
			p.redirect(&cur)
		default:
			w := p.word()
			if isFD(w) && (p.peek(0) == '<' || p.peek(0) == '>') {
				continue // the 2 in 2>&1
			}
			cur.words = append(cur.words, w)
		}
	}
	finish()
	if nested {
		p.broken = true
	}
}

func isFD(w string) bool {
	if w == "" || len(w) > 2 {
		return false
	}
	for _, r := range w {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// redirect reads one redirection: its target goes to cur.redirects,
// here-strings to cur.stdin; here-documents are read at the end of the line.
func (p *shellParser) redirect(cur *shellCommand) {
	if p.peek(0) == '&' {
		p.pos++
	}
	switch {
	case p.peek(0) == '<' && p.peek(1) == '<' && p.peek(2) == '<':
		p.skip(3)
		p.blanks()
		cur.stdin += p.word() + "\n"
		return
	case p.peek(0) == '<' && p.peek(1) == '<':
		p.skip(2)
		h := heredoc{}
		if p.peek(0) == '-' {
			h.stripTabs = true
			p.pos++
		}
		p.blanks()
		h.delim = p.word()
		p.heredocs = append(p.heredocs, h)
		return
	case p.peek(1) == '(': // process substitution <(…) or >(…)
		p.skip(2)
		p.list(true)
		return
	}
	p.pos++ // < or >
	if n := p.peek(0); n == '>' || n == '<' || n == '&' || n == '|' {
		p.pos++
	}
	p.blanks()
	if t := p.word(); t != "" {
		cur.redirects = append(cur.redirects, t)
	}
}

// readHeredocs consumes the bodies of the here-documents opened on the line
// just ended. A body is fed to every command of that line: in
// `cat <<EOF | python3` it is python3 that runs it, and attributing text to
// a harmless command costs nothing.
func (p *shellParser) readHeredocs() {
	for _, h := range p.heredocs {
		var body strings.Builder
		for p.pos < len(p.src) {
			end := p.pos
			for end < len(p.src) && p.src[end] != '\n' {
				end++
			}
			line := string(p.src[p.pos:end])
			p.pos = min(end+1, len(p.src))
			check := strings.TrimRight(line, "\r")
			if h.stripTabs {
				check = strings.TrimLeft(check, "\t")
			}
			if check == h.delim {
				break
			}
			body.WriteString(line)
			body.WriteByte('\n')
		}
		for i := p.lineFrom; i < len(p.cmds); i++ {
			p.cmds[i].stdin += body.String()
		}
	}
	p.heredocs = nil
	p.lineFrom = len(p.cmds)
}

// word reads one word up to an unquoted blank or operator, removing quotes
// and escapes the way the shell would.
func (p *shellParser) word() string {
	var b strings.Builder
	for p.pos < len(p.src) {
		switch r := p.src[p.pos]; r {
		case ' ', '\t', '\r', '\n', ';', '&', '|', '(', ')', '<', '>':
			return b.String()
		case '\\':
			if n := p.peek(1); n != '\n' && n != 0 {
				b.WriteRune(n)
			}
			p.skip(2)
		case '\'':
			p.pos++
			p.singleQuoted(&b)
		case '"':
			p.pos++
			p.doubleQuoted(&b)
		case '`':
			p.pos++
			p.backtick()
			b.WriteString(substitution)
		case '$':
			p.dollar(&b)
		default:
			b.WriteRune(r)
			p.pos++
		}
	}
	return b.String()
}

func (p *shellParser) singleQuoted(b *strings.Builder) {
	for p.pos < len(p.src) {
		r := p.src[p.pos]
		p.pos++
		if r == '\'' {
			return
		}
		b.WriteRune(r)
	}
	p.broken = true
}

func (p *shellParser) doubleQuoted(b *strings.Builder) {
	for p.pos < len(p.src) {
		switch r := p.src[p.pos]; {
		case r == '"':
			p.pos++
			return
		case r == '\\':
			switch n := p.peek(1); n {
			case '$', '`', '"', '\\':
				b.WriteRune(n)
				p.skip(2)
			case '\n':
				p.skip(2)
			default:
				b.WriteRune(r)
				p.pos++
			}
		case r == '`':
			p.pos++
			p.backtick()
			b.WriteString(substitution)
		case r == '$' && (p.peek(1) == '(' || p.peek(1) == '{'):
			p.dollar(b)
		default:
			b.WriteRune(r)
			p.pos++
		}
	}
	p.broken = true
}

// dollar handles a "$" outside single quotes: $(…), $((…)), ${…}, $'…' and
// $"…". A plain $NAME stays in the word, marking it as run-time text.
func (p *shellParser) dollar(b *strings.Builder) {
	switch p.peek(1) {
	case '(':
		if p.peek(2) == '(' {
			p.skip(3)
			p.expansion('(', ')', 2)
			b.WriteString("$((…))")
			return
		}
		p.skip(2)
		p.list(true)
		b.WriteString(substitution)
	case '{':
		p.skip(2)
		p.expansion('{', '}', 1)
		b.WriteString("${…}")
	case '\'':
		p.skip(2)
		p.ansiC(b)
	case '"':
		p.pos++ // $"…" is a translatable "…"
	default:
		b.WriteRune('$')
		p.pos++
	}
}

// expansion consumes the rest of a ${…} or $((…)) whose depth opening
// brackets are already consumed, still collecting any command substitution
// inside it (${x:-$(curl …)}).
func (p *shellParser) expansion(open, close rune, depth int) {
	if p.depth >= maxShellDepth {
		p.broken = true
		p.pos = len(p.src)
		return
	}
	p.depth++
	defer func() { p.depth-- }()
	for p.pos < len(p.src) && depth > 0 {
		switch r := p.src[p.pos]; {
		case r == '\\':
			p.skip(2)
		case r == '$' && p.peek(1) == '(' && p.peek(2) != '(':
			p.skip(2)
			p.list(true)
		case r == '$' && p.peek(1) == '{':
			p.skip(2)
			p.expansion('{', '}', 1)
		case r == '`':
			p.pos++
			p.backtick()
		case r == open:
			depth++
			p.pos++
		case r == close:
			depth--
			p.pos++
		default:
			p.pos++
		}
	}
	if depth > 0 {
		p.broken = true
	}
}

// backtick reads an old-style `…` substitution (the opening ` consumed) and
// parses its text as commands of its own.
func (p *shellParser) backtick() {
	var inner strings.Builder
	closed := false
	for p.pos < len(p.src) {
		r := p.src[p.pos]
		if r == '`' {
			p.pos++
			closed = true
			break
		}
		if n := p.peek(1); r == '\\' && (n == '`' || n == '\\' || n == '$') {
			inner.WriteRune(n)
			p.skip(2)
			continue
		}
		inner.WriteRune(r)
		p.pos++
	}
	if !closed {
		p.broken = true
	}
	if p.depth >= maxShellDepth {
		p.broken = true
		return
	}
	sub := &shellParser{src: []rune(inner.String()), depth: p.depth + 1}
	sub.list(false)
	p.cmds = append(p.cmds, sub.cmds...)
	p.broken = p.broken || sub.broken
}

// ansiC decodes a $'…' string (the opening $' consumed), since
// $'\x63url' is curl.
func (p *shellParser) ansiC(b *strings.Builder) {
	simple := map[rune]rune{'n': '\n', 't': '\t', 'r': '\r', 'a': '\a', 'b': '\b', 'e': 0x1b, 'E': 0x1b, 'f': '\f',
		'v': '\v', '\\': '\\', '\'': '\'', '"': '"', '?': '?'}
	for p.pos < len(p.src) {
		r := p.src[p.pos]
		p.pos++
		switch {
		case r == '\'':
			return
		case r != '\\' || p.pos >= len(p.src):
			b.WriteRune(r)
		case p.src[p.pos] == 'x':
			p.pos++
			b.WriteRune(p.number(16, 2))
		case p.src[p.pos] >= '0' && p.src[p.pos] <= '7':
			b.WriteRune(p.number(8, 3))
		case p.src[p.pos] == 'u':
			p.pos++
			b.WriteRune(p.number(16, 4))
		case p.src[p.pos] == 'U':
			p.pos++
			b.WriteRune(p.number(16, 8))
		default:
			if s, ok := simple[p.src[p.pos]]; ok {
				b.WriteRune(s)
			} else {
				b.WriteRune('\\')
				b.WriteRune(p.src[p.pos])
			}
			p.pos++
		}
	}
	p.broken = true
}

// number reads up to maxDigits digits in base and returns their value as a rune.
func (p *shellParser) number(base, maxDigits int) rune {
	var v rune
	for i := 0; i < maxDigits && p.pos < len(p.src); i++ {
		d := digitValue(p.src[p.pos])
		if d < 0 || d >= base {
			break
		}
		v = v*rune(base) + rune(d)
		p.pos++
	}
	return v
}

func digitValue(r rune) int {
	switch {
	case r >= '0' && r <= '9':
		return int(r - '0')
	case r >= 'a' && r <= 'f':
		return int(r-'a') + 10
	case r >= 'A' && r <= 'F':
		return int(r-'A') + 10
	}
	return -1
}
