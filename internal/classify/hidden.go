package classify

import "strings"

// A program classed local is local only when nothing it is given is
// itself a program to run or a host to reach. Many local programs run
// text given in an option or a script (git's core.pager and aliases,
// tar's checkpoint actions, sed's e command, awk's system(), sqlite3's
// .shell, vim's :!, less's +!, man -P, tmux and screen operands), and a
// variable set before a command can name a program it runs (GIT_PAGER,
// BASH_ENV, LD_PRELOAD, PATH). Database clients reach the host they are
// pointed at.

// runsGiven are local programs that run commands given to them: in any
// argument (a script, an operand), or, where a program is listed with
// options, only in those options' values.
var runsGiven = map[string][]string{
	"sed": nil, "awk": nil, "gawk": nil, "sqlite3": nil, "duckdb": nil, "psql": nil, "mysql": nil, "vim": nil,
	"vi": nil, "nvim": nil, "emacs": nil, "less": nil, "more": nil, "tmux": nil, "screen": nil, "alias": nil,
	"tar":  {"--checkpoint-action", "--to-command", "-I", "--use-compress-program", "-F", "--info-script", "--new-volume-script"},
	"zip":  {"-TT", "--unzip-command"},
	"man":  {"-P", "--pager", "-H", "--html"},
	"rg":   {"--pre"},
	"sort": {"--compress-program"},
}

// dbClients connect to a database server: on this machine unless told
// otherwise.
var dbClients = set("psql", "mysql", "redis-cli", "mongosh", "pg_dump", "mysqldump", "duckdb")

// loaders are variables that make any command load or run what they
// name; programVariables name a program some commands run, which matters
// when it is one that reaches the network or runs code.
var (
	loaders = set("PATH", "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "BASH_ENV", "ENV",
		"PROMPT_COMMAND", "PYTHONSTARTUP")
	programVariables = set("PAGER", "MANPAGER", "GIT_PAGER", "SYSTEMD_PAGER", "EDITOR", "VISUAL", "GIT_EDITOR", "GIT_SSH",
		"GIT_SSH_COMMAND", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_EXTERNAL_DIFF", "GIT_PROXY_COMMAND", "LESSOPEN",
		"LESSCLOSE", "NODE_OPTIONS", "PERL5OPT", "RUBYOPT")
)

// setsProgram judges env (NAME=value, set for one command): a variable
// that makes the command run something other than what it names.
func setsProgram(env []string, depth int) (verdict, bool) {
	for _, w := range env {
		name, val, _ := strings.Cut(w, "=")
		name = strings.TrimSuffix(name, "+")
		if loaders[name] {
			return judge(Hybrid, runsCode, "%s is set for the command: it names a program, library or script that runs", name), true
		}
		if programVariables[name] {
			if v, ok := givenCommand(name, val, depth); ok {
				return v, true
			}
		}
	}
	return verdict{}, false
}

// runnerIn finds a word of text that names a program able to reach the
// network or to run any code (a network command, a shell, an
// interpreter), and returns it and the text from that word on, up to the
// quote or bracket that ends it: the command as it would run.
func runnerIn(text string) (name, cmd string, ok bool) {
	isWord := func(r rune) bool {
		return r == '_' || r == '-' || r == '.' || r == '/' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
	}
	for i := 0; i < len(text); {
		if !isWord(rune(text[i])) {
			i++
			continue
		}
		j := i
		for j < len(text) && isWord(rune(text[j])) {
			j++
		}
		name = commandName(text[i:j])
		_, net := netCommands[name]
		_, interp := interpreter(name)
		switch {
		case net, interp, shellNames[name]:
			cmd = text[i:]
			if k := strings.IndexAny(cmd, "\"'`)}"); k >= 0 {
				cmd = cmd[:k]
			}
			return name, cmd, true
		}
		i = j
	}
	return "", "", false
}

var shellNames = set("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "eval", "exec", "xargs", "nohup", "setsid")

// givenCommand judges the command a program runs from text given to it:
// what that command is, and at least hybrid, since what runs is more than
// the program's name says.
func givenCommand(what, text string, depth int) (verdict, bool) {
	runner, cmd, ok := runnerIn(text)
	if !ok {
		return verdict{}, false
	}
	v := worst([]verdict{
		judge(Hybrid, runsCode, "%s %q names %s, which it runs", what, clip(text), runner),
		script(cmd, depth+1),
	})
	if v.class == External {
		v.format, v.args = "%s runs %q: "+v.format, append([]any{what, clip(cmd)}, v.args...)
	}
	return v, true
}

// hiddenRunner judges the arguments of a local program: one that runs
// commands given to it is hybrid when an argument names a program that
// reaches the network or runs code, and a database client is when it is
// pointed at another host.
func hiddenRunner(name string, args []string, depth int) (verdict, bool) {
	if opts, ok := runsGiven[name]; ok {
		for i, a := range args {
			if len(opts) > 0 {
				a = optionValue(opts, args, i)
			}
			if v, ok := givenCommand(name, a, depth); ok {
				return v, true
			}
			if (name == "awk" || name == "gawk") && strings.Contains(a, "/inet") {
				return judge(External, sureNet, "%s opens a network connection (%s)", name, clip(a)), true
			}
		}
	}
	switch {
	case name == "hash" && hasAny(args, []string{"-p"}):
		return judge(Hybrid, runsCode, "hash -p makes a command name run another program"), true
	case name == "ssh-keygen" && hasAny(args, []string{"-D"}):
		return judge(Hybrid, runsCode, "ssh-keygen -D loads a library and runs its code"), true
	case name == "code" && hasAny(args, []string{"--install-extension"}):
		return judge(Hybrid, fetches, "code --install-extension downloads and runs an extension"), true
	}
	if dbClients[name] {
		for i, a := range args {
			host := ""
			switch {
			case a == "-h" || a == "--host" || a == "-H":
				if i+1 < len(args) {
					host = args[i+1]
				}
			case strings.HasPrefix(a, "--host="):
				host = strings.TrimPrefix(a, "--host=")
			case strings.HasPrefix(a, "-h") && len(a) > 2 && name != "duckdb":
				host = a[2:]
			case strings.Contains(a, "://"):
				_, rest, _ := strings.Cut(a, "://")
				if at := strings.LastIndexByte(rest, '@'); at >= 0 {
					rest = rest[at+1:]
				}
				host, _, _ = strings.Cut(rest, "/")
				host, _, _ = strings.Cut(host, "?")
			}
			if h := strings.Trim(strings.Split(host, ":")[0], "[]"); h != "" && !localHost[strings.ToLower(h)] && !strings.HasPrefix(h, "/") {
				return judge(Hybrid, fetches, "%s connects to the database server %s", name, clip(host)), true
			}
		}
	}
	return verdict{}, false
}

var localHost = set("localhost", "127.0.0.1", "::1", "0.0.0.0")

// optionValue is the value args[i] gives one of opts (as --opt=value,
// --opt value or -Xvalue), or "".
func optionValue(opts, args []string, i int) string {
	for _, o := range opts {
		switch a := args[i]; {
		case a == o && i+1 < len(args):
			return args[i+1]
		case strings.HasPrefix(a, o+"="):
			return a[len(o)+1:]
		case len(o) == 2 && strings.HasPrefix(a, o) && len(a) > 2:
			return a[2:]
		}
	}
	return ""
}
