package cmdrisk

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flowd-dev/flowd/internal/secretfile"
	"github.com/flowd-dev/flowd/internal/shellnorm"
)

// A command line that reads a credential file as data and reaches
// another host is refused whatever lies between the two: a transform
// in a substitution ($(base64 .env), $(rev .env)), the file in a URL, a
// header or a DNS name, a loop fed by it, xargs -a, a config file that
// names it, code that opens it. Following the data through every
// program would never be whole (found by a red team: 16 shapes of one
// send passed, RT8-1); the line's two ends are known. A file loaded
// into the environment (source .env) to call a key's own service is
// ordinary work: with a host on the line it is asked about.

// remoteRunners run their command-line arguments on another host: a
// file those name is read over there.
var remoteRunners = map[string]bool{"ssh": true, "autossh": true, "mosh": true}

// notReading name files without printing or sending what is in them
// (rm .env, echo .env >> .gitignore, ssh-keygen -f key), or write them
// (tee .env).
var notReading = map[string]bool{"rm": true, "unlink": true, "shred": true, "touch": true, "chmod": true, "chown": true,
	"chgrp": true, "chattr": true, "ls": true, "stat": true, "test": true, "[": true, "[[": true, "mkdir": true, "ln": true,
	"mv": true, "realpath": true, "readlink": true, "basename": true, "dirname": true, "echo": true, "printf": true,
	"du": true, "file": true, "wc": true, "which": true, "cd": true, "pushd": true, "tee": true, "truncate": true,
	"export": true, "unset": true, "declare": true, "typeset": true, "local": true, "set": true, "alias": true,
	"ssh-keygen": true, "ssh-add": true} // they print a key's public half or fingerprint at most

// loaders read a file into the environment of the shell or of the
// program they run.
var loaders = map[string]bool{"source": true, ".": true, "dotenv": true, "dotenvx": true, "env-cmd": true, "godotenv": true}

// copiers write their last operand.
var copiers = map[string]bool{"cp": true, "install": true, "rsync": true, "scp": true}

// loading returns the commands whose output a command loads into the
// environment or runs as shell code (export $(grep -v ^# .env | xargs),
// eval "$(cat .env)"), by index: a word that is the output whole, not
// a value made of it (export X=$(base64 .env) holds the file).
func loading(l shellnorm.Line) map[int]bool {
	out := map[int]bool{}
	for _, c := range l.Commands {
		switch name(c.Words) {
		case "export", "declare", "typeset", "local", "eval", "env", "set":
			for at, subs := range c.Substituted {
				if at < len(c.Words) && c.Words[at] == shellnorm.Unknown {
					for _, j := range subs {
						out[j] = true
					}
				}
			}
		}
	}
	return out
}

// flowOf notes the credential files the command at i reads as data or
// loads, and whether it reaches another host.
func (s *screen) flowOf(i int, c shellnorm.Command, words []string, n string) {
	for _, w := range words {
		// A name built from a command's output (dig $(xxd -p .env).host,
		// getent hosts …): looking it up sends the output to the name's
		// DNS server, whatever the program.
		if _, rest, ok := strings.Cut(w, shellnorm.Unknown+"."); ok && strings.Contains(rest, ".") && !strings.ContainsAny(rest, "/ ") {
			s.reach(rest)
		}
	}
	switch {
	case len(words) == 0:
	case n == "git":
		if sub, _ := gitSub(words); gitRemoteOps[sub] {
			s.reach("a git remote (git " + sub + ")")
		}
	case n == "echo" || n == "printf": // text, not a request
	default:
		if dest, ok := s.reaches(words, n); ok {
			s.reach(dest)
		}
	}
	take := s.take
	if s.loads[i] || loaders[n] {
		take = s.load
	}
	for _, r := range c.Redirects {
		if strings.HasPrefix(r, "<") && !strings.HasPrefix(r, "<<") {
			take(strings.TrimLeft(r, "<&"))
		}
	}
	if envDump(words) && !s.loads[i] {
		s.r.took = append(s.r.took, "the environment ("+strings.Join(words, " ")+")")
	}
	args := c.Words[min(1, len(c.Words)):] // wrappers' options too: xargs -a .env
	switch {
	case n == "git":
		args = nil
		if sub, rest := gitSub(words); sub == "add" {
			args = rest // git add -f .env && git push
		}
	case remoteRunners[n]:
		args = nil
	case notReading[n]:
		// Only a file named for another program to read: printf
		// 'data-binary=@.env' > c.cfg; curl -K c.cfg.
		for _, a := range args {
			if p := atFile(a); p != "" {
				take(p)
			}
		}
		args = nil
	case copiers[n]:
		if last := len(args) - 1; last > 0 && !strings.HasPrefix(args[last], "-") {
			args = args[:last] // cp .env.example .env writes .env
		}
	}
	for _, p := range namedFiles(n, args) {
		take(p)
	}
	if interpreter(n) || awks[n] {
		// Code opens files by quoted names: awk's getline < ".env",
		// python3 - <<EOF … open(".env") … EOF.
		for _, a := range append(words[1:], c.Stdin) {
			if strings.ContainsAny(a, " \t\n") {
				for _, p := range quotedPaths(a) {
					take(p)
				}
			}
		}
	}
}

var awks = map[string]bool{"awk": true, "gawk": true, "mawk": true, "nawk": true}

// gitRemoteOps are git's commands that talk to a remote.
var gitRemoteOps = map[string]bool{"push": true, "pull": true, "fetch": true, "clone": true, "ls-remote": true,
	"send-email": true, "submodule": true, "archive": true}

// gitSub returns git's command and its arguments, past git's own
// options (-c name=value, -C dir).
func gitSub(words []string) (string, []string) {
	if k := shellnorm.SubcommandAt("git", words[1:]); k >= 0 {
		return words[1+k], words[2+k:]
	}
	return "", nil
}

func (s *screen) reach(dest string) {
	if s.r.reached == "" {
		s.r.reached = strings.TrimSpace(dest)
	}
}

// take notes a credential file the line reads as data.
func (s *screen) take(p string) {
	if why := secretfile.Why(p); why != "" {
		s.read(p + " (" + why + ")")
		if x := p + " (" + why + ")"; !slices.Contains(s.r.took, x) && len(s.r.took) < 8 {
			s.r.took = append(s.r.took, x)
		}
	}
}

// load notes a credential file the line loads into its environment.
func (s *screen) load(p string) {
	if why := secretfile.Why(p); why != "" {
		s.read(p + " (" + why + ")")
		if x := p + " (" + why + ")"; !slices.Contains(s.loaded, x) && len(s.loaded) < 8 {
			s.loaded = append(s.loaded, x)
		}
	}
}

// flow judges the line's two ends: a credential file read as data and
// another host reached.
func (s *screen) flow() {
	to := s.r.reached
	if to == "" && s.r.Network {
		to = "the network"
	}
	switch {
	case to == "":
	case len(s.r.took) > 0:
		s.add(UploadSecret, true, fmt.Sprintf("the command line reads %s and reaches %s: whatever it does with it between, what goes out can carry it",
			strings.Join(s.r.took, ", "), clip(to)))
	case len(s.loaded) > 0:
		s.add(Upload, false, fmt.Sprintf("the command line loads %s into its environment and reaches %s", strings.Join(s.loaded, ", "), clip(to)))
	}
}

// atFile returns the file a word names for a program to read with @
// (-d @.env, body=@.env, d@.env, data-binary=@.env in a curl config),
// or "".
func atFile(a string) string {
	k := strings.Index(a, "@")
	for k >= 0 {
		rest := a[k+1:]
		if k == 0 || strings.ContainsRune("=:", rune(a[k-1])) || rest != "" && strings.ContainsRune("./~$", rune(rest[0])) {
			if end := strings.IndexFunc(rest, pathStop); end >= 0 {
				rest = rest[:end]
			}
			return rest
		}
		j := strings.Index(rest, "@")
		if j < 0 {
			break
		}
		k += 1 + j
	}
	return ""
}

// pathStop ends a path written inside other text.
func pathStop(r rune) bool { return strings.ContainsRune(" \t\n;,\\\"'()<>|&", r) }
