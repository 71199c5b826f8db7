package cmdrisk

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/flowd-dev/flowd/internal/shellnorm"
)

// A file's name does not say whether it runs: a note, data or a file
// with no extension runs when a command hands it to a shell or an
// interpreter (sh notes.txt, bash < f, . f, eval "$(cat f)", cat f | sh,
// python3 f.txt, make -f f, crontab f, ./f), and no list of the names
// of files that run would be whole (found by a red team: 22 of 24 such
// chains passed, RT9-1). So a file is judged by what runs it: Runs
// finds the files a command line runs or loads as code, and the caller
// reads each and screens it (ScreenRun) as the code it is there.

// How a file is run.
const (
	AsShell    = "shell"      // its lines are command lines
	AsExec     = "executable" // run by its path: its #! line says which
	AsProgram  = "program"    // an interpreter runs it (Run.Lang)
	AsBuild    = "build file" // make reads it: its recipes are command lines
	AsCron     = "cron table" // its lines are schedules and command lines
	AsConfig   = "config"     // a tool loads it and runs the commands its keys hold
	AsNotebook = "notebook"   // a notebook runner runs its cells
)

// Run is a file a command line runs or loads as code.
type Run struct {
	// Path is the file as the line names it, relative to the line's
	// directory where it is not absolute ($PWD/ dropped, a cd earlier
	// on the line applied).
	Path string
	As   string
	Lang string // the interpreter, for AsProgram
	// Named: the line names the file as the code to run (sh f, ./f), so
	// one that cannot be read is code nobody has seen; else the file
	// may feed code (cat f | sh, a Makefile make looks for) and one
	// that is not there runs nothing.
	Named bool
	// By is the command that runs it, for a reason.
	By string
}

// maxRuns bounds the files one line is found to run.
const maxRuns = 16

// Runs returns the files the command line cmd runs or loads as code.
func Runs(cmd string) []Run {
	l := shellnorm.Parse(cmd)
	r := &runs{l: l, alias: map[string]string{}}
	for i := range l.Commands {
		r.command(i)
		if len(r.out) >= maxRuns {
			return r.out[:maxRuns]
		}
	}
	return r.out
}

type runs struct {
	l   shellnorm.Line
	out []Run
	// dir is where a cd earlier on the line went; alias the files an
	// earlier mv or cp made, by the file they came from: at the time
	// the line is judged, sync.sh of mv notes.txt sync.sh && sh sync.sh
	// is still notes.txt.
	dir   string
	alias map[string]string
}

// where resolves a path as the line names it.
func (r *runs) where(p string) string {
	for _, v := range []string{"$PWD/", "${PWD}/", "$(pwd)/"} {
		p = strings.TrimPrefix(p, v)
	}
	if p == "" || p == shellnorm.Unknown || strings.Contains(p, shellnorm.Unknown) {
		return ""
	}
	if r.dir != "" && !path.IsAbs(p) && !strings.HasPrefix(p, "~") {
		p = path.Join(r.dir, p)
	}
	if a, ok := r.alias[path.Clean(p)]; ok {
		return a
	}
	return p
}

func (r *runs) add(p, as, lang string, named bool, by string) {
	if p = r.where(p); p == "" || p == "-" {
		return
	}
	// Cleaned before the system test (/usr/../home/u/notes.txt is no
	// system file). A device or a process's file (/dev/stdin, /dev/fd/N,
	// /proc/self/fd/N: a file fed from elsewhere) is kept, for the judge
	// cannot read it and asks.
	if c := path.Clean(p); c == "/dev/null" || slices.ContainsFunc(systemDirs, func(d string) bool { return strings.HasPrefix(c, d) }) {
		return
	}
	x := Run{Path: p, As: as, Lang: lang, Named: named, By: by}
	if !slices.Contains(r.out, x) {
		r.out = append(r.out, x)
	}
}

// systemDirs hold programs and configs the system installed, not files
// an agent wrote: they are not read.
var systemDirs = []string{"/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/opt/", "/nix/", "/snap/", "/etc/", "/System/", "/Library/"}

func (r *runs) command(i int) {
	c := r.l.Commands[i]
	words := c.Run()
	n := name(words)
	if n == "" {
		return
	}
	for _, e := range c.Env {
		k, v, _ := strings.Cut(e, "=")
		switch k {
		case "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG":
			r.add(v, AsConfig, "", true, k+"=")
		case "NODE_OPTIONS":
			r.nodeRequires(strings.Fields(v), k)
		}
	}
	if slices.Contains(c.Words, "xargs") {
		r.xargs(i, c)
		return
	}
	switch {
	case n == "cd" && len(words) == 2 && !c.Inner:
		r.dir = r.where(words[1])
		return
	case (n == "mv" || n == "cp" || n == "install" || n == "ln") && !c.Inner:
		if ops := operands(words[1:], "-t", "-m", "-o", "-g", "-S"); len(ops) == 2 {
			if from := r.where(ops[0]); from != "" {
				r.alias[path.Clean(r.where(ops[1]))] = from
			}
		}
		return
	case strings.Contains(words[0], "/") && !interpreter(n):
		r.add(words[0], AsExec, "", true, words[0])
	case shellnorm.IsShell(n) || n == "source" || n == ".":
		r.shell(i, c, words, n)
	case n == "eval" || n == "iex" || n == "invoke-expression":
		r.fed(i, c, AsShell, "", n)
	case interpreter(n):
		r.interpreter(i, c, words, n)
	case n == "crontab":
		if ops := operands(words[1:], "-u"); len(ops) == 1 {
			r.add(ops[0], AsCron, "", true, n)
		}
	case n == "at" || n == "batch":
		if v := optionValue(words[1:], "-f"); v != "" {
			r.add(v, AsShell, "", true, n+" -f")
		}
	case n == "make" || n == "gmake":
		r.make(words)
	case n == "git":
		r.git(words)
	case n == "jupyter" || n == "papermill" || n == "ipython" || n == "runipy":
		for _, a := range words[1:] {
			if strings.HasSuffix(strings.ToLower(a), ".ipynb") {
				r.add(a, AsNotebook, "", true, n)
				if n == "papermill" {
					break // the second is where it writes
				}
			}
		}
	case n == "systemctl":
		if k := slices.IndexFunc(words, func(w string) bool { return w == "link" || w == "enable" }); k > 0 {
			for _, a := range words[k+1:] {
				if strings.Contains(a, "/") && !strings.HasPrefix(a, "-") {
					r.add(a, AsConfig, "", true, "systemctl "+words[k])
				}
			}
		}
	case n == "npm" || n == "npx" || n == "pnpm" || n == "yarn":
		// npm reads the project's .npmrc, whose node-options may
		// --require a file into every node it starts.
		r.add(".npmrc", AsConfig, "", false, n)
	}
}

// shell notes the file a shell runs: its first operand, else what
// feeds its input (bash < f, cat f | sh), unless it runs -c's text,
// which is screened as a command line of its own.
func (r *runs) shell(i int, c shellnorm.Command, words []string, n string) {
	args := words[1:]
	if n != "source" && n != "." {
		for k := 0; k < len(args); k++ {
			a := args[k]
			if a == "-o" || a == "+o" || a == "-O" || a == "+O" {
				k++
				continue
			}
			if a == "--" {
				args = args[k+1:]
				break
			}
			if (strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+")) && len(a) > 1 {
				if !strings.HasPrefix(a, "--") && strings.Contains(a, "c") {
					r.fed(i, c, AsShell, "", n+" -c")
					return
				}
				if !strings.HasPrefix(a, "--") && strings.Contains(a, "s") {
					args = nil
					break
				}
				continue
			}
			args = args[k:]
			break
		}
		if len(args) > 0 && (strings.HasPrefix(args[0], "-") || strings.HasPrefix(args[0], "+")) {
			args = nil
		}
	}
	if len(args) > 0 {
		r.add(args[0], AsShell, "", true, n)
		return
	}
	r.fed(i, c, AsShell, "", n)
}

// interpreterValued are the options of interpreters that take a value.
var interpreterValued = []string{"-W", "-X", "-Q", "-I", "-C", "-x", "--loader", "--experimental-loader", "--env-file", "--title"}

// interpreter notes the program file an interpreter runs, the files a
// node option loads, and a file its inline code runs
// (exec(open('f').read()), require('./f')).
func (r *runs) interpreter(i int, c shellnorm.Command, words []string, n string) {
	lang := n
	args := words[1:]
	for k := 0; k < len(args); k++ {
		a := args[k]
		switch {
		case a == "-c" || a == "-e" || a == "-E" || a == "-p" || a == "--eval" || a == "--print" || a == "-Command" || a == "-command":
			if k+1 < len(args) {
				r.inline(args[k+1], lang, n)
			}
			return
		case a == "-m" || a == "-M" || a == "-r" && !strings.HasPrefix(n, "node"):
			return // a module, found on the interpreter's path
		case a == "-r" || a == "--require" || a == "--import":
			if k+1 < len(args) {
				r.add(args[k+1], AsProgram, lang, true, n+" "+a)
			}
			k++
		case a == "-":
			r.fed(i, c, AsProgram, lang, n)
			return
		case slices.Contains(interpreterValued, a):
			k++
		case strings.HasPrefix(a, "-"):
		case a == "run" && (n == "deno" || n == "bun") && k == 0:
		default:
			r.add(a, AsProgram, lang, true, n)
			return
		}
	}
	r.fed(i, c, AsProgram, lang, n)
}

// inline notes the files inline code loads and runs as code: a quoted
// path in code that evaluates text or loads a module.
func (r *runs) inline(code, lang, n string) {
	l := strings.ToLower(code)
	if !containsAny(l, []string{"exec(", "eval(", "require(", "import(", "load ", "load(", "runpy", "execfile", "source(", "do ", "include"}) {
		return
	}
	for _, p := range quotedPaths(code) {
		r.add(p, AsProgram, lang, false, n+" "+clip(code))
	}
}

// nodeRequires notes the files node options load into every node.
func (r *runs) nodeRequires(opts []string, by string) {
	for k, o := range opts {
		if v, ok := strings.CutPrefix(o, "--require="); ok {
			r.add(v, AsProgram, "node", true, by)
		} else if v, ok := strings.CutPrefix(o, "--import="); ok {
			r.add(v, AsProgram, "node", true, by)
		} else if (o == "--require" || o == "-r" || o == "--import") && k+1 < len(opts) {
			r.add(opts[k+1], AsProgram, "node", true, by)
		}
	}
}

// fed notes the files whose text reaches the command at i as code: its
// input (< f), what feeds its pipe and what its substitutions print
// (cat f, jq … f, sed … f: any operand there may be the file).
func (r *runs) fed(i int, c shellnorm.Command, as, lang, by string) {
	for _, x := range c.Redirects {
		if strings.HasPrefix(x, "<") && !strings.HasPrefix(x, "<<") && !strings.HasPrefix(x, "<(") {
			r.add(strings.TrimLeft(x, "<"), as, lang, true, by+" <")
		}
	}
	var feeders []int
	if c.PipedFrom >= 0 {
		feeders = append(feeders, c.PipedFrom)
	}
	for _, subs := range c.Substituted {
		feeders = append(feeders, subs...)
	}
	seen := map[int]bool{}
	for len(feeders) > 0 {
		j := feeders[0]
		feeders = feeders[1:]
		if j < 0 || j >= len(r.l.Commands) || seen[j] || len(seen) > 16 {
			continue
		}
		seen[j] = true
		d := r.l.Commands[j]
		for _, a := range operands(d.Run()[min(1, len(d.Run())):]) {
			r.add(a, as, lang, false, by)
		}
		if v := optionValue(d.Words, "-a"); v != "" && slices.Contains(d.Words, "xargs") {
			r.add(v, as, lang, false, by)
		}
		for _, x := range d.Redirects {
			if strings.HasPrefix(x, "<") && !strings.HasPrefix(x, "<<") {
				r.add(strings.TrimLeft(x, "<"), as, lang, false, by)
			}
		}
		feeders = append(feeders, d.PipedFrom)
		for _, subs := range d.Substituted {
			feeders = append(feeders, subs...)
		}
	}
}

// xargs notes the file xargs reads its arguments from (-a f, or its
// input) where the command it runs is a shell or an interpreter: each
// line of the file is then code.
func (r *runs) xargs(i int, c shellnorm.Command) {
	k := slices.Index(c.Words, "xargs")
	args := c.Words[k+1:]
	file := ""
	j := 0
	for ; j < len(args); j++ {
		a := args[j]
		switch {
		case a == "-a" || a == "--arg-file":
			if j+1 < len(args) {
				file = args[j+1]
			}
			j++
		case strings.HasPrefix(a, "--arg-file="):
			file = strings.TrimPrefix(a, "--arg-file=")
		case a == "-d" || a == "-E" || a == "-I" || a == "-L" || a == "-n" || a == "-P" || a == "-s" || a == "--delimiter":
			j++
		case strings.HasPrefix(a, "-"):
		default:
			goto run
		}
	}
run:
	if j >= len(args) {
		return
	}
	if n := name(args[j:]); !interpreter(n) {
		return
	}
	if file != "" {
		r.add(file, AsShell, "", true, "xargs -a")
		return
	}
	r.fed(i, shellnorm.Command{PipedFrom: c.PipedFrom, Redirects: c.Redirects}, AsShell, "", "xargs")
}

// make notes the makefile make reads: -f's, else the ones it looks for.
func (r *runs) make(words []string) {
	dir := optionValue(words[1:], "-C")
	var named []string
	for k, a := range words[1:] {
		switch {
		case a == "-f" || a == "--file" || a == "--makefile":
			if k+2 < len(words) {
				named = append(named, words[k+2])
			}
		case strings.HasPrefix(a, "--file=") || strings.HasPrefix(a, "--makefile="):
			named = append(named, a[strings.IndexByte(a, '=')+1:])
		case strings.HasPrefix(a, "-f") && len(a) > 2 && !strings.HasPrefix(a, "--"):
			named = append(named, a[2:])
		}
	}
	for _, f := range named {
		r.add(path.Join(dir, f), AsBuild, "", true, "make -f")
	}
	if len(named) == 0 {
		for _, f := range []string{"GNUmakefile", "makefile", "Makefile"} {
			r.add(path.Join(dir, f), AsBuild, "", false, "make")
		}
	}
}

// git notes the config files git -c include.path= loads.
func (r *runs) git(words []string) {
	for k, a := range words[1:] {
		v := a
		if a == "-c" || a == "--config-env" {
			continue
		}
		if k > 0 && words[k] != "-c" {
			continue
		}
		key, val, ok := strings.Cut(v, "=")
		if ok && strings.HasSuffix(strings.ToLower(key), ".path") && strings.HasPrefix(strings.ToLower(key), "include") {
			r.add(val, AsConfig, "", true, "git -c "+key)
		}
	}
}

// optionValue is the value of option o in args (o v, or ov).
func optionValue(args []string, o string) string {
	for k, a := range args {
		if a == o && k+1 < len(args) {
			return args[k+1]
		}
		if strings.HasPrefix(a, o) && len(a) > len(o) && !strings.HasPrefix(o, "--") && len(o) == 2 {
			return a[len(o):]
		}
	}
	return ""
}

// CronCommands drops the schedule from each line of a cron table,
// leaving the commands it runs.
func CronCommands(table string) string {
	var b strings.Builder
	for _, line := range strings.Split(table, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 0 || strings.HasPrefix(f[0], "#"):
			continue
		case strings.HasPrefix(f[0], "@") && len(f) > 1:
			f = f[1:]
		case len(f) > 5 && !strings.Contains(f[0], "="):
			f = f[5:]
		}
		b.WriteString(strings.Join(f, " ") + "\n")
	}
	return b.String()
}

// Unread: a command line runs a file flowd could not read, or whose
// text it did not see written: code nobody has seen.
const Unread = "runs_unread_file"

// ScreenRun judges the text of a file run as r says, by the rules its
// code would be judged by written on the command line: a shell's file
// as a command line, a program as its interpreter's inline code, a
// makefile's recipes, a cron table's commands (which run unwatched: any
// finding refuses), a config's or a notebook's commands. Every file's
// text is also read for command lines it holds (Embedded). lines are
// the command lines it runs, for the checks that read those
// (selfguard).
func ScreenRun(r Run, text string) (rep Report, lines []string) {
	as, lang := r.As, r.Lang
	if as == AsExec {
		if strings.IndexByte(text[:min(len(text), 8<<10)], 0) >= 0 {
			return Report{}, nil // a compiled program: no text to read
		}
		switch lang = Program(r.Path, text); {
		case lang != "":
			as = AsProgram
		case strings.HasPrefix(text, "#!") && !Script(r.Path, text):
			as = "" // awk, sed, make -f…: its command lines are read (Embedded)
		default:
			as = AsShell
		}
	}
	add := func(x Report, severe bool) {
		for _, f := range x.Findings {
			if f.Rule == Disguised || f.Rule == Unscreened {
				// A script names commands by variables ($cmd, $(MAKE))
				// and is as long as it is: what an agent types on one
				// line has no reason to, a file run has (1 in 11 of a
				// system's scripts would be refused). What the disguise
				// hides is read plainly all the same.
				continue
			}
			if severe {
				f.Severe = true
			}
			if !hasRule(rep.Findings, f.Rule) {
				rep.Findings = append(rep.Findings, f)
			}
		}
		rep.Network = rep.Network || x.Network
		rep.Reads = append(rep.Reads, x.Reads...)
		rep.Sends = append(rep.Sends, x.Sends...)
	}
	switch as {
	case AsShell:
		if r.Named {
			lines = shellLines(text)
		} else {
			// Text a filter feeds to the shell (jq … | sh) is data as it
			// stands: the command lines it holds are read (Embedded).
			lines = []string{text}
		}
	case AsCron:
		lines = []string{CronCommands(text)}
		add(ScreenUnwatched(lines[0]), true)
	case AsBuild:
		lines = BuildCommands("Makefile", text)
		for _, l := range lines {
			s := Screen(l)
			s.Findings = slices.DeleteFunc(s.Findings, func(f Finding) bool { return !f.Severe }) // as the build file written (judge)
			add(s, false)
		}
		if f, ok := Flow(lines); ok {
			rep.Findings = append(rep.Findings, f)
		}
	case AsProgram:
		add(ScreenProgram(lang, text), false)
	case AsNotebook:
		shell, code := notebookCode(text)
		for _, l := range shell {
			add(Screen(l), false)
		}
		add(ScreenProgram("python3", code), false)
		lines = shell
	}
	if as == AsShell && r.Named {
		// Each line as the command line it is; the whole file as one,
		// for what crosses lines (F=.env, then curl … @$F), asked about
		// only: a script that reads a key in one place and reaches
		// the network in another is ordinary work.
		var each Report
		long := false
		for _, l := range strings.Split(strings.ReplaceAll(text, "\\\n", " "), "\n") {
			x := Screen(l)
			each.Findings = append(each.Findings, x.Findings...)
			long = long || len(l) > shellnorm.MaxInput
		}
		add(each, false)
		if long && !hasRule(rep.Findings, Unscreened) {
			// A line past what Screen reads hides its end: asked about,
			// not dropped with the whole file's length (padding before a
			// send, a review of the file-run reader found).
			rep.Findings = append(rep.Findings, Finding{Rule: Unscreened,
				Reason: fmt.Sprintf("a line of %s is longer than the %d bytes flowd screens", r.Path, shellnorm.MaxInput)})
		}
		for _, l := range lines {
			if len(lines) > 1 {
				break // past what Screen reads whole: the lines were read
			}
			whole := Screen(l)
			for k, f := range whole.Findings {
				whole.Findings[k].Severe = f.Severe && hasRule(each.Findings, f.Rule)
			}
			add(whole, false)
		}
	}
	for _, f := range Embedded(text) {
		if !hasRule(rep.Findings, f.Rule) {
			rep.Findings = append(rep.Findings, f)
		}
	}
	return rep, lines
}

// shellLines splits a shell file into pieces each within what Screen
// reads: the whole, where it fits.
func shellLines(text string) []string {
	if len(text) <= shellnorm.MaxInput {
		return []string{text}
	}
	return strings.Split(strings.ReplaceAll(text, "\\\n", " "), "\n")
}

// notebookCode returns a notebook's shell lines (!cmd, a %%bash cell)
// and its python code, from the notebook's JSON or, where the text is
// not a notebook, from the text read as a cell's source.
func notebookCode(text string) (shell []string, code string) {
	var nb struct {
		Cells []struct {
			Type   string `json:"cell_type"`
			Source any    `json:"source"`
		} `json:"cells"`
	}
	var cells []string
	if json.Unmarshal([]byte(text), &nb) == nil && nb.Cells != nil {
		for _, c := range nb.Cells {
			if c.Type != "code" {
				continue
			}
			switch s := c.Source.(type) {
			case string:
				cells = append(cells, s)
			case []any:
				var b strings.Builder
				for _, x := range s {
					if t, ok := x.(string); ok {
						b.WriteString(t)
					}
				}
				cells = append(cells, b.String())
			}
		}
	} else {
		cells = []string{text}
	}
	var py strings.Builder
	for _, c := range cells {
		first, _, _ := strings.Cut(strings.TrimSpace(c), "\n")
		if f := strings.Fields(first); len(f) > 0 && (f[0] == "%%bash" || f[0] == "%%sh" || f[0] == "%%script" || f[0] == "%%system") {
			shell = append(shell, strings.TrimPrefix(strings.TrimSpace(c), first))
			continue
		}
		for _, l := range strings.Split(c, "\n") {
			t := strings.TrimSpace(l)
			switch {
			case strings.HasPrefix(t, "!"):
				shell = append(shell, strings.TrimPrefix(t, "!"))
			case strings.HasPrefix(t, "%sx ") || strings.HasPrefix(t, "%system "):
				_, rest, _ := strings.Cut(t, " ")
				shell = append(shell, rest)
			default:
				py.WriteString(l + "\n")
			}
		}
	}
	return shell, py.String()
}

// ConfigRuns returns the files a config's text loads as code: node
// options that --require a file (an .npmrc's node-options), a git
// config's include.path.
func ConfigRuns(text string) []Run {
	r := &runs{alias: map[string]string{}}
	section := ""
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			section = strings.ToLower(t)
			continue
		}
		k, v, ok := strings.Cut(t, "=")
		if !ok {
			continue
		}
		k = strings.ToLower(strings.TrimSpace(k))
		v = strings.Trim(strings.TrimSpace(v), `"'`)
		switch {
		case k == "node-options" || k == "node_options":
			r.nodeRequires(strings.Fields(v), "node-options")
		case k == "path" && strings.HasPrefix(section, "[include"):
			r.add(v, AsConfig, "", true, "include.path")
		}
		if len(r.out) >= maxRuns {
			break
		}
	}
	return r.out
}

// Wrote is a file a command line writes: Text is what it writes, when
// Seen (a here-document); else the line writes what a command prints,
// which flowd does not see.
type Wrote struct {
	Path string
	Text string
	Seen bool
}

// Writes returns the files a command line writes by redirecting a
// command's output (> f, >> f, tee f).
func Writes(cmd string) []Wrote {
	l := shellnorm.Parse(cmd)
	r := &runs{l: l, alias: map[string]string{}}
	var out []Wrote
	for _, c := range l.Commands {
		words := c.Run()
		if n := name(words); n == "cd" && len(words) == 2 && !c.Inner {
			r.dir = r.where(words[1])
		}
		var to []string
		for _, x := range c.Redirects {
			if strings.HasPrefix(x, ">") && !strings.HasPrefix(x, ">&") && !strings.HasPrefix(x, ">(") {
				to = append(to, x)
			}
		}
		if name(words) == "tee" {
			for _, p := range operands(words[1:]) {
				to = append(to, ">"+p)
			}
		}
		for _, x := range to {
			p := r.where(strings.TrimLeft(x, ">|"))
			if p == "" || p == "/dev/null" || strings.HasPrefix(p, "/dev/") {
				continue
			}
			seen := c.Stdin != "" && !strings.HasPrefix(x, ">>") && (name(words) == "cat" || name(words) == "tee") && c.PipedFrom < 0
			w := Wrote{Path: p, Seen: seen}
			if seen {
				w.Text = c.Stdin
			}
			out = append(out, w)
			if len(out) >= maxRuns {
				return out
			}
		}
	}
	return out
}
