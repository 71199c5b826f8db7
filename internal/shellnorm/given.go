package shellnorm

import (
	"regexp"
	"slices"
	"strings"
)

// Given returns the command lines a command runs from text given to it
// rather than as its own words: many programs that work locally run a
// command named in an option, a script or a variable (git's core.pager,
// core.fsmonitor and ! aliases, tar's checkpoint actions, sed's e, awk's
// system(), sqlite3's .shell, vim's and less's !, man's pager, tmux and
// screen, an alias's value), and GIT_PAGER, EDITOR and the like name a
// program the command runs. words are the command's words (Words, the
// wrappers skipped), env what is set for it (Env), stdin the text fed
// to it (awk -f /dev/stdin reads its program there).
func Given(words, env []string, stdin string) []string {
	var out []string
	for _, w := range env {
		name, val, _ := strings.Cut(w, "=")
		name = strings.TrimSuffix(name, "+")
		switch {
		case val == "":
		case commandVariables[name]:
			out = append(out, strings.TrimPrefix(val, "|"))
		case strings.HasPrefix(name, "GIT_CONFIG_VALUE_"):
			// GIT_CONFIG_KEY_n/VALUE_n are git -c by another name: the
			// worse reading is that the value is a command.
			out = append(out, strings.TrimPrefix(val, "!"))
		case name == "GIT_CONFIG_PARAMETERS":
			if _, v, ok := strings.Cut(strings.Trim(val, `'" `), "="); ok {
				out = append(out, strings.TrimPrefix(strings.Trim(v, `'" `), "!"))
			}
		}
	}
	if len(words) == 0 {
		return out
	}
	name, args := baseName(words[0]), words[1:]
	sub := SubcommandAt(name, args)
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
			if v, ok := opt(i, "-c"); ok && (sub < 0 || i < sub) {
				key, val, _ := strings.Cut(v, "=")
				if cmd, ok := gitCommand(key, val); ok {
					out = append(out, cmd)
				}
			}
			if v, ok := opt(i, "--exec", "--upload-pack", "--receive-pack"); ok {
				out = append(out, v)
			}
			if _, v, ok := strings.Cut(a, "ext::"); ok {
				// git's ext:: transport runs its URL as a command.
				out = append(out, v)
			}
			if sub >= 0 && i > sub {
				out = append(out, gitSubcommandRuns(args[sub], args, i, opt)...)
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
		case "sed", "gsed":
			if v, ok := opt(i, "-f", "--file"); ok && (v == "-" || v == "/dev/stdin") {
				a = stdin // the script is read from the input
			}
			for _, m := range sedExec.FindAllStringSubmatch(a, -1) {
				out = append(out, m[1])
			}
			out = append(out, sedSubstExec(a)...)
		case "awk", "gawk", "mawk", "nawk":
			if v, ok := opt(i, "-f", "--file"); ok && (v == "-" || v == "/dev/stdin" || strings.HasPrefix(v, "/dev/fd/0")) {
				a = stdin
			}
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
			for _, m := range clientPipe.FindAllStringSubmatch(a, -1) {
				out = append(out, m[1])
			}
		case "vim", "vi", "nvim", "view", "ex", "vimdiff", "rvim", "gvim", "less", "more":
			// An Ex command: -c CMD, --cmd CMD, +CMD, or the value after a
			// bundle of flags ending in c (-Nesc CMD).
			if strings.HasPrefix(a, "+") || strings.HasPrefix(a, ":") || i > 0 && exValued(args[i-1]) {
				out = append(out, exCommands(a)...)
			}
		case "emacs", "emacsclient":
			// Lisp given to run: the strings of code that runs programs
			// may be the command (shell-command, call-process).
			if i > 0 && emacsCode[args[i-1]] || strings.HasPrefix(a, "--eval=") {
				out = append(out, codeStrings(a)...)
			}
		case "bat", "batcat", "delta":
			if v, ok := opt(i, "--pager"); ok {
				out = append(out, v)
			}
		case "fzf", "sk":
			if v, ok := opt(i, "--preview"); ok {
				out = append(out, v)
			}
			if v, ok := opt(i, "--bind"); ok {
				for _, m := range fzfExec.FindAllStringSubmatch(v, -1) {
					out = append(out, m[1])
				}
			}
		case "env":
			if v, ok := opt(i, "-S", "--split-string"); ok {
				out = append(out, v)
			}
		case "ssh", "scp", "sftp", "autossh", "sshfs":
			// ssh runs ProxyCommand, LocalCommand and KnownHostsCommand
			// here, through the shell.
			if v, ok := opt(i, "-o"); ok {
				key, val, found := strings.Cut(v, "=")
				if !found {
					key, val, _ = strings.Cut(strings.TrimSpace(v), " ")
				}
				switch strings.ToLower(strings.TrimSpace(key)) {
				case "proxycommand", "localcommand", "knownhostscommand":
					out = append(out, val)
				}
			}
		case "alias":
			if _, v, ok := strings.Cut(a, "="); ok {
				out = append(out, v)
			}
		}
	}
	switch name {
	case "at", "batch":
		// at and batch run the commands they read.
		if stdin != "" && !slices.Contains(args, "-f") && !slices.Contains(args, "-l") {
			out = append(out, stdin)
		}
	case "crontab":
		// crontab - (or no file) installs what it reads: each line's
		// command follows its five time fields or an @keyword.
		if len(args) == 0 || args[len(args)-1] == "-" {
			for _, ln := range strings.Split(stdin, "\n") {
				f := strings.Fields(ln)
				switch {
				case len(f) > 1 && strings.HasPrefix(f[0], "@"):
					out = append(out, strings.Join(f[1:], " "))
				case len(f) > 5 && !strings.HasPrefix(f[0], "#") && !strings.Contains(f[0], "="):
					out = append(out, strings.Join(f[5:], " "))
				}
			}
		}
	case "make", "gmake":
		// A makefile read from the input: its recipe lines run.
		if stdin != "" && (slices.Contains(args, "-") || slices.Contains(args, "/dev/stdin")) {
			for _, ln := range strings.Split(stdin, "\n") {
				if strings.HasPrefix(ln, "\t") {
					out = append(out, strings.TrimPrefix(strings.TrimLeft(ln, "\t"), "@"))
				}
			}
		}
	case "trap":
		// trap [-lp] COMMAND SIGNAL…: the first operand runs on the signal.
		ops := args
		for len(ops) > 0 && strings.HasPrefix(ops[0], "-") && ops[0] != "-" {
			ops = ops[1:]
		}
		if len(ops) >= 2 && ops[0] != "-" { // trap - SIGNAL resets it
			out = append(out, ops[0])
		}
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
	"GIT_PROXY_COMMAND": true, "LESSOPEN": true, "LESSCLOSE": true, "BAT_PAGER": true, "DELTA_PAGER": true,
	"PSQL_PAGER": true, "PSQL_EDITOR": true, "FZF_DEFAULT_COMMAND": true, "BROWSER": true, "RSYNC_RSH": true,
	"SUDO_ASKPASS": true, "FCEDIT": true}

// gitCommand returns the command a git configuration value runs: any
// value of an alias or a helper that starts with "!", and the value of
// a key whose last part names a program, a command, a filter, a pager or
// an editor (core.pager, pager.log, gpg.ssh.program, filter.x.clean,
// diff.x.textconv, difftool.x.cmd, credential.URL.helper…), whatever
// section it is in: git has many such keys and adds more.
func gitCommand(key, val string) (string, bool) {
	key = strings.ToLower(key)
	last := key[strings.LastIndexByte(key, '.')+1:]
	switch {
	case val == "":
		return "", false
	case strings.HasPrefix(val, "!"):
		return val[1:], true
	case strings.HasPrefix(key, "pager.") || gitCommandParts[last] ||
		strings.HasSuffix(last, "command") || strings.HasSuffix(last, "cmd") || strings.HasSuffix(last, "program") ||
		strings.HasSuffix(last, "hook") || strings.HasSuffix(last, "filter") || strings.HasSuffix(last, "pack"):
		return val, true
	}
	return "", false
}

// gitCommandParts are the last parts of configuration keys whose value
// git runs (beside those ending in command, cmd, program, hook, filter,
// pack).
var gitCommandParts = map[string]bool{"pager": true, "fsmonitor": true, "editor": true, "askpass": true,
	"external": true, "gitproxy": true, "helper": true, "textconv": true, "clean": true, "smudge": true,
	"process": true, "driver": true, "tool": false, "smtpserver": true}

// gitSubcommandRuns returns the command a git subcommand's option at
// args[i] gives it to run: rebase -x, difftool -x, grep -O,
// filter-branch's filters, bisect run, submodule foreach, and git config
// setting a key whose value runs (it runs on a later call: the worse
// reading is now).
func gitSubcommandRuns(sub string, args []string, i int, opt func(int, ...string) (string, bool)) []string {
	switch sub {
	case "rebase":
		if v, ok := opt(i, "-x", "--exec"); ok {
			return []string{v}
		}
	case "difftool", "mergetool":
		if v, ok := opt(i, "-x", "--extcmd"); ok {
			return []string{v}
		}
	case "grep":
		if v, ok := opt(i, "-O", "--open-files-in-pager"); ok {
			return []string{v}
		}
	case "filter-branch":
		if strings.HasPrefix(args[i], "--") && strings.HasSuffix(args[i], "-filter") && i+1 < len(args) {
			return []string{args[i+1]}
		}
	case "bisect", "submodule":
		if (args[i] == "run" || args[i] == "foreach") && args[i-1] == sub && i+1 < len(args) {
			return []string{strings.Join(args[i+1:], " ")}
		}
	case "config":
		if strings.HasPrefix(args[i], "-") || i+1 >= len(args) || args[i] == "set" {
			return nil
		}
		if strings.Contains(args[i], ".") && !strings.HasPrefix(args[i+1], "-") {
			if cmd, ok := gitCommand(args[i], args[i+1]); ok {
				return []string{cmd}
			}
		}
	}
	return nil
}

// SubcommandAt returns the index in args of git's subcommand (after its
// global options and their values), or -1.
func SubcommandAt(name string, args []string) int {
	if name != "git" {
		return -1
	}
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-c" || a == "-C" || a == "--git-dir" || a == "--work-tree" || a == "--namespace":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return i
		}
	}
	return -1
}

// exValued reports whether an option of vim, ex or less takes an Ex
// command as its value: -c, --cmd, or a bundle of flags ending in c.
func exValued(a string) bool {
	return a == "-c" || a == "--cmd" || len(a) > 2 && a[0] == '-' && a[1] != '-' && a[len(a)-1] == 'c'
}

// exCommands returns the commands an Ex command line runs: what follows
// a !, and the strings of a call that runs a program (system(),
// :terminal, :py, :lua…).
func exCommands(a string) []string {
	var out []string
	if _, cmd, ok := strings.Cut(a, "!"); ok {
		out = append(out, cmd)
	}
	if exRuns.MatchString(a) {
		out = append(out, codeStrings(a)...)
	}
	return out
}

// codeStrings returns the quoted strings of program code: where code
// runs a program, its command is one of them (or built from them).
func codeStrings(code string) []string {
	var out []string
	for _, m := range codeString.FindAllStringSubmatch(code, -1) {
		out = append(out, m[1]+m[2])
	}
	return out
}

var emacsCode = map[string]bool{"--eval": true, "-eval": true, "--execute": true}

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
	// sqlite3's .output, .once, .import and .read open "|command" as a
	// pipe, as psql's \o |command and \copy … program do.
	clientPipe = regexp.MustCompile(`(?:\.output|\.once|\.import|\.read|\\o|\\g|\\w)\s+['"]?\|\s*([^\n;'"]+)`)
	// Vim script that runs a program.
	exRuns = regexp.MustCompile(`system(?:list)?\s*\(|\bter(?:minal)?\b|\bpy(?:thon)?3?\b|\blua\b|\bperl\b|\bruby\b|job_start|jobstart|libcall`)
	// A quoted string of program code, double or single quoted.
	codeString = regexp.MustCompile(`"((?:[^"\\]|\\.)*)"|'([^']*)'`)
	// fzf's --bind actions that run a command.
	fzfExec = regexp.MustCompile(`(?:execute(?:-silent|-multi)?|reload|become|preview|change-preview)[(\[{<:]([^)\]}>]+)`)
)

// sedSubstExec returns the replacements of a sed script's s commands
// that carry the e flag (s/RE/REPLACEMENT/e, any delimiter): sed runs
// the line as rewritten, so the replacement is where the command is
// written. Escapes of the delimiter are undone.
func sedSubstExec(script string) []string {
	var out []string
	for i := 0; i+1 < len(script); i++ {
		if script[i] != 's' || i > 0 && (isAlnum(script[i-1]) || script[i-1] == '_') && !strings.ContainsRune("0123456789", rune(script[i-1])) {
			continue
		}
		d := script[i+1]
		if d == '\\' || d == '\n' || d == ' ' || isAlnum(d) {
			continue
		}
		var fields [2]strings.Builder
		j, f := i+2, 0
		for ; j < len(script) && f < 2; j++ {
			switch c := script[j]; {
			case c == '\\' && j+1 < len(script):
				if script[j+1] != d {
					fields[f].WriteByte(c)
				}
				fields[f].WriteByte(script[j+1])
				j++
			case c == d:
				f++
			default:
				fields[f].WriteByte(c)
			}
		}
		if f < 2 {
			break
		}
		k := j
		for k < len(script) && strings.IndexByte("gpiImMe0123456789w", script[k]) >= 0 && script[k] != 'w' {
			k++
		}
		if strings.IndexByte(script[j:k], 'e') >= 0 {
			out = append(out, fields[1].String())
		}
		i = k - 1
	}
	return out
}

// RemoteArchive returns the archive a tar or cpio command (name, its
// args) names on another host (-f host:path, --file=user@host:path): it
// then runs rsh or ssh to reach it and sends or fetches the archive
// there. "" when there is none or --force-local is given.
func RemoteArchive(name string, args []string) string {
	if name != "tar" && name != "cpio" && name != "bsdtar" || slices.Contains(args, "--force-local") {
		return ""
	}
	for i, a := range args {
		v := ""
		switch {
		case a == "--file" || a == "-F" || a == "-O" || a == "-I":
			if i+1 < len(args) {
				v = args[i+1]
			}
		case strings.HasPrefix(a, "--file="):
			v = strings.TrimPrefix(a, "--file=")
		case len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.HasSuffix(a, "f") && i+1 < len(args):
			v = args[i+1] // -cf ARCHIVE, -f ARCHIVE
		case len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.Contains(a, "f"):
			v = a[strings.IndexByte(a, 'f')+1:] // -fhost:x
		case i == 0 && !strings.HasPrefix(a, "-") && strings.HasSuffix(a, "f") && len(args) > 1:
			v = args[1] // tar cf ARCHIVE (old-style options)
		}
		if host, _, ok := strings.Cut(v, ":"); ok && host != "" && !strings.Contains(host, "/") {
			return v
		}
	}
	return ""
}
