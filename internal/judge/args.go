package judge

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/cmdrisk"
	"github.com/flowd-dev/flowd/internal/secretfile"
	"github.com/flowd-dev/flowd/internal/selfguard"
	"github.com/flowd-dev/flowd/internal/sharedpath"
	"github.com/flowd-dev/flowd/internal/shellnorm"
	"github.com/flowd-dev/flowd/internal/ssrf"
)

// What a call's arguments say, whatever its destination, about what it
// runs, where it fetches and which credentials it reads. Keys are read by
// name, at any depth: an MCP server names its parameters for what they
// hold, and a server that lies about them runs whatever it likes anyway.

// shellKeys hold a command line.
var shellKeys = keySet("command", "cmd", "commands", "script", "shell", "bash", "sh", "zsh", "powershell", "pwsh",
	"commandline", "command_line", "cmdline", "shell_command", "shellcommand", "run", "exec", "execute")

// argKeys hold the arguments of a command given apart from it.
var argKeys = keySet("args", "arguments", "argv", "params")

// codeKeys hold a program in some language.
var codeKeys = keySet("code", "program", "python", "javascript", "js", "snippet", "source_code", "sourcecode", "expression")

// pathKeys hold a file the call reads or writes.
var pathKeys = keySet("path", "paths", "file", "files", "file_path", "filepath", "filename", "file_name", "target",
	"source", "src", "dest", "destination", "directory", "dir", "location", "uri", "notebook_path")

// contentKeys hold what a write puts in its file.
var contentKeys = keySet("content", "contents", "text", "data", "body", "new_string", "new_str", "file_text",
	"newtext", "new_text", "new_source")

// oldKeys hold the text an edit replaces.
var oldKeys = keySet("old_string", "old_str", "oldtext", "old_text")

// textKeys hold free text a call sends or stores for someone to read.
var textKeys = keySet("message", "msg", "comment", "description", "note", "notes", "summary", "title", "subject",
	"caption", "post", "reply", "answer", "prompt", "instructions")

// notCommands are keys of a shell tool whose values are no command lines.
var notCommands = keySet("cwd", "workdir", "working_dir", "working_directory", "timeout", "language", "lang", "name",
	"id", "session", "session_id", "encoding", "mode", "user", "env", "shell_type", "type")

// urlKeys hold where a call fetches.
var urlKeys = keySet("url", "uri", "href", "link", "endpoint", "address", "host", "hostname", "target", "location",
	"src", "source", "callback", "webhook", "base_url", "baseurl", "server", "ip")

func keySet(keys ...string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}

// argFacts are what readArgs found.
type argFacts struct {
	// command is the screen of the command lines the call runs, and
	// commands whether it has any.
	command  cmdrisk.Report
	commands []string
	// wrote: a script the call writes where it will run.
	wrote bool
	// address is the first internal address the call names where it
	// fetches.
	address *ssrf.Target
	// reads are the credentials the call reads.
	reads []string
	// writes: the call puts text in a file.
	writes bool
	// texts are the free texts the call writes (content, body,
	// message…), where instructions for another model would go;
	// forAgents: the file is one agents read as their instructions.
	texts     []string
	forAgents bool
	// shared is the file written where others read it (sharedpath), and
	// why: a write there sends what it holds.
	shared string
	// keyRead is a file of private key material the call names and does
	// not write (secretfile.KeyMaterial).
	keyRead string
	// paths are the files the call names; contents what it writes into
	// them, olds what an edit replaces (selfguard reads them).
	paths, contents, olds []string
	// decoded is the arguments as JSON decoded them, nil where readArgs
	// did not decode them: the payload search reads their strings too,
	// and a message is decoded once.
	decoded any
}

// network reports whether the commands the call runs talk to other
// hosts, by flowd's own reading of them or by the shell classifier's
// (git push, npm publish, ssh …). It is asked only where it matters.
func (f argFacts) network() bool {
	if f.command.Network {
		return true
	}
	if f.command.Local {
		return false // curl localhost:3000: the classifier counts it as the web
	}
	for _, l := range f.commands {
		if classify.BashCommand(l).Class == classify.External {
			return true
		}
	}
	return false
}

// maxArgStrings bounds the strings of a call's arguments read by name.
const maxArgStrings = 4096

// readArgs reads a call's arguments; shell is a hook's Bash command line.
func readArgs(tool string, args []byte, shell string) argFacts {
	var f argFacts
	var lines []string
	if shell != "" {
		lines = append(lines, shell)
	}
	if why := secretTool(tool); why != "" {
		f.reads = append(f.reads, why)
	}
	runs := shellTool(tool)
	if runs || worth(args) {
		var v any
		if json.Unmarshal(args, &v) == nil {
			f.decoded = v
			w := &walker{f: &f, runs: runs && shell == ""}
			w.object(v, "", 0)
			for _, l := range w.lines {
				if l != shell { // a hook's Bash gives its command twice
					lines = append(lines, l)
				}
			}
			for _, c := range w.code {
				lines = append(lines, "python3 -c "+shellnorm.Quote(c))
			}
			w.writes(&f)
			if f.writes {
				f.keyRead = ""
			}
			f.paths, f.contents, f.olds = w.paths, w.content, w.old
		}
	}
	f.commands = lines
	for _, l := range lines {
		r := cmdrisk.Screen(l)
		f.command.Findings = append(f.command.Findings, r.Findings...)
		f.command.Network = f.command.Network || r.Network
		f.command.Local = f.command.Local || r.Local
		f.reads = append(f.reads, r.Reads...)
		f.command.Sends = append(f.command.Sends, r.Sends...)
	}
	return f
}

// worth says whether arguments may hold anything readArgs reads (a key
// it reads by name, a URL, an escape that could spell either), so that
// arguments without any are not decoded for nothing. One pass.
func worth(args []byte) bool {
	if len(args) < 2 {
		return false
	}
	// A URL under any key is read in arguments of a size a fetch takes.
	text := len(args) <= maxTextArgs && (bytes.Contains(args, []byte("://")) || bytes.Contains(args, []byte(`:\/\/`)))
	var key [32]byte
	for i := 0; i < len(args); i++ {
		if args[i] != '"' {
			continue
		}
		// A string: a key when a colon follows it.
		end := bytes.IndexByte(args[i+1:], '"')
		if end < 0 {
			return text
		}
		str := args[i+1 : i+1+end]
		i += end + 1
		j := i + 1
		for j < len(args) && (args[j] == ' ' || args[j] == '\t' || args[j] == '\n' || args[j] == '\r') {
			j++
		}
		if j < len(args) && args[j] == ':' && bytes.IndexByte(str, '\\') >= 0 {
			// An escaped key ("comm\u0061nd") is read as its decoder reads it.
			var k string
			if json.Unmarshal(args[i-len(str)-1:i+1], &k) == nil && readKey(strings.ToLower(k)) {
				return true
			}
			continue
		}
		if j < len(args) && args[j] == ':' && len(str) <= len(key) {
			k := key[:len(str)]
			for n, c := range str {
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				k[n] = c
			}
			if readKey(string(k)) {
				return true
			}
		}
	}
	return text
}

// readKey reports whether readArgs reads a value by this key.
func readKey(k string) bool {
	return shellKeys[k] || argKeys[k] || codeKeys[k] || pathKeys[k] || contentKeys[k] || urlKeys[k] || oldKeys[k]
}

// maxTextArgs bounds the arguments decoded only for a URL in their text
// under a key that says nothing (a query): a 10 MB message is not copied
// again for it.
const maxTextArgs = 1 << 20

// secretTool says whether a tool's name says it reads secrets or the
// environment (get_env, read_secret, vault_read), and what.
func secretTool(tool string) string {
	toks := strings.FieldsFunc(strings.ToLower(tool), func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == ' ' })
	reads, secret := true, ""
	for _, t := range toks {
		switch t {
		case "env", "environ", "environment", "secret", "secrets", "credential", "credentials", "password", "passwords",
			"vault", "keychain", "keyring", "getenv", "printenv", "cookie", "cookies", "apikey", "apikeys", "totp", "otp":
			secret = t
		case "set", "put", "write", "delete", "remove", "update", "create", "rotate", "unset", "store", "save",
			// a banner's or a code's handling, not a read of one
			"accept", "dismiss", "clear", "consent", "send", "verify", "request", "validate", "reset", "revoke", "block":
			reads = false
		}
	}
	if secret == "" || !reads {
		return ""
	}
	return "the output of " + tool + " (it reads " + secret + " values)"
}

// shellTool says whether a tool's name says it runs commands (shell,
// terminal, run_command, exec): every string it is given is then read as
// a command line, whatever its key, since a server names its parameters
// as it likes.
func shellTool(tool string) bool {
	for _, t := range strings.FieldsFunc(strings.ToLower(tool), func(r rune) bool { return r == '_' || r == '-' || r == '.' || r == ' ' || r == '/' }) {
		switch t {
		case "shell", "bash", "sh", "zsh", "terminal", "exec", "execute", "command", "cmd", "powershell", "pwsh", "console":
			return true
		}
	}
	return false
}

// walker collects the strings of arguments by what their keys say.
type walker struct {
	f       *argFacts
	runs    bool // the tool runs commands: every string is one
	n       int
	lines   []string
	code    []string
	paths   []string
	content []string
	old     []string
}

func (w *walker) object(v any, key string, depth int) {
	if depth > 32 || w.n > maxArgStrings {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		// Every command line, the first with the list of arguments given
		// apart from it.
		first := true
		for k, e := range x {
			cmd, ok := e.(string)
			if !ok || !shellKeys[strings.ToLower(k)] || strings.TrimSpace(cmd) == "" {
				continue
			}
			if first {
				for k, a := range x {
					if argKeys[strings.ToLower(k)] {
						cmd += " " + joinArgs(a)
					}
				}
				first = false
			}
			w.lines = append(w.lines, cmd)
		}
		for k, e := range x {
			lk := strings.ToLower(k)
			if shellKeys[lk] {
				if _, ok := e.(string); ok {
					continue // taken above
				}
			}
			w.object(e, lk, depth+1)
		}
	case []any:
		for _, e := range x {
			w.object(e, key, depth+1)
		}
	case string:
		w.n++
		w.str(key, x)
	}
}

// joinArgs turns a command's argument list into shell words.
func joinArgs(a any) string {
	switch x := a.(type) {
	case string:
		return x
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, shellnorm.Quote(s))
			}
		}
		return strings.Join(out, " ")
	}
	return ""
}

func (w *walker) str(key, s string) {
	if w.runs && strings.TrimSpace(s) != "" && !shellKeys[key] && !codeKeys[key] && !pathKeys[key] && !urlKeys[key] &&
		!textKeys[key] && !contentKeys[key] && !oldKeys[key] && !notCommands[key] {
		w.lines = append(w.lines, s)
	}
	switch {
	case codeKeys[key]:
		w.code = append(w.code, s)
	case pathKeys[key]:
		w.paths = append(w.paths, s)
		if why := secretfile.Why(s); why != "" {
			w.f.reads = append(w.f.reads, s+" ("+why+")")
		}
		if w.f.keyRead == "" && secretfile.KeyMaterial(s) {
			w.f.keyRead = s
		}
	case contentKeys[key]:
		w.content = append(w.content, s)
		w.f.texts = append(w.f.texts, s)
	case textKeys[key]:
		w.f.texts = append(w.f.texts, s)
	case oldKeys[key]:
		w.old = append(w.old, s)
	}
	if w.f.address == nil && (urlKeys[key] || wholeURL(s)) {
		t := strings.TrimSpace(s)
		if hits := ssrf.Find(t); len(hits) > 0 {
			w.f.address = &hits[0].Target
		} else if !strings.Contains(t, "://") && !strings.ContainsAny(t, " /") {
			if h, ok := ssrf.Host(t); ok {
				w.f.address = &h
			}
		}
	}
}

// wholeURL reports whether s is one URL and nothing else.
func wholeURL(s string) bool {
	s = strings.TrimSpace(s)
	i := strings.Index(s, "://")
	return i > 0 && i < 12 && !strings.ContainsAny(s, " \n\t")
}

// privateTempDir reports whether p lies in a directory of a shared
// temporary directory that others may not enter (a mktemp -d, a test's
// temp dir): then nobody else reads what is written there.
func privateTempDir(p string) bool {
	d := sharedpath.TempSubdir(p)
	if d == "" {
		return false
	}
	fi, err := os.Lstat(d)
	return err == nil && fi.IsDir() && fi.Mode().Perm()&0o005 == 0
}

// writes screens what the call writes where it will run: a script (a
// shell file, text starting with #!) is a command line like any other,
// a program (a .py, .js… file, or #! naming an interpreter) is the code
// its interpreter runs, a build file's scripts (package.json, Makefile)
// are commands whose severe findings refuse the write,
// and one written where it runs on its own (a crontab, a shell's startup
// file, a git hook) makes any finding in it a refusal.
func (w *walker) writes(f *argFacts) {
	if len(w.content) == 0 || len(w.paths) == 0 {
		return
	}
	f.writes = true
	for _, p := range w.paths {
		f.forAgents = f.forAgents || agentInstructions(p)
		if why := sharedpath.Why(p); why != "" && f.shared == "" && !privateTempDir(p) {
			f.shared = p + ", " + why
		}
		auto := cmdrisk.RunsOnItsOwn(p)
		before := func() string {
			if len(w.old) > 0 {
				return strings.Join(w.old, "\n")
			}
			return onDisk(p)
		}
		for _, c := range w.content {
			if why := selfguard.Widens(p, c, before); why != "" {
				f.command.Findings = append(f.command.Findings, cmdrisk.Finding{Rule: cmdrisk.WidensAgent,
					Reason: "written to " + p + ", an agent's settings: " + why})
			}
			lines, where, lang, build := []string{c}, auto, "", false
			if cmds, what := selfguard.RunsCommands(p, c); len(cmds) > 0 {
				// A helper, hook or skill command runs with no tool call
				// for a hook to see.
				lines, where = cmds, what
			} else if cmds := cmdrisk.BuildCommands(p, c); len(cmds) > 0 {
				lines, build = cmds, true
				if x, ok := cmdrisk.Flow(cmds); ok {
					x.Reason = "the build file written to " + p + ": " + x.Reason
					f.command.Findings = append(f.command.Findings, x)
				}
			} else if lang = cmdrisk.Program(p, c); auto == "" && lang == "" && !cmdrisk.Script(p, c) {
				f.embedded(p, c, false)
				continue
			}
			f.wrote = true
			f.embedded(p, c, true)
			for _, l := range lines {
				if strings.Contains(where, "cron") {
					l = cmdrisk.CronCommands(l)
				}
				var r cmdrisk.Report
				switch {
				case lang != "":
					// A program run by name (python3 tools/sync.py) is
					// judged as its inline form (python3 -c) would be.
					r = cmdrisk.ScreenProgram(lang, l)
				case where != "":
					r = cmdrisk.ScreenUnwatched(l)
				default:
					r = cmdrisk.Screen(l)
				}
				for _, x := range r.Findings {
					if build && !x.Severe {
						continue // a deploy script's rsync is asked about when it runs
					}
					if where != "" {
						x.Severe = true
						x.Reason = "written to " + p + ", " + where + ": " + x.Reason
					} else {
						x.Reason = "the script written to " + p + ": " + x.Reason
					}
					f.command.Findings = append(f.command.Findings, x)
				}
			}
		}
	}
}

// onDisk is the file at p as it is now (its first bytes, as much as
// readSmall reads), when p is absolute, else "": what a write replaces.
func onDisk(p string) string {
	if !filepath.IsAbs(p) {
		return ""
	}
	b, _ := readSmall(p)
	return string(b)
}

// embedded screens the command lines text written to p holds for a
// later command to run (cmdrisk.Embedded): refused in a file that runs
// (runs: a script, a program, a build file, a place that runs on its
// own) or that a later ordinary command runs (cmdrisk.RunLater), left
// alone elsewhere, where the text is a document or a test's data.
func (f *argFacts) embedded(p, text string, runs bool) {
	fs := cmdrisk.Embedded(text)
	if len(fs) == 0 {
		return
	}
	what := cmdrisk.RunLater(p, text)
	if what == "" && !runs {
		// A page, a note or test data that quotes a command runs
		// nothing: asked about, an agent saving a page that quotes an
		// attack was refused in -p mode (TestClaudeCodeScanOutput).
		// Its text is screened as planted instructions instead.
		return
	}
	for _, x := range fs {
		if what != "" {
			x.Reason = "written to " + p + ", " + what + ": " + x.Reason
		} else {
			x.Reason = "the script written to " + p + ": " + x.Reason
		}
		f.command.Findings = append(f.command.Findings, x)
	}
}

// agentInstructions reports whether path is a file coding agents read as
// their instructions or memory.
func agentInstructions(path string) bool {
	p := strings.ToLower(strings.ReplaceAll(path, `\`, "/"))
	base := p[strings.LastIndexByte(p, '/')+1:]
	switch base {
	case "claude.md", "claude.local.md", "agents.md", "agent.md", "gemini.md", ".cursorrules", ".windsurfrules",
		".clinerules", "copilot-instructions.md", "conventions.md", ".goosehints", "memory.md":
		return true
	}
	return strings.Contains(p, "/.cursor/rules/") || strings.Contains(p, "/.claude/") || strings.Contains(p, "/.github/instructions/") ||
		strings.HasPrefix(p, ".cursor/rules/") || strings.HasPrefix(p, ".claude/")
}

// Reads returns the credentials a call reads (Outcome.Reads), for an
// entrance that records the call's result without having judged the
// call in the same event (a hook's PostToolUse); shell is a Bash
// command line.
func Reads(tool string, args []byte, shell string) []string {
	return readArgs(tool, args, shell).reads
}

// Paths returns the files a call's arguments name under keys that hold
// paths (path, file_path, uri…), at most a few, for the origin its result
// makes: a later call that names one whose result held a secret may be
// sending that secret. Arguments too large to be a read are not parsed.
func Paths(args []byte) []string {
	if len(args) > 64<<10 || !bytes.Contains(args, []byte("path")) && !bytes.Contains(args, []byte("file")) &&
		!bytes.Contains(args, []byte("uri")) && !bytes.Contains(args, []byte("src")) {
		return nil
	}
	var v any
	if json.Unmarshal(args, &v) != nil {
		return nil
	}
	w := &walker{f: &argFacts{}}
	w.object(v, "", 0)
	if len(w.paths) > 8 {
		return w.paths[:8]
	}
	return w.paths
}
