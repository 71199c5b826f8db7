package cmdrisk

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/flowd-dev/flowd/internal/secretfile"
)

// A file's text may hold command lines that a later, harmless-looking
// command runs: a git config's fsmonitor or ! alias (git status), an ssh
// config's ProxyCommand (ssh), a Dockerfile's RUN (docker build), a
// //go:generate line, a build script's quoted command (cargo build,
// cmake, gradle, rake, tox), a .pth line (every python), a CI step (git
// push). Knowing every format would never be whole (found by a red
// team: 13 of 13 such files passed, RT8-6), so every line of what is
// written, the value after its key and each quoted string in it are
// read as command lines, and one flowd would refuse to run now makes
// the write suspect. Only the findings that no honest line carries
// count (a credential file sent out, a shell given to a socket): a
// README's curl … | sh install line is an ordinary thing to write.

// maxEmbedded bounds the bytes of a written text read for command
// lines, and maxCandidate the length of one line read.
const (
	maxEmbedded  = 256 << 10
	maxCandidate = 4 << 10
	// maxCarriers bounds the lines parsed: each names a credential
	// and a host, which few honest files do more than a few times.
	maxCarriers = 512
)

// Embedded returns the findings, severe all, of the command lines text
// holds that flowd would refuse to run: a credential file sent to
// another host, a shell handed to a socket. A file that runs later
// runs where no hook sees it, so no host is local.
func Embedded(text string) []Finding {
	if len(text) > maxEmbedded {
		text = text[:maxEmbedded]
	}
	// A command continued on the next line (curl … \ then @.env URL in
	// a CI step or a Makefile) is read as one.
	text = strings.ReplaceAll(text, "\\\n", " ")
	var out []Finding
	seen := map[string]bool{}
	carriers := 0
	for _, line := range strings.Split(text, "\n") {
		line = ciSecrets(strings.TrimSpace(line))
		if !mayCarry(line) {
			continue
		}
		if carriers++; carriers > maxCarriers {
			// What lies past the bound is unread: many decoys must
			// not hide the line that sends.
			return append(out, Finding{Rule: Unscreened, Severe: true,
				Reason: fmt.Sprintf("it holds more than %d lines naming a credential and a host, past what flowd reads", maxCarriers)})
		}
		for _, c := range candidates(line) {
			if len(c) > maxCandidate || seen[c] || prose(c) {
				continue
			}
			seen[c] = true
			for _, f := range ScreenUnwatched(c).Findings {
				if f.Severe && (f.Rule == UploadSecret || f.Rule == ReverseShell) && !hasRule(out, f.Rule) {
					out = append(out, Finding{Rule: f.Rule, Severe: true, Reason: "it holds the command line " + clip(c) + ": " + f.Reason})
				}
			}
		}
	}
	return out
}

func hasRule(fs []Finding, rule string) bool {
	for _, f := range fs {
		if f.Rule == rule {
			return true
		}
	}
	return false
}

// mayCarry reports whether a line could hold a command that sends a
// credential or opens a socket: it names both a place on the network (a
// URL, a host, /dev/tcp) or a program that reaches one, and a
// credential file, the environment or a raw socket. Most lines of code
// and prose name no such pair and are not parsed.
func mayCarry(line string) bool {
	reach := strings.Contains(line, "://") || strings.Contains(line, "@")
	held := false
	for _, w := range strings.FieldsFunc(line, func(r rune) bool { return pathStop(r) || strings.ContainsRune("=@`{}[]$", r) }) {
		lw := strings.ToLower(w)
		raw, net := netCommands[lw]
		switch {
		case strings.HasPrefix(lw, "/dev/tcp/") || strings.HasPrefix(lw, "/dev/udp/"):
			return true
		case net || services[lw] || lw == "push" || strings.Count(lw, ".") >= 2:
			reach = true
		}
		// A bare word names a file only where a program is told to read
		// it (@credentials, <token): in prose it is a word.
		held = held || raw || lw == "env" || lw == "printenv" ||
			(strings.ContainsAny(w, "./~") || strings.Contains(line, "@"+w) || strings.Contains(line, "<"+w)) && secretfile.Why(w) != ""
		if reach && held {
			return true
		}
	}
	return false
}

// candidates are the command lines a line may hold: the line, what
// follows its key (run: …, commands = …, ProxyCommand …, RUN …), and
// each quoted string with a space in it.
func candidates(line string) []string {
	var out []string
	if !prose(line) { // a sentence's words are no command; its quoted strings may be
		out = append(out, line)
		if k := strings.IndexAny(line, ":="); k > 0 && !strings.ContainsAny(line[:k], " \t\"'(") {
			out = append(out, strings.TrimLeft(line[k+1:], ":= \t"))
		}
		if f := strings.Fields(line); len(f) > 1 {
			out = append(out, strings.TrimSpace(line[len(f[0]):]))
		}
	}
	for _, q := range []byte{'"', '\'', '`'} {
		parts := strings.Split(line, string(q))
		for k := 1; k < len(parts); k += 2 {
			if p := strings.TrimSpace(strings.TrimPrefix(parts[k], "!")); strings.ContainsAny(p, " \t") {
				out = append(out, p) // a git alias's "!cmd" runs cmd
			}
		}
	}
	return out
}

// prose reports whether a candidate reads as a sentence, not a command
// line: a capitalized word, then a plain lower-case word that names no
// program (Ignore all …, Read the file …), and no shell operator that
// would run a second command after a first that fails.
func prose(c string) bool {
	f := strings.Fields(c)
	if len(f) < 2 || strings.ContainsAny(c, ";&|<>`") || strings.Contains(c, "$(") {
		return false
	}
	first, second := f[0], f[1]
	if first[0] < 'A' || first[0] > 'Z' || strings.ToUpper(first) == first || strings.Trim(second, "abcdefghijklmnopqrstuvwxyz") != "" {
		return false
	}
	_, net := netCommands[second]
	return !net && !services[second] && !readers[second] && !interpreter(second)
}

// ciSecrets writes a CI expression that puts the pipeline's secrets in
// a step's command (GitHub's ${{ toJSON(secrets) }}, ${{ secrets.X }})
// as the shell form it stands for: all of them, like the environment
// dumped, or one, like a variable named for a key.
func ciSecrets(line string) string {
	for {
		i := strings.Index(line, "${{")
		if i < 0 {
			return line
		}
		j := strings.Index(line[i:], "}}")
		if j < 0 {
			return line
		}
		expr := strings.ToLower(line[i+3 : i+j])
		v := "x"
		switch {
		case strings.Contains(expr, "secrets.") || strings.Contains(expr, "github.token"):
			v = "$SECRET_TOKEN"
		case strings.Contains(expr, "secrets") || strings.Contains(expr, "tojson(github)"):
			v = "$(env)"
		}
		line = line[:i] + v + line[i+j+2:]
	}
}

// RunLater says what runs the commands of a file written to path (or
// holding text) when a later, ordinary command runs (docker build, git
// status, cargo build, every python), or "": its embedded command lines
// are then refused, as the ones of a file elsewhere are asked about.
func RunLater(p, text string) string {
	p = strings.ToLower(strings.ReplaceAll(p, `\`, "/"))
	base := path.Base(p)
	switch {
	case base == "dockerfile" || base == "containerfile" || strings.HasSuffix(base, ".dockerfile"):
		return "a container build file (docker build runs it)"
	case base == "config" && (strings.Contains(p, ".git/") || strings.Contains(p, ".ssh/") || strings.HasSuffix(p, "git/config")) ||
		base == ".gitconfig" || base == ".gitmodules":
		return "a git or ssh config (git and ssh run its commands)"
	case strings.HasSuffix(base, ".pth") || base == "sitecustomize.py" || base == "usercustomize.py":
		return "a python startup file (every python runs it)"
	case strings.Contains(p, ".husky/") || strings.Contains(p, ".githooks/") || strings.Contains(p, ".cargo/config"):
		return "a git hook or cargo config (git and cargo run its commands)"
	case base == ".vimrc" || base == ".gdbinit" || base == ".tmux.conf" || base == "vagrantfile" ||
		base == "docker-compose.yml" || base == "docker-compose.yaml" || base == "compose.yaml" || base == "compose.yml":
		return "a tool's startup or service file (the tool runs its commands)"
	case strings.Contains(p, ".github/workflows/") || strings.Contains(p, ".circleci/") || base == ".gitlab-ci.yml" ||
		base == "jenkinsfile" || base == "azure-pipelines.yml" || base == "bitbucket-pipelines.yml" || base == ".travis.yml":
		return "a CI pipeline (a push runs it)"
	case buildFiles[base] || strings.HasSuffix(base, ".gradle") || strings.HasSuffix(base, ".gradle.kts") || strings.HasSuffix(base, ".cmake"):
		return "a build file (building runs it)"
	case strings.Contains(text, "go:generate"):
		return "a go:generate directive (go generate runs it)"
	case commandKeyRe.MatchString(text):
		// Named anything, a config is loaded by name (ssh -F FILE, git -c
		// include.path=FILE, GIT_CONFIG=FILE): its keys that hold a
		// command run it (found by a red team, RT8-6: .ssh-config).
		return "a config whose keys run commands (ssh -F, git -c include.path)"
	}
	return ""
}

// commandKeyRe finds a line of ssh's or git's config that holds a command
// the tool runs.
var commandKeyRe = regexp.MustCompile(`(?ims)^\s*(?:host|match)\s+\S.*^\s*(?:proxycommand|localcommand|knownhostscommand)\s+\S|^\s*match\s+exec\b|^\s*(?:fsmonitor|sshcommand|pager|askpass|helper|hookspath)\s*=|^\s*[\w.-]+\s*=\s*"?!`)

// buildFiles are files a build or test tool runs as it starts.
var buildFiles = map[string]bool{"makefile": true, "gnumakefile": true, "justfile": true, "rakefile": true, "cmakelists.txt": true,
	"build.rs": true, "setup.py": true, "noxfile.py": true, "tox.ini": true, "conftest.py": true, "package.json": true,
	"tasks.json": true, ".pre-commit-config.yaml": true, "taskfile.yml": true, "taskfile.yaml": true, "procfile": true,
	"pyproject.toml": true, "cargo.toml": true, "build.sbt": true, "pom.xml": true, "meson.build": true}
