package classify

import (
	"strings"

	"github.com/flowd-dev/flowd/internal/shellnorm"
)

// shellCommand is one simple command found in a command line: its words
// after quote removal, its redirection targets and any here-document or
// here-string text fed to it.
type shellCommand struct {
	words     []string
	redirects []string
	stdin     string
	env       []string // NAME=value set for this command alone
}

// substitution stands in for the output of a $(…) or `…` that is only
// known at run time; the commands in them are collected on their own. The
// "$" marks the word as only known at run time.
const substitution = "$(…)"

// parseShell returns every simple command in src, nested ones included, and
// whether src was well-formed.
func parseShell(src string) ([]shellCommand, bool) {
	cmds, ok, _ := readShell(src)
	return cmds, ok
}

// readShell reads src with shellnorm, the one reader of command lines
// flowd has (fuzzed, and bounded in its input and nesting), and returns
// its simple commands, whether src was well-formed, and the first trick
// (shellnorm.Found) that wrote a command name in a form whose reading is
// a guess.
//
// shellnorm reads more than the words: it substitutes variables set on
// the same line and the output of $(echo …)-like substitutions, decodes
// text fed to a shell, and reads lookalike letters as the ASCII ones they
// imitate. That names more commands, but each is the likeliest reading,
// not a certain one: the shell may take another path (x=curl; [ -f a ] &&
// x=ls; $x), and a program may be named ｌｓ. The line is therefore also
// judged as running a command known only at run time, as it was before
// shellnorm read it: what the name resolves to can only make the line
// more dangerous, never less.
//
// The commands shellnorm reads out of another command's text (eval's
// arguments, a shell's -c string or standard input) are left out:
// classify follows those itself (simple, shell), with its own bound, and
// following them twice, at every level, would cost time exponential in
// the nesting. Those it reads out of text a program is given to run
// (shellnorm.Given: git -c core.pager=…, sed's e, tmux) are kept: they
// run as part of the line.
func readShell(src string) (cmds []shellCommand, ok bool, guessed *shellnorm.Found) {
	l := shellnorm.Parse(src)
	substituted := map[int]bool{}
	for _, c := range l.Commands {
		for _, subs := range c.Substituted {
			for _, i := range subs {
				substituted[i] = true
			}
		}
	}
	cmds = make([]shellCommand, 0, len(l.Commands))
	for i, c := range l.Commands {
		if c.Inner && !substituted[i] && !c.Given {
			continue
		}
		sc := shellCommand{words: make([]string, len(c.Words)), stdin: c.Stdin, env: c.Env}
		for k, w := range c.Words {
			sc.words[k] = strings.ReplaceAll(w, shellnorm.Unknown, substitution)
		}
		for _, r := range c.Redirects {
			// "<file", ">&2", "&>log": the operator, then the target.
			if t := strings.TrimLeft(r, "<>&|"); t != "" {
				sc.redirects = append(sc.redirects, t)
			}
		}
		cmds = append(cmds, sc)
	}
	for _, f := range l.Tricks {
		switch f.Trick {
		case shellnorm.Variable, shellnorm.IFS, shellnorm.Substituted, shellnorm.Decoded, shellnorm.Lookalike, shellnorm.Glob:
			return cmds, !l.Broken, &f
		}
	}
	return cmds, !l.Broken, nil
}
