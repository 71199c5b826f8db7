package selfguard

import (
	"io/fs"
	"os"
	"path/filepath"
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

// commandReads says why the simple command words, run in dir, would read
// or copy flowd's secrets: a word naming one (or a glob matching one), an
// input redirection from one, a recursive copy of a directory above
// them, program code naming one.
func (g Guard) commandReads(c shellnorm.Command, words []string, dir string) string {
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
		for _, p := range pathWord.FindAllString(strings.Join(args, " "), 64) {
			if what := g.secret(g.resolve(p, dir)); what != "" {
				return name + " code that reads " + p + " (" + what + ")"
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
