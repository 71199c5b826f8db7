package selfguard

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/flowd-dev/flowd/internal/shellnorm"
)

// A user flowd runs as the agent's own user: the agent's tools could
// read its data directory, where the key that signs the audit log's
// checkpoints and the attack feeds lies beside the stores (the activity
// log, the quarantined content, the approval passphrase's verifier). With
// the key the agent could forge a checkpoint over a log it rewrote, or a
// feed; with the quarantine, read what flowd kept from it. So reads and
// copies of those files are denied like changes, through every entrance
// that reaches Check. A process of the user's outside the agent still
// reads them: only a system flowd, whose data root owns, keeps them from
// the user's processes.

// publicFiles in the data directory hold nothing to keep from the agent:
// the public key, and the config in force (the config file itself may be
// read).
var publicFiles = []string{"audit.pub", "config-in-force.toml", "config.toml"}

// KeyFile is the signing key's name; a command naming it anywhere is
// refused, so that a search (find / -name audit.key -exec cat) that does
// not name the directory is too.
const KeyFile = "audit.key"

func secretDeny(why string) string {
	return why + ": flowd's signing key and stores are flowd's own (with the key, the audit log's checkpoints and " +
		"attack feeds can be forged; the stores hold what flowd logged and quarantined), so only the user may read or copy them, " +
		"in a terminal of their own. Do not try another way; tell the user what you wanted and why."
}

// secret says what of flowd's secrets abs is (resolved, absolute), or "".
func (g Guard) secret(abs string) string {
	if strings.EqualFold(filepath.Base(abs), KeyFile) {
		return "flowd's signing key"
	}
	for _, d := range g.dataDirs() {
		if abs == d {
			return "flowd's data directory"
		}
		if rel, ok := strings.CutPrefix(abs, strings.TrimRight(d, `/\`)+string(filepath.Separator)); ok {
			if !slices.Contains(publicFiles, rel) {
				return "flowd's data: its signing key and stores"
			}
		}
	}
	if usualData(abs) {
		switch b := strings.ToLower(filepath.Base(abs)); {
		case slices.Contains(publicFiles, b):
			return ""
		case b == "flowd" || b == "data" && usualData(filepath.Dir(abs)):
			return "flowd's data directory"
		}
		return "flowd's data: its signing key and stores"
	}
	return ""
}

// dataDirs are this flowd's data directories and, for a zero Guard, the
// usual one under the agent's home.
func (g Guard) dataDirs() []string {
	if len(g.Secrets) > 0 || g.Home == "" {
		return g.Secrets
	}
	return []string{filepath.Join(g.Home, ".local", "state", "flowd")}
}

// holds reports whether abs is a directory above one of flowd's data
// directories: a recursive copy of it takes them along.
func (g Guard) holds(abs string) bool {
	for _, d := range g.dataDirs() {
		if abs != d && (abs == string(filepath.Separator) || strings.HasPrefix(d, strings.TrimRight(abs, `/\`)+string(filepath.Separator))) {
			return true
		}
	}
	return false
}

// usualData recognises flowd's data directory where flowd keeps it by
// default on each platform, whatever this flowd's environment says.
func usualData(p string) bool {
	segs := strings.Split(strings.ToLower(filepath.ToSlash(p)), "/")
	for i, s := range segs {
		if s != "flowd" || i == 0 {
			continue
		}
		switch prev := segs[i-1]; {
		case prev == "state": // ~/.local/state/flowd, $XDG_STATE_HOME/flowd
			return true
		case prev == "lib" && i >= 2 && segs[i-2] == "var": // a system flowd
			return true
		case prev == "application support": // macOS: config and data share it
			return true
		case prev == "local" && i+1 < len(segs) && segs[i+1] == "data": // %LOCALAPPDATA%\flowd\data
			return true
		}
	}
	return false
}

// listing tools name a directory to list it, not read its files.
func listing(tool string) bool {
	l := strings.ToLower(tool)
	return strings.Contains(l, "list") || l == "ls" || strings.Contains(l, "glob") || strings.Contains(l, "tree") ||
		strings.Contains(l, "stat") || strings.Contains(l, "info")
}

// readsSecret says why a tool naming paths would read flowd's secrets.
func (g Guard) readsSecret(a Action) string {
	for _, p := range a.Paths {
		abs := g.resolve(p, a.Dir)
		what := g.secret(abs)
		if what == "" || what == "flowd's data directory" && listing(a.Tool) {
			continue
		}
		return "reading " + p + " (" + what + ")"
	}
	return ""
}

// harmless commands name files without reading what is in them.
var harmless = []string{"ls", "stat", "du", "test", "[", "realpath", "readlink", "dirname", "basename", "echo", "printf",
	"flowd", "cd", "pwd", "which", "type", "command"}

// recursive commands copy or read a whole tree: naming a directory above
// flowd's data takes the data along.
func recursive(name string, args []string) bool {
	switch name {
	case "tar", "bsdtar", "zip", "7z", "7za", "rsync", "rclone", "cpio", "pax", "ditto", "restic", "borg", "duplicity":
		return true
	case "cp", "scp", "grep", "egrep", "fgrep", "rg", "ag":
		return slices.ContainsFunc(args, func(a string) bool {
			return a == "-r" || a == "-R" || a == "-a" || a == "--recursive" || a == "--archive" || a == "--hidden" || a == "-uu" || a == "-uuu" ||
				strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "rRa") && name != "rg" && name != "ag"
		})
	}
	return false
}

// commandReads says why the simple command words (l's i-th), run in
// dir, would read or copy flowd's secrets: a word naming one (or a glob
// matching one), an input redirection from one, a recursive copy of a
// directory above them, a search above them that hands what it finds
// to a command, a word built at run time from a path among them,
// program code naming one or a glob matching one.
func (g Guard) commandReads(l shellnorm.Line, i int, words []string, dir string) string {
	c := l.Commands[i]
	for _, r := range c.Redirects {
		if t, ok := strings.CutPrefix(r, "<"); ok && !strings.HasPrefix(t, "<") && !strings.HasPrefix(t, "&") && !strings.HasPrefix(t, "(") {
			if what := g.secret(g.resolve(strings.TrimSpace(t), dir)); what != "" {
				return "reading " + strings.TrimSpace(t) + " (" + what + ")"
			}
		}
	}
	name, args := base(words[0]), words[1:]
	if ops := operands(args); name == "flowd" && len(ops) >= 2 && ops[0] == "fingerprints" && ops[1] == "export" {
		// It signs with the key whatever prints the socket it is given
		// serves: a flowd the agent runs could serve any.
		return "flowd fingerprints export (it signs a feed with flowd's key)"
	}
	if slices.Contains(harmless, name) {
		return ""
	}
	deep := recursive(name, args)
	if dir != "" {
		dir = g.resolve(dir, "") // once, not for every bare word below
	}
	if why := g.searchReads(name, args, dir, outputUsed(l, i)); why != "" {
		return why
	}
	if why := g.builtFrom(l, i, name, dir); why != "" {
		return why
	}
	for _, w := range args {
		// --file=PATH, if=PATH: the value is the path.
		if i := strings.IndexByte(w, '='); i > 0 && !strings.ContainsAny(w[:i], "/~$") {
			w = w[i+1:]
		}
		// curl -d @FILE, -F f=@FILE, f=<FILE: the file is sent.
		w = strings.TrimLeft(w, "@<")
		if w == "" || strings.HasPrefix(w, "-") {
			continue
		}
		if strings.EqualFold(base(w), KeyFile) {
			return name + " " + w + " (flowd's signing key)"
		}
		for _, abs := range g.expand(w, dir) {
			if what := g.secret(abs); what != "" {
				return name + " " + w + " (" + what + ")"
			}
			if deep && g.holds(abs) {
				return name + " " + w + " (a directory that holds flowd's data, copied or read whole)"
			}
		}
	}
	if interpreters.MatchString(name) {
		code := strings.Join(args, " ")
		for _, p := range pathWord.FindAllString(code, 64) {
			for _, abs := range g.expand(p, dir) {
				if what := g.secret(abs); what != "" {
					return name + " code that reads " + p + " (" + what + ")"
				}
				if g.holds(abs) && walksTree.MatchString(code) {
					return name + " code that walks " + p + " (a directory that holds flowd's data)"
				}
			}
		}
	}
	return ""
}

// walksTree is code that reads every file under a directory it names.
var walksTree = regexp.MustCompile(`\bwalk\b|os\.walk|rglob|\*\*|Find\.find|readdirSync\(.*recursive|File::Find|globSync|fs\.glob|iglob`)

// outputUsed says whether l's i-th command's output is used by another
// command: piped to one, or substituted into its words.
func outputUsed(l shellnorm.Line, i int) bool {
	if l.Commands[i].Inner {
		return true
	}
	for _, c := range l.Commands {
		if c.PipedFrom == i {
			return true
		}
	}
	return false
}

// searchExec are find's and fd's actions that run a command on each
// file found.
var searchExec = []string{"-exec", "-execdir", "-ok", "-okdir", "-x", "-X", "--exec", "--exec-batch"}

// searchReads says why a search (find, fd) that names a directory above
// flowd's data, with a name pattern that could match one of its files
// (or none), reads them: it runs a command on each file it finds, or
// hands the list to one (a pipe to xargs, a substitution).
func (g Guard) searchReads(name string, args []string, dir string, used bool) string {
	var roots, patterns []string
	exec := used
	switch name {
	case "find", "bfs", "gfind":
		exprs := false
		for j := 0; j < len(args); j++ {
			a := args[j]
			switch {
			case slices.Contains(searchExec[:4], a):
				exec, exprs = true, true
			case a == "-name" || a == "-iname" || a == "-path" || a == "-ipath" || a == "-wholename" || a == "-iwholename" ||
				a == "-lname" || a == "-ilname" || a == "-regex" || a == "-iregex":
				exprs = true
				if j+1 < len(args) {
					patterns = append(patterns, strings.ToLower(args[j+1]))
					j++
				}
			case strings.HasPrefix(a, "-") || a == "(" || a == ")" || a == "!":
				exprs = true
			case !exprs:
				roots = append(roots, a)
			}
		}
	case "fd", "fdfind":
		var pos []string
		for _, a := range args {
			if slices.Contains(searchExec[4:], a) {
				exec = true
				break // the rest is the command
			}
			if !strings.HasPrefix(a, "-") {
				pos = append(pos, a)
			}
		}
		if len(pos) > 0 {
			patterns = append(patterns, "regex:"+strings.ToLower(pos[0]))
			roots = pos[1:]
		}
	default:
		return ""
	}
	if !exec {
		return ""
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	for _, r := range roots {
		for _, abs := range g.expand(r, dir) {
			if g.secret(abs) == "" && !g.holds(abs) {
				continue
			}
			if len(patterns) == 0 {
				return name + " " + r + " (a search of a directory that holds flowd's data, each file handed to a command)"
			}
			for _, p := range patterns {
				if f := g.matchesData(p); f != "" {
					return name + " " + r + " matching " + strings.TrimPrefix(p, "regex:") + " (it finds " + f + ", flowd's, and hands it to a command)"
				}
			}
		}
	}
	return ""
}

// matchesData returns a file of flowd's data that the search pattern p
// (lower case; a glob, or "regex:" and a regular expression) could
// match, by name or by path, or "".
func (g Guard) matchesData(p string) string {
	re, isRe := strings.CutPrefix(p, "regex:")
	for _, f := range g.dataFiles() {
		name, path := strings.ToLower(filepath.Base(f)), strings.ToLower(f)
		if isRe {
			if r, err := regexp.Compile(re); err != nil || r.MatchString(name) || r.MatchString(path) {
				return f
			}
			continue
		}
		// find's * matches / in -path: a glob on the whole path, with
		// every * free to cross directories.
		if m, err := filepath.Match(p, name); err != nil || m || globCrosses(p, path) {
			return f
		}
	}
	return ""
}

// globCrosses matches the glob p against path with * matching any
// characters, / included, as find's -path does.
func globCrosses(p, path string) bool {
	var b strings.Builder
	b.WriteString("^")
	for _, r := range p {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	return err != nil || re.MatchString(path)
}

// dataFiles are the files flowd keeps from the agent: those in its data
// directories now, and the signing key's name wherever it lies.
func (g Guard) dataFiles() []string {
	files := []string{KeyFile}
	for _, d := range g.dataDirs() {
		ents, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if !slices.Contains(publicFiles, e.Name()) {
				files = append(files, filepath.Join(d, e.Name()))
			}
		}
	}
	return files
}

// builtFrom says why a word of l's i-th command built at run time (a
// substitution's output flowd cannot know) reads flowd's secrets: a
// command it is built from names a path among them (printf
// "%s" <data>/aud "it.k" "ey" | tr -d " ").
func (g Guard) builtFrom(l shellnorm.Line, i int, name, dir string) string {
	c := l.Commands[i]
	if !slices.ContainsFunc(c.Words, func(w string) bool { return strings.Contains(w, shellnorm.Unknown) }) {
		return ""
	}
	seen := map[int]bool{}
	var from []int
	for _, idx := range c.Substituted {
		from = append(from, idx...)
	}
	for len(from) > 0 {
		j := from[len(from)-1]
		from = from[:len(from)-1]
		if seen[j] || j < 0 || j >= len(l.Commands) {
			continue
		}
		seen[j] = true
		src := l.Commands[j]
		from = append(from, src.PipedFrom)
		for _, idx := range src.Substituted {
			from = append(from, idx...)
		}
		for _, w := range src.Words[min(1, len(src.Words)):] {
			if !strings.ContainsAny(w, `/\~`) {
				continue
			}
			for _, abs := range g.expand(w, dir) {
				if what := g.secret(abs); what != "" {
					return name + " of a path built at run time from " + w + " (" + what + ")"
				}
			}
		}
	}
	return ""
}

// maxGlob bounds the files a glob in a command is expanded to.
const maxGlob = 4096

// expand is w as paths: resolved, and a glob expanded as the shell
// would, against the files there now. dir is resolved already.
func (g Guard) expand(w, dir string) []string {
	if dir != "" && !strings.ContainsAny(w, `/\~$*?[`) && w != "." && w != ".." {
		// A bare name in a resolved directory leads elsewhere only as a
		// symlink: one lstat, not a walk up the path (a commit message's
		// words are all bare names).
		p := filepath.Join(dir, w)
		if fi, err := os.Lstat(p); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return []string{p}
		}
	}
	abs := g.resolve(w, dir)
	if !strings.ContainsAny(w, "*?[") {
		return []string{abs}
	}
	matches, err := filepath.Glob(abs)
	if err != nil || len(matches) == 0 {
		return []string{abs}
	}
	if len(matches) > maxGlob {
		matches = matches[:maxGlob]
	}
	for i, m := range matches {
		if r, err := filepath.EvalSymlinks(m); err == nil {
			matches[i] = r
		}
	}
	return matches
}
