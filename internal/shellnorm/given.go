package shellnorm

import (
	"regexp"
	"strings"
)

// Given returns the command lines a command runs from text given to it
// rather than as its own words: many programs that work locally run a
// command named in an option, a script or a variable (git's core.pager,
// core.fsmonitor and ! aliases, tar's checkpoint actions, sed's e, awk's
// system(), sqlite3's .shell, vim's and less's !, man's pager, tmux and
// screen, an alias's value), and GIT_PAGER, EDITOR and the like name a
// program the command runs. words are the command's words (Words, the
// wrappers skipped), env what is set for it alone (Env).
func Given(words, env []string) []string {
	var out []string
	for _, w := range env {
		name, val, _ := strings.Cut(w, "=")
		if commandVariables[strings.TrimSuffix(name, "+")] && val != "" {
			out = append(out, strings.TrimPrefix(val, "|"))
		}
	}
	if len(words) == 0 {
		return out
	}
	name, args := baseName(words[0]), words[1:]
	opt := func(i int, names ...string) (string, bool) {
		a := args[i]
		for _, o := range names {
			switch {
			case a == o && i+1 < len(args):
				return args[i+1], true
			case strings.HasPrefix(a, o+"="):
				return a[len(o)+1:], true
			case len(o) == 2 && o[1] != '-' && strings.HasPrefix(a, o) && len(a) > 2:
				return a[2:], true
			}
		}
		return "", false
	}
	for i, a := range args {
		switch name {
		case "git":
			if v, ok := opt(i, "-c"); ok {
				key, val, _ := strings.Cut(v, "=")
				key = strings.ToLower(key)
				switch {
				case strings.HasPrefix(val, "!"):
					out = append(out, val[1:])
				case gitCommandKeys[key] || strings.HasPrefix(key, "pager."):
					out = append(out, val)
				}
			}
			if v, ok := opt(i, "--exec", "--upload-pack", "--receive-pack"); ok {
				out = append(out, v)
			}
		case "tar":
			if v, ok := opt(i, "--checkpoint-action"); ok {
				if _, cmd, ok := strings.Cut(v, "exec="); ok {
					out = append(out, cmd)
				}
			}
			if v, ok := opt(i, "--to-command", "--use-compress-program", "-I", "--info-script", "-F", "--new-volume-script"); ok {
				out = append(out, v)
			}
		case "zip":
			if v, ok := opt(i, "-TT", "--unzip-command"); ok {
				out = append(out, v)
			}
		case "rg":
			if v, ok := opt(i, "--pre"); ok {
				out = append(out, v)
			}
		case "sort":
			if v, ok := opt(i, "--compress-program"); ok {
				out = append(out, v)
			}
		case "man":
			if v, ok := opt(i, "-P", "--pager", "-H", "--html"); ok {
				out = append(out, v)
			}
		case "sed":
			for _, m := range sedExec.FindAllStringSubmatch(a, -1) {
				out = append(out, m[1])
			}
		case "awk", "gawk", "mawk", "nawk":
			if awkRuns.MatchString(a) {
				// The command may be in a variable (cmd = "…"; print |
				// cmd): every string of a program that runs commands
				// may be one.
				for _, m := range awkString.FindAllStringSubmatch(a, -1) {
					out = append(out, m[1])
				}
			}
		case "sqlite3", "duckdb", "psql", "mysql":
			for _, m := range clientExec.FindAllStringSubmatch(a, -1) {
				out = append(out, m[1])
			}
		case "vim", "vi", "nvim", "view", "ex", "less", "more":
			if _, cmd, ok := strings.Cut(a, "!"); ok && (strings.HasPrefix(a, "+") || strings.HasPrefix(a, ":") || i > 0 && args[i-1] == "-c") {
				out = append(out, cmd)
			}
		case "alias":
			if _, v, ok := strings.Cut(a, "="); ok {
				out = append(out, v)
			}
		}
	}
	switch name {
	case "tmux":
		// new-session, new-window, split-window, respawn-pane and
		// run-shell take the command as their last operand.
		if len(args) > 1 && !strings.HasPrefix(args[len(args)-1], "-") {
			out = append(out, args[len(args)-1])
		}
	case "screen":
		// screen [options] command [args]: what follows the options runs.
		for i := 0; i < len(args); i++ {
			if !strings.HasPrefix(args[i], "-") {
				out = append(out, strings.Join(args[i:], " "))
				break
			}
			// An option that takes a value, alone or last in a bundle
			// (-dmS name).
			if a := args[i]; screenValued[a] || len(a) > 2 && a[1] != '-' && screenValued["-"+a[len(a)-1:]] {
				i++
			}
		}
	}
	return out
}

// commandVariables name a program that commands run (a pager, an editor,
// git's ssh and askpass, less's preprocessor).
var commandVariables = map[string]bool{"PAGER": true, "MANPAGER": true, "GIT_PAGER": true, "SYSTEMD_PAGER": true,
	"EDITOR": true, "VISUAL": true, "GIT_EDITOR": true, "GIT_SEQUENCE_EDITOR": true, "GIT_SSH": true,
	"GIT_SSH_COMMAND": true, "GIT_ASKPASS": true, "SSH_ASKPASS": true, "GIT_EXTERNAL_DIFF": true,
	"GIT_PROXY_COMMAND": true, "LESSOPEN": true, "LESSCLOSE": true}

// gitCommandKeys are configuration keys whose value git runs as a
// command.
var gitCommandKeys = map[string]bool{"core.pager": true, "core.fsmonitor": true, "core.sshcommand": true,
	"core.editor": true, "core.askpass": true, "sequence.editor": true, "diff.external": true,
	"core.gitproxy": true, "credential.helper": true, "gpg.program": true, "uploadpack.packobjectshook": true}

var screenValued = map[string]bool{"-S": true, "-c": true, "-e": true, "-h": true, "-L": true, "-Logfile": true,
	"-p": true, "-s": true, "-T": true, "-t": true, "-X": true}

var (
	// sed's e command (an address, then e and the command to the end of
	// the line or script).
	sedExec = regexp.MustCompile(`(?m)(?:^|[;{}\n])\s*(?:[0-9$]+(?:,[0-9$]+)?|/[^/\n]*/)?\s*e\s+([^;\n}]+)`)
	// awk runs commands through system(), print … | cmd and cmd | getline.
	awkRuns   = regexp.MustCompile(`system\s*\(|(?:^|[^|])\|&?\s*[A-Za-z_"(]`)
	awkString = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"`)
	// sqlite3's and duckdb's .shell and .system, psql's and mysql's \!,
	// mysql's system.
	clientExec = regexp.MustCompile(`(?m)(?:^|;|\n)\s*(?:\.shell|\.system|\\!|system)\s+([^\n;]+)`)
)
