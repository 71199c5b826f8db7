package classify

import "strings"

// A program classed local is local only when nothing it is given runs
// elsewhere. The commands it runs from text given to it (git -c
// core.pager=…, sed's e, awk's system(), tmux) are read out by shellnorm
// (Given) and judged as commands of the line; here are the rest: a
// variable set for a command that makes it load or run something else,
// a database client pointed at another host, and options that fetch or
// load code.

// dbClients connect to a database server: on this machine unless told
// otherwise.
var dbClients = set("psql", "mysql", "redis-cli", "mongosh", "pg_dump", "mysqldump", "duckdb")

// loaders are variables that make any command load or run what they
// name.
var loaders = set("PATH", "LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "BASH_ENV", "ENV",
	"PROMPT_COMMAND", "PYTHONSTARTUP", "NODE_OPTIONS", "PERL5OPT", "RUBYOPT")

// setsLoader reports the first of env (NAME=value, set for one command)
// that makes the command load or run something other than what it names.
func setsLoader(env []string) (string, bool) {
	for _, w := range env {
		name, _, _ := strings.Cut(w, "=")
		if name = strings.TrimSuffix(name, "+"); loaders[name] {
			return name, true
		}
	}
	return "", false
}

// hiddenRunner judges the arguments of a local program that reaches
// another host or runs code its name does not say.
func hiddenRunner(name string, args []string) (verdict, bool) {
	switch {
	case (name == "awk" || name == "gawk") && anyContains(args, "/inet"):
		return judge(External, sureNet, "%s opens a network connection (/inet)", name), true
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

func anyContains(args []string, s string) bool {
	for _, a := range args {
		if strings.Contains(a, s) {
			return true
		}
	}
	return false
}
