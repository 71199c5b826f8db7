package classify

import (
	"regexp"
	"strings"

	"github.com/flowd-dev/flowd/internal/shellnorm"
)

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
	"PROMPT_COMMAND", "PYTHONSTARTUP", "NODE_OPTIONS", "PERL5OPT", "RUBYOPT",
	// git reads configuration, whose values run commands, from these.
	"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG",
	"GIT_TEMPLATE_DIR", "GIT_EXEC_PATH", "GIT_DIR")

// dbHostVariables point a database client at a server.
var dbHostVariables = set("PGHOST", "PGHOSTADDR", "PGSERVICE", "PGSERVICEFILE", "MYSQL_HOST", "REDISCLI_HOST", "MONGODB_URI")

// pointsDBClient reports a variable set for a database client that
// points it at a server on another host.
func pointsDBClient(name string, env []string) (string, bool) {
	if !dbClients[name] {
		return "", false
	}
	for _, w := range env {
		n, v, _ := strings.Cut(w, "=")
		if dbHostVariables[n] && v != "" && !localHost[strings.ToLower(v)] && !strings.HasPrefix(v, "/") {
			return n + "=" + v, true
		}
	}
	return "", false
}

// setsLoader reports the first of env (NAME=value, set for one command)
// that makes the command load or run something other than what it names.
func setsLoader(env []string) (string, bool) {
	for _, w := range env {
		name, val, _ := strings.Cut(w, "=")
		if name == "PATH" && (strings.HasPrefix(val, "$PATH:") || strings.HasPrefix(val, "${PATH}:")) {
			// Directories after the usual ones add commands; they cannot
			// stand in for one.
			continue
		}
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
	case name == "ssh-keygen" && hasAny(args, []string{"-D", "-w"}) || name == "ssh-add" && hasAny(args, []string{"-s", "-S"}):
		return judge(Hybrid, runsCode, "%s loads a security-key or PKCS#11 library and runs its code", name), true
	case name == "code" && hasAny(args, []string{"--install-extension"}):
		return judge(Hybrid, fetches, "code --install-extension downloads and runs an extension"), true
	case name == "code" && len(args) > 0 && (args[0] == "tunnel" || args[0] == "serve-web" || args[0] == "--remote"):
		return judge(External, sureNet, "code %s opens this machine to, or connects it with, another host", args[0]), true
	case shellnorm.RemoteArchive(name, args) != "":
		return judge(External, sureNet, "%s reads or writes the archive %s on another host", name, clip(shellnorm.RemoteArchive(name, args))), true
	case vimFamily[name] || name == "emacs" || name == "emacsclient" || name == "less":
		if a := editorRuns(name, args); a != "" {
			return judge(Hybrid, runsCode, "%s %s runs a script or program", name, clip(a)), true
		}
	case (name == "systemctl" || name == "launchctl") && (hasAny(args, []string{"set-environment", "import-environment", "setenv"})):
		return judge(Hybrid, runsCode, "%s sets variables for every service it starts later", name), true
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
			case strings.Contains(a, "host="):
				// A libpq connection string: "host=… dbname=…".
				_, host, _ = strings.Cut(a, "host=")
				host, _, _ = strings.Cut(host, " ")
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

// localHost are the database hosts that are this machine whatever DNS
// says. Not ssrf.Host's loopback test on purpose: that one counts public
// names that resolve to 127.0.0.1 today (localtest.me) as loopback, the
// worse reading for a request; for egress the worse reading is that their
// owner can point them anywhere tomorrow.
var localHost = set("localhost", "127.0.0.1", "::1", "0.0.0.0")

func anyContains(args []string, s string) bool {
	for _, a := range args {
		if strings.Contains(a, s) {
			return true
		}
	}
	return false
}

// gitLoadsCode returns the global option of a git command that makes it
// run hooks, or read configuration, from a place the line chooses:
// -c core.hooksPath=…, -c include.path=…, --config-env, --exec-path=….
func gitLoadsCode(args []string) string {
	for i, a := range args {
		switch {
		case strings.HasPrefix(a, "--config-env") || strings.HasPrefix(a, "--exec-path="):
			return a
		case a == "-c" && i+1 < len(args):
			key, _, _ := strings.Cut(strings.ToLower(args[i+1]), "=")
			if key == "core.hookspath" || key == "include.path" || strings.HasPrefix(key, "includeif.") {
				return "-c " + args[i+1]
			}
		case !strings.HasPrefix(a, "-") && (i == 0 || args[i-1] != "-c" && args[i-1] != "-C"):
			return ""
		}
	}
	return ""
}

var vimFamily = set("vim", "vi", "nvim", "view", "ex", "vimdiff", "rvim", "gvim")

// editorRuns returns the argument with which an editor or pager runs a
// script or a program: vim -S/-u FILE or an Ex command that runs one,
// emacs's Lisp (--eval, -l, --script, -f), less's +| and +!.
func editorRuns(name string, args []string) string {
	for i, a := range args {
		prev := ""
		if i > 0 {
			prev = args[i-1]
		}
		switch {
		case vimFamily[name] && (prev == "-S" || prev == "-u" && a != "NONE" && a != "NORC"):
			return prev + " " + a
		case vimFamily[name] && (strings.HasPrefix(a, "+") || strings.HasPrefix(a, ":") || prev == "-c" || prev == "--cmd" ||
			len(prev) > 2 && prev[0] == '-' && prev[1] != '-' && strings.HasSuffix(prev, "c")) &&
			(strings.Contains(a, "!") || vimRuns.MatchString(a)):
			return a
		case name == "emacs" || name == "emacsclient":
			if emacsLoads[a] || strings.HasPrefix(a, "--eval=") || strings.HasPrefix(a, "--load=") {
				return a
			}
		case name == "less" && strings.HasPrefix(a, "+") && strings.ContainsAny(a, "!|"):
			return a
		}
	}
	return ""
}

var emacsLoads = set("--eval", "-eval", "--execute", "-l", "--load", "--script", "-script", "-f", "--funcall", "-batch", "--batch", "-x")

// vimRuns is Vim script that runs a program or loads code.
var vimRuns = regexp.MustCompile(`system(?:list)?\s*\(|\bter(?:minal)?\b|\bpy(?:thon)?3?\b|\blua\b|\bperl\b|\bruby\b|job_?start|libcall|\bso(?:urce)?\b|\bru(?:ntime)?\b`)
