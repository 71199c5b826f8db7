package selfguard

import (
	"encoding/base64"
	"encoding/hex"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/flowd-dev/flowd/internal/claudecode"
	"github.com/flowd-dev/flowd/internal/clientconfig"
	"github.com/flowd-dev/flowd/internal/cursor"
	"github.com/flowd-dev/flowd/internal/geminicli"
	"github.com/flowd-dev/flowd/internal/paths"
	"github.com/flowd-dev/flowd/internal/shellnorm"
)

// Guard knows where this flowd lives. Its zero value still recognises
// flowd by name and by the usual places of its files.
type Guard struct {
	Home string // for ~ and $HOME in the agent's paths
	// Dirs are flowd's own directories (config, data, socket) and Files
	// its own files elsewhere (its binaries, a socket in a shared
	// directory): the agent may read them, never change them.
	Dirs, Files []string
	// Secrets are flowd's data directories, whose files (its signing
	// key, its stores) the agent may not even read; for a zero Guard,
	// the usual places.
	Secrets []string
	// PIDs are flowd's own processes.
	PIDs []int
	// ClientConfigs are the MCP clients' config files, where a server is
	// wrapped by flowd's shim.
	ClientConfigs []string
}

// Current is the guard of the flowd running in this process: configFile,
// dataDir and socket as it uses them.
func Current(configFile, dataDir, socket string) Guard {
	g := Guard{PIDs: []int{os.Getpid()}}
	g.Home, _ = os.UserHomeDir()
	if dataDir != "" {
		g.Dirs = append(g.Dirs, dataDir)
		g.Secrets = append(g.Secrets, dataDir)
	}
	// A file in a directory of flowd's own (…/flowd/config.toml) takes
	// the directory; one in a directory shared with other things (a
	// config given with --config in a project) only itself.
	for _, f := range []string{configFile, socket} {
		if dir := filepath.Dir(f); strings.Contains(filepath.Base(dir), "flowd") {
			g.Dirs = append(g.Dirs, dir)
		} else if f != "" {
			g.Files = append(g.Files, f)
		}
	}
	if exe, err := os.Executable(); err == nil {
		for _, name := range []string{filepath.Base(exe), "shim", "hook", "shim.exe", "hook.exe"} {
			if p := filepath.Join(filepath.Dir(exe), name); exists(p) {
				g.Files = append(g.Files, p)
			}
		}
	}
	if env, err := clientconfig.CurrentEnv(); err == nil {
		env.Dir = "" // project files are recognised by name, in whatever project
		for _, c := range clientconfig.Clients {
			for _, l := range c.Locations(env) {
				g.ClientConfigs = append(g.ClientConfigs, l.Path)
			}
		}
	}
	// Where a symlink leads counts as much as the link.
	for _, list := range []*[]string{&g.Dirs, &g.Files, &g.Secrets} {
		for _, p := range *list {
			if r, err := filepath.EvalSymlinks(p); err == nil && r != p {
				*list = append(*list, r)
			}
		}
	}
	return g
}

// Names are what, found in a tool call's text, may name the files this
// guard keeps: flowd's directories and files, the MCP clients' configs,
// the agents' settings directories, and flowd's name, which its usual
// places hold; in lower case. A call holding none of them names none of
// those files, except through a link made to lead there. The shim lets a
// granted tool's call go at once only then (red team RT4-8: a grant for
// move_file or read_text_file carried a move of flowd's config and a read
// of its passphrase verifier past this guard).
func (g Guard) Names() []string {
	names := []string{"flowd", ".claude", ".gemini", ".cursor", ".codex", "approval.json", "audit.key"}
	for _, list := range [][]string{g.Dirs, g.Files, g.Secrets, g.ClientConfigs} {
		for _, p := range list {
			if p = strings.ToLower(filepath.ToSlash(filepath.Clean(p))); p != "." && p != "/" {
				names = append(names, p)
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Action is what an agent's tool call does, as the judge read it from
// the call's arguments.
type Action struct {
	Tool     string
	Commands []string // the command lines it runs
	Paths    []string // the files it names
	Contents []string // what it writes (a whole file, or an edit's new text)
	Olds     []string // the text an edit replaces
	Dir      string   // the agent's working directory, for relative paths
}

// Check returns why the action would switch flowd off or blind it, or
// read flowd's signing key or stores, or "" when it does not.
func (g Guard) Check(a Action) string {
	for _, c := range a.Commands {
		if why := g.command(c, a.Dir); why != "" {
			return why
		}
	}
	if len(a.Paths) > 0 && (Mutates(a.Tool) || len(a.Contents) > 0) {
		for _, p := range a.Paths {
			if why := g.change(p, a); why != "" {
				return deny(why)
			}
		}
	}
	if why := g.readsSecret(a); why != "" {
		return secretDeny(why)
	}
	return ""
}

func deny(why string) string {
	return why + ": that switches off or weakens flowd, which watches what you do, so only the user may do it, " +
		"in a terminal of their own. Do not try another way; tell the user what you wanted to do and why."
}

// Mutates reports whether a tool's name says it changes files (Write,
// Edit, MultiEdit, NotebookEdit, write_file, move_file, delete_file…).
func Mutates(tool string) bool {
	var b strings.Builder // MultiEdit: multi_edit
	for i, r := range tool {
		if unicode.IsUpper(r) && i > 0 {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	for _, t := range strings.FieldsFunc(b.String(), func(r rune) bool {
		return r == '_' || r == '-' || r == '.' || r == ' ' || r == '/'
	}) {
		for _, w := range []string{"write", "edit", "move", "rename", "delete", "remove", "create", "copy", "append",
			"save", "put", "upload", "patch", "replace", "mkdir", "chmod", "touch", "truncate", "unlink", "link",
			"symlink", "set", "update", "insert", "rm", "mv", "cp"} {
			// writefile, deletefile: a longer word counts only for the
			// verbs too long to start an unrelated one (set: settings).
			if t == w || len(w) >= 5 && strings.HasPrefix(t, w) {
				return true
			}
		}
	}
	return false
}

// change says why changing p, as a does, is refused, or "".
func (g Guard) change(p string, a Action) string {
	abs := g.resolve(p, a.Dir)
	if what := g.own(abs); what != "" {
		return "changing " + p + " (" + what + ")"
	}
	if what := flowdCgroup(abs); what != "" {
		return "changing " + p + " (" + what + ")"
	}
	if len(a.Contents) == 0 {
		if what := g.keeps(abs); what != "" {
			return "moving or deleting " + p + ", which holds " + what
		}
	}
	hf := hookFileOf(abs)
	if hf != nil || g.clientConfig(abs) {
		if v := SetsEnv(a.Contents); v != "" {
			return "changing " + p + ": it sets " + v + " for the agent's tools or MCP servers, which flowd's hooks and shims (and a flowd they start) would run with"
		}
	}
	// Gemini CLI's settings are both: its hooks and its MCP servers.
	if hf != nil {
		for _, c := range a.Contents {
			if v := RedirectingEnv(c); v != "" {
				return "changing " + p + ": it sets " + v + " for the agent and every tool it runs, past flowd's view"
			}
		}
		if why := settingsChange(hf, abs, a); why != "" {
			return "changing " + p + ", " + hf.what + ": " + why
		}
	}
	if g.clientConfig(abs) {
		if why := clientChange(a); why != "" {
			return "changing " + p + ", an MCP client's config: " + why
		}
	}
	return ""
}

// runtimeEnv are the variables that change how a program runs rather
// than what it works on: the dynamic loader's, which put code of the
// setter's choosing into it, and the Go runtime's, which can starve or
// silence flowd's hooks and shims.
var runtimeEnv = []string{"LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "DYLD_LIBRARY_PATH",
	"DYLD_FRAMEWORK_PATH", "GODEBUG", "GOGC", "GOMEMLIMIT", "GOTRACEBACK"}

// SetsEnv returns a variable that texts (an agent's settings, a client's
// config) name which would reach flowd's hooks and shims through the
// environment an agent gives its tools and servers (Claude Code's "env",
// a server's "env"): one of runtimeEnv, or flowd's own (FLOWD_SOCKET
// points them at another flowd, FLOWD_SESSION splits a session in two).
// Names are matched as words, in any syntax (JSON, TOML).
func SetsEnv(texts []string) string {
	for _, t := range texts {
		for _, n := range runtimeEnv {
			if word(t, n, true) {
				return n
			}
		}
		if word(t, "FLOWD_", false) {
			return "a FLOWD_ variable"
		}
	}
	return ""
}

// word reports whether w is in t with no word character before it, nor,
// if whole, after it.
func word(t, w string, whole bool) bool {
	for i := 0; ; {
		j := strings.Index(t[i:], w)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(w)
		if (j == 0 || !isWordByte(t[j-1])) && (!whole || end == len(t) || !isWordByte(t[end])) {
			return true
		}
		i = j + 1
	}
}

// hookFile is a kind of file where an agent keeps flowd's hooks.
type hookFile struct {
	what string
	// find counts flowd's hooks in a file's text and reports whether the
	// text turns them off.
	find func([]byte) (hooks int, off bool, err error)
}

var (
	claudeSettings = &hookFile{"Claude Code's settings, which hold flowd's hooks", func(b []byte) (int, bool, error) {
		hooks, off, err := claudecode.FindHooks(b)
		return len(hooks), off, err
	}}
	geminiSettings = &hookFile{"Gemini CLI's settings, which hold flowd's hooks", func(b []byte) (int, bool, error) {
		hooks, _, err := claudecode.FindHooks(b)
		return len(hooks), geminicli.HooksOff(b), err
	}}
	cursorHooks = &hookFile{"Cursor's hooks file, which holds flowd's hooks", func(b []byte) (int, bool, error) {
		hooks, err := cursor.FindHooks(b)
		return len(hooks), false, err
	}}
)

// hookFileOf recognises the files where agents keep flowd's hooks (as
// `hook install` writes them, and the machine-wide ones), or nil.
func hookFileOf(p string) *hookFile {
	l := strings.ToLower(filepath.ToSlash(p))
	switch {
	case strings.HasSuffix(l, "/.claude/settings.json"), strings.HasSuffix(l, "/.claude/settings.local.json"),
		strings.HasSuffix(l, "/managed-settings.json"):
		return claudeSettings
	case strings.HasSuffix(l, "/.gemini/settings.json"), strings.HasSuffix(l, "/gemini-cli/settings.json"),
		strings.HasSuffix(l, "/geminicli/settings.json"):
		return geminiSettings
	case strings.HasSuffix(l, "/.cursor/hooks.json"), strings.HasSuffix(l, "/cursor/hooks.json"):
		return cursorHooks
	}
	return nil
}

// maxSettings bounds what is read of a settings file on disk.
const maxSettings = 4 << 20

// settingsChange says why a write or edit of an agent's hook file would
// take flowd's hooks away. The file on disk at abs is read to know what
// a write replaces.
func settingsChange(hf *hookFile, abs string, a Action) string {
	if len(a.Contents) == 0 {
		return "moving or deleting it drops flowd's hooks"
	}
	for _, t := range append(slices.Clone(a.Olds), a.Contents...) {
		if l := strings.ToLower(t); strings.Contains(l, "flowd") || strings.Contains(l, "disableallhooks") {
			return "it touches flowd's hooks or settings"
		}
	}
	if len(a.Olds) > 0 {
		for _, t := range append(slices.Clone(a.Olds), a.Contents...) {
			if strings.Contains(strings.ToLower(t), "hook") {
				return "an edit of the hooks"
			}
		}
		return ""
	}
	had := 0
	if cur, err := readBounded(abs); err == nil {
		had, _, _ = hf.find(cur)
	}
	for _, c := range a.Contents {
		hooks, off, err := hf.find([]byte(c))
		switch {
		case err != nil:
			return "the new file is not valid settings"
		case off:
			return "it turns hooks off"
		case hooks < had:
			return "it drops flowd's hooks, which the file holds now"
		case hooks == 0 && strings.Contains(c, `"hooks"`):
			return "its hooks do not include flowd's"
		}
	}
	return ""
}

func readBounded(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxSettings))
}

// keeps says what of flowd's, or of the files that hold its hooks and
// wrap servers in its shim, lies inside the directory p, which moving or
// deleting p would take with it (rm -rf ~/.local, mv ~/.config x): "" when
// p is no directory or holds none of them.
func (g Guard) keeps(p string) string {
	if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
		return ""
	}
	inside := func(q string) bool {
		return filepath.IsAbs(q) && strings.HasPrefix(q, strings.TrimRight(p, `/\`)+string(filepath.Separator))
	}
	for _, list := range [][]string{g.Dirs, g.Files} {
		for _, q := range list {
			if inside(q) {
				return "flowd's files (" + q + ")"
			}
		}
	}
	var candidates []string
	if g.Home != "" {
		for _, q := range []string{".config/flowd", ".local/state/flowd", "Library/Application Support/flowd", "Library/Caches/flowd",
			".config/systemd/user/flowd.service", ".claude/settings.json", ".claude/settings.local.json", ".gemini/settings.json",
			".cursor/hooks.json"} {
			candidates = append(candidates, filepath.Join(g.Home, q))
		}
	}
	for _, q := range []string{".claude/settings.json", ".claude/settings.local.json", ".gemini/settings.json", ".cursor/hooks.json",
		"settings.json", "settings.local.json", "hooks.json", ".mcp.json"} {
		candidates = append(candidates, filepath.Join(p, q))
	}
	candidates = append(candidates, g.ClientConfigs...)
	for _, q := range candidates {
		if !inside(q) || !exists(q) {
			continue
		}
		switch {
		case hookFileOf(q) != nil:
			return hookFileOf(q).what + " (" + q + ")"
		case g.clientConfig(q):
			return "an MCP client's config (" + q + ")"
		case usualPlace(q) != "":
			return usualPlace(q) + " (" + q + ")"
		}
	}
	return ""
}

// clientChange says why a write or edit of an MCP client's config would
// take a server from behind flowd's shim.
func clientChange(a Action) string {
	if len(a.Contents) == 0 {
		return "moving or deleting it"
	}
	if len(a.Olds) > 0 {
		for _, t := range a.Olds {
			if strings.Contains(t, "shim") {
				return "it edits a server wrapped by flowd's shim"
			}
		}
		for _, t := range a.Contents {
			if strings.Contains(t, `"command"`) {
				return "it adds a server command that flowd's shim does not wrap"
			}
		}
		return ""
	}
	for _, c := range a.Contents {
		r, err := clientconfig.Wrap([]byte(c), "shim")
		if err != nil {
			return "the new file cannot be read as a client config"
		}
		for _, s := range r.Servers {
			if s.Action == clientconfig.Wrapped {
				return "server " + s.Name + " would run without flowd's shim"
			}
		}
	}
	return ""
}

// resolve makes p absolute, as the agent's shell would read it, and
// follows symlinks as far as they exist.
func (g Guard) resolve(p, dir string) string {
	p = strings.TrimSpace(p)
	if after, ok := strings.CutPrefix(p, "file://"); ok {
		p = after
	}
	if g.Home != "" {
		switch {
		case p == "~" || p == "$HOME" || p == "${HOME}":
			p = g.Home
		case strings.HasPrefix(p, "~/"):
			p = g.Home + p[1:]
		case strings.HasPrefix(p, "$HOME/"):
			p = g.Home + p[5:]
		case strings.HasPrefix(p, "${HOME}/"):
			p = g.Home + p[7:]
		}
	}
	if !filepath.IsAbs(p) && dir != "" {
		p = filepath.Join(dir, p)
	}
	p = filepath.Clean(p)
	// The file may not exist yet: its nearest existing parent is resolved,
	// found with one lstat a level (EvalSymlinks walks the whole path each
	// time it is called).
	for d, rest := p, ""; d != filepath.Dir(d); d, rest = filepath.Dir(d), filepath.Join(filepath.Base(d), rest) {
		if _, err := os.Lstat(d); err != nil {
			continue
		}
		if r, err := filepath.EvalSymlinks(d); err == nil {
			return filepath.Join(r, rest)
		}
	}
	return p
}

// own says what of flowd's p is, or "".
func (g Guard) own(p string) string {
	for _, d := range g.Dirs {
		if p == d || strings.HasPrefix(p, strings.TrimRight(d, `/\`)+string(filepath.Separator)) {
			return "flowd's config or data"
		}
	}
	if slices.Contains(g.Files, p) {
		return "flowd's own file"
	}
	return usualPlace(p)
}

// usualPlace recognises flowd's files where flowd keeps them by default,
// whatever this flowd's environment says: the agent's may differ.
func usualPlace(p string) string {
	l := strings.ToLower(filepath.ToSlash(p))
	segs := strings.Split(l, "/")
	for i, s := range segs {
		if i == 0 || s != "flowd" {
			continue
		}
		switch segs[i-1] {
		case ".config", "state", "application support", "caches", "roaming", "local", "run", "etc", "lib", "log":
			return "flowd's config or data"
		}
		if strings.HasPrefix(segs[i-1], "flowd-") || i >= 2 && segs[i-2] == "appdata" {
			return "flowd's config or data"
		}
	}
	for i := 3; i < len(segs); i++ {
		if segs[i] == "flowd" && segs[i-3] == "run" && segs[i-2] == "user" {
			return "flowd's socket directory" // /run/user/$UID/flowd
		}
	}
	if i := slices.IndexFunc(segs, func(s string) bool { return strings.HasPrefix(s, "flowd-") }); i == 2 && segs[1] == "tmp" {
		return "flowd's socket directory"
	}
	base := segs[len(segs)-1]
	if strings.Contains(base, "flowd") && (strings.Contains(l, "/systemd/") || strings.Contains(l, "/launchagents/") ||
		strings.Contains(l, "/launchdaemons/")) {
		return "flowd's service definition"
	}
	return ""
}

func (g Guard) clientConfig(p string) bool {
	if slices.Contains(g.ClientConfigs, p) {
		return true
	}
	l := strings.ToLower(filepath.ToSlash(p))
	switch filepath.Base(l) {
	case ".claude.json", "claude_desktop_config.json", ".mcp.json", "mcp_config.json":
		return true
	}
	return strings.HasSuffix(l, "/.cursor/mcp.json") || strings.HasSuffix(l, "/.vscode/mcp.json") ||
		strings.HasSuffix(l, "/.gemini/settings.json")
}

// command says why running line would switch flowd off or read its
// secrets, as a whole denial, or "".
func (g Guard) command(line, dir string) string { return g.commandAt(line, dir, 0) }

// maxNesting bounds how deep command lines given as arguments to other
// commands (tmux new 'x', script -c 'x') are read.
const maxNesting = 3

func (g Guard) commandAt(line, dir string, depth int) string {
	l := shellnorm.Parse(line)
	for i, c := range l.Commands {
		for _, r := range c.Redirects {
			if target, ok := written(r); ok {
				if why := g.shellWrite(target, dir); why != "" {
					return deny("writing to " + target + why)
				}
			}
		}
		words := c.Run()
		if len(words) == 0 {
			continue
		}
		if p := controlPath(append(slices.Clone(words), printfOutput(words))...); p != "" && depth == 0 && mayCall(l, i, words) {
			return deny(words[0] + " calling flowd's API " + p + " (what it does is for the user alone, at a terminal)")
		}
		if v := redirectsFlowd(c.Env); v != "" {
			return deny(v + " (it points flowd's clients, hooks and shims at another flowd, or none)")
		}
		// cd ~ && rm -rf .local/state/flowd: later paths are read from there.
		if words[0] == "cd" && len(words) == 2 {
			dir = g.resolve(words[1], dir)
			continue
		}
		if why := g.simple(l, i, words, dir); why != "" {
			return deny(why)
		}
		if why := g.commandReads(l, i, words, dir); why != "" {
			return secretDeny(why)
		}
		if why := g.runsOther(words, dir, depth); why != "" {
			return why
		}
	}
	return ""
}

// controlPaths are flowd's API routes that release, approve, set the
// approval passphrase or apply a held config: for the user alone.
var controlPaths = regexp.MustCompile(`/api/v1/(?:passphrase|pins/approve|config/apply|quarantine/[^/\s]*/release)`)

// controlPath returns the route of flowd's human-only API that one of
// texts names, percent escapes undone, slashes collapsed and parts
// known only at run time dropped, or "".
func controlPath(texts ...string) string {
	for _, t := range texts {
		if !strings.Contains(t, "api") && !strings.Contains(t, "%") {
			continue
		}
		for _, v := range withoutUnknowns(t) {
			if u, err := url.PathUnescape(v); err == nil {
				v = u
			}
			v = slashes.ReplaceAllString(v, "/")
			if m := controlPaths.FindString(v); m != "" {
				return m
			}
		}
	}
	return ""
}

var slashes = regexp.MustCompile(`/{2,}`)

// withoutUnknowns returns t and t with each part only known at run time
// ($(…), and a variable the line did not set, as shellnorm leaves it)
// dropped: an unset variable expands to nothing. Where such a name ends
// is lost ($x followed by letters reads as one name), so every end is
// tried; words are short, and only words holding "api" come here.
func withoutUnknowns(t string) []string {
	out := []string{t, strings.ReplaceAll(t, shellnorm.Unknown, "")}
	if len(t) > 1024 {
		return out
	}
	for i := strings.IndexByte(t, '$'); i >= 0 && i+1 < len(t); {
		for j := i + 2; j <= len(t) && (isWordByte(t[j-1]) || t[j-1] == '{' || t[j-1] == '}'); j++ {
			out = append(out, t[:i]+t[j:])
		}
		next := strings.IndexByte(t[i+1:], '$')
		if next < 0 {
			break
		}
		i += next + 1
	}
	return out
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// mayCall reports whether the command l.Commands[i] (words, its
// wrappers dropped) may send what it names to flowd: a command that only
// searches, shows or records text (grep, cat, git commit -m) does not,
// nor does echo or printf unless a pipe feeds what it prints to another
// command.
func mayCall(l shellnorm.Line, i int, words []string) bool {
	name := base(words[0])
	switch {
	case name == "echo" || name == "printf":
		return slices.ContainsFunc(l.Commands, func(c shellnorm.Command) bool { return c.PipedFrom == i })
	case name == "git" || slices.Contains(textCommands, name) || slices.Contains(readers, name) && name != "flowd":
		return false
	}
	return true
}

// printfOutput is what printf FORMAT ARGS… prints, its %s filled in
// order (enough to read a path split across format and arguments), or "".
func printfOutput(words []string) string {
	if len(words) < 2 || base(words[0]) != "printf" {
		return ""
	}
	args := words[1:]
	if args[0] == "-v" && len(args) > 2 {
		args = args[2:]
	}
	out := args[0]
	for _, a := range args[1:] {
		out = strings.Replace(out, "%s", a, 1)
	}
	return out
}

// redirectsFlowd returns the one of env (NAME=value set for a command,
// or exported by it) that tells flowd's clients where flowd is.
func redirectsFlowd(env []string) string {
	for _, w := range env {
		switch n, _, _ := strings.Cut(w, "="); n {
		case paths.EnvSocket, paths.EnvConfig, paths.EnvDataDir:
			return w
		}
	}
	return ""
}

// textCommands print, search or store their arguments as text, never run
// them: a commit message that quotes a command is no command.
var textCommands = []string{"echo", "printf", "grep", "egrep", "fgrep", "rg", "ag", "ack", "jq", "yq", "gh", "man",
	"cat", "less", "head", "tail", "wc", "sort", "diff", "go", "test", "[", "true", "false"}

// runsOther says why, as a whole denial, a command that runs another one
// it is given (a wrapper the shell reading does not drop: systemd-run,
// tmux, screen, script -c, strace, chrt, taskset, flock, watch,
// parallel…) would switch flowd off: flowd named as a word with one of
// its verbs after it, or a command line given as one argument.
func (g Guard) runsOther(words []string, dir string, depth int) string {
	name := base(words[0])
	if slices.Contains(textCommands, name) {
		return ""
	}
	if why := g.touches(name, words[1:], dir); why != "" {
		return deny(why)
	}
	for j := 1; j < len(words); j++ {
		if w := words[j]; base(w) == "flowd" && flowdVerb(words[j+1:]) != "" {
			return deny(name + " running flowd " + flowdVerb(words[j+1:]))
		}
		if w := words[j]; depth < maxNesting && strings.ContainsAny(w, " \t\n;|&") {
			if why := g.commandAt(w, dir, depth+1); why != "" {
				return name + " running " + why
			}
		}
	}
	return ""
}

// readers only read the files they are given.
var readers = []string{"cat", "less", "more", "head", "tail", "grep", "egrep", "fgrep", "rg", "ls", "stat", "file", "wc", "diff",
	"cmp", "md5sum", "sha1sum", "sha256sum", "du", "tree", "bat", "jq", "yq", "realpath", "readlink", "test", "[", "cp", "rsync",
	"scp", "install", "ln", "flowd", "journalctl", "systemctl", "launchctl", "strings", "od", "xxd", "hexdump", "base64", "nl"}

// touches says why a command flowd does not know as a reader is refused
// when it names one of flowd's files, or a file that holds flowd's hooks
// or wraps servers in its shim, as an operand or an option's value (curl
// -o, wget -O, tar --directory=, patch, ex, sqlite3, awk -i inplace…):
// whatever it does to them, flowd cannot tell it only reads. The known
// writers (cp, mv, tee, sed -i…) are read more closely by changed, and
// interpreters by codeWrites.
func (g Guard) touches(name string, args []string, dir string) string {
	if slices.Contains(readers, name) || slices.Contains(textCommands, name) || interpreters.MatchString(name) {
		return ""
	}
	for _, a := range args {
		for _, v := range []string{a, afterEquals(a), shortValue(a)} {
			if v == "" || !strings.ContainsAny(v, "/~.") {
				continue
			}
			abs := g.resolve(v, dir)
			what := g.own(abs)
			if hf := hookFileOf(abs); what == "" && hf != nil {
				what = hf.what
			}
			if what == "" && g.clientConfig(abs) {
				what = "an MCP client's config"
			}
			if what != "" {
				return name + " " + v + " (" + what + ")"
			}
		}
	}
	for _, a := range args {
		if n, err := strconv.Atoi(strings.TrimPrefix(afterEquals(a)+a, "--pid")); err == nil && slices.Contains(g.PIDs, n) {
			return name + " " + strings.Join(args, " ") + " (flowd's process)"
		}
	}
	return ""
}

func afterEquals(a string) string {
	if i := strings.IndexByte(a, '='); i > 0 && strings.HasPrefix(a, "-") {
		return a[i+1:]
	}
	return ""
}

// shortValue is the value glued to a short option: -o/path.
func shortValue(a string) string {
	if len(a) > 2 && a[0] == '-' && a[1] != '-' {
		return a[2:]
	}
	return ""
}

// flowdValueFlags are flowd's options that take a value.
var flowdValueFlags = []string{"--config", "-config", "--socket", "-socket", "--data-dir", "-data-dir"}

// flowdVerb returns the command flowd's arguments ask for when it
// switches flowd off (stop, config apply…), or "".
func flowdVerb(args []string) string {
	var ops []string
	for k := 0; k < len(args); k++ {
		a := args[k]
		switch {
		case slices.Contains(flowdValueFlags, a):
			k++ // its value
		case !strings.HasPrefix(a, "-"):
			ops = append(ops, a)
		}
	}
	switch {
	case len(ops) > 0 && slices.Contains(flowdVerbs, ops[0]):
		return ops[0]
	case len(ops) > 1 && ops[0] == "config" && ops[1] == "apply":
		return "config apply"
	}
	return ""
}

// flowdCgroup says what p is when it is a control file of the cgroup
// flowd's service runs in: the user's own to write where systemd
// delegates it, and one line there freezes flowd as SIGSTOP does
// (cgroup.freeze), kills it (cgroup.kill) or starves it (cpu.max,
// pids.max, memory.max; found by a red team, RT8-8).
func flowdCgroup(p string) string {
	if !strings.HasPrefix(p, "/sys/fs/cgroup/") || !strings.Contains(strings.ToLower(p), "flowd") {
		return ""
	}
	return "a control file of flowd's cgroup, which can freeze, kill or starve it"
}

// written returns the file a redirection writes to.
func written(r string) (string, bool) {
	for _, op := range []string{"&>>", "&>", ">>", ">|", ">"} {
		if t, ok := strings.CutPrefix(r, op); ok {
			t = strings.TrimSpace(t)
			return t, t != "" && !strings.HasPrefix(t, "&") && t != "/dev/null"
		}
	}
	return "", false
}

// shellWrite says why a shell command changing p is refused: any change
// by the shell to flowd's files, the agent's settings or a client's
// config, whose result flowd cannot see.
func (g Guard) shellWrite(p, dir string) string {
	abs := g.resolve(p, dir)
	if what := g.own(abs); what != "" {
		return " (" + what + ")"
	}
	if what := flowdCgroup(abs); what != "" {
		return " (" + what + ")"
	}
	if hf := hookFileOf(abs); hf != nil {
		return " (" + hf.what + ")"
	}
	if g.clientConfig(abs) {
		return " (an MCP client's config, where flowd's shim wraps servers)"
	}
	return ""
}

var (
	flowdVerbs     = []string{"stop", "restart", "uninstall", "install", "passphrase"}
	systemctlVerbs = []string{"stop", "disable", "mask", "kill", "restart", "edit", "try-restart", "reload-or-restart",
		"revert", "set-property", "freeze", "link", "isolate", "exit", "set-environment", "import-environment"}
	launchctlVerbs = []string{"unload", "bootout", "remove", "disable", "kill", "stop", "setenv"}
	interpreters   = regexp.MustCompile(`^(python[0-9.]*|node|nodejs|deno|bun|perl|ruby|php|osascript|lua|awk|gawk|mawk|nawk|tclsh|Rscript|emacs|emacsclient)$`)
	// runsProgram is code that starts a program.
	runsProgram = regexp.MustCompile(`system|exec|spawn|popen|subprocess|child_process|shell_exec|passthru|proc_open|qx|` + "`" + `|runtime\.getruntime|command\(|call-process|start-process|make-process|shell-command`)
	killers     = []string{"kill", "pkill", "killall", "skill", "snice", "tkill"}
	// pidTakers act on a running process given its pid, as a signal does:
	// a debugger or tracer attached stops it (ptrace), a lowered limit,
	// priority or CPU set starves it (found by a red team, RT8-8).
	pidTakers = []string{"gdb", "lldb", "strace", "ltrace", "perf", "gcore", "pstack", "eu-stack", "criu", "prlimit",
		"renice", "taskset", "ionice", "chrt", "cpulimit", "cgclassify", "schedtool", "reptyr", "sysdig"}
	// openToWrite is a call that opens a file for writing.
	openToWrite = regexp.MustCompile(`open\([^)]*,\s*(?:mode\s*=\s*)?['"][^'"]*[wax+]`)
)

// simple says why the simple command l.Commands[i], words with its
// wrappers dropped, is refused.
func (g Guard) simple(l shellnorm.Line, i int, words []string, dir string) string {
	name, args := base(words[0]), words[1:]
	ops := operands(args)
	switch {
	case name == "flowd":
		if verb := flowdVerb(args); verb != "" {
			return "flowd " + verb
		}
		if ops := operands(args); len(ops) > 0 && strings.Contains(ops[0], "$") {
			// f() { flowd "$@"; }; f stop: what it is told to do is only
			// known at run time.
			return "flowd " + ops[0] + " (its command only known at run time)"
		}
	case (name == "busctl" || name == "dbus-send" || name == "gdbus" || name == "qdbus") &&
		slices.ContainsFunc(args, func(a string) bool { return strings.Contains(strings.ToLower(a), "systemd1") }) &&
		slices.ContainsFunc(args, unitOfFlowd):
		// A call to systemd's manager that names flowd's unit (StopUnit,
		// KillUnit, MaskUnitFiles…): systemctl by another name.
		return name + " " + strings.Join(args, " ")
	case name == "fuser" && slices.ContainsFunc(args, func(a string) bool {
		return strings.HasPrefix(a, "-") && strings.Contains(a, "k") && !strings.HasPrefix(a, "--")
	}):
		// fuser -k FILE signals whoever holds FILE open: flowd, for its
		// socket or stores.
		for _, o := range ops {
			if abs := g.resolve(o, dir); g.own(abs) != "" {
				return "fuser -k " + o + " (it signals flowd, which holds it open)"
			}
		}
	case name == "loginctl" && len(ops) > 0 && slices.Contains([]string{"kill-user", "terminate-user", "kill-session", "terminate-session", "terminate-seat"}, ops[0]):
		return "loginctl " + ops[0] + " (it ends every process of the login, flowd's too)"
	case name == "systemctl" && slices.Contains(args, "--user") && len(ops) > 0 &&
		slices.Contains([]string{"exit", "isolate", "halt", "poweroff", "reboot", "kexec", "default", "rescue", "emergency"}, ops[0]):
		return "systemctl --user " + ops[0] + " (it stops the user's services, flowd's too)"
	case (name == "claude" || name == "gemini" || name == "codex" || name == "cursor-agent") && len(ops) > 1 && ops[0] == "mcp" &&
		strings.HasPrefix(ops[1], "add") && !slices.ContainsFunc(args, mentions):
		// The client's own command for what a write of its MCP config
		// does (found by a red team, RT7-19): a server added outside
		// flowd's shim runs unseen.
		return name + " mcp " + ops[1] + " (a server outside flowd's shim; add it as shim -- COMMAND, or wrap it after: shim wrap)"
	case name == "hook" && len(ops) > 0 && ops[0] == "uninstall":
		return "hook uninstall"
	case name == "shim" && len(ops) > 0 && ops[0] == "unwrap":
		return "shim unwrap"
	case name == "systemctl" || name == "service" || name == "launchctl" || name == "rc-service" || name == "sv":
		verbs := systemctlVerbs
		if name == "launchctl" {
			verbs = launchctlVerbs
		}
		if slices.ContainsFunc(ops, func(o string) bool { return slices.Contains(verbs, o) }) &&
			slices.ContainsFunc(args, unitOfFlowd) {
			return name + " " + strings.Join(args, " ")
		}
	case name == "killall5":
		return "killall5 (it signals every process, flowd's too)"
	case slices.Contains(killers, name) || slices.Contains(pidTakers, name):
		if why := g.signals(l, i, name, args); why != "" {
			return why
		}
	case interpreters.MatchString(name):
		code := strings.ToLower(strings.Join(args, " "))
		// "flo"+"wd" is flowd to the program.
		joined := strings.NewReplacer(`"`, "", "'", "", "+", "", " ", "", ".", "", ",", "").Replace(code)
		// Text the code decodes (base64, hex, character codes, reversed)
		// names flowd as plainly to the program.
		joined += strings.ToLower(strings.Join(decodedLiterals(strings.Join(args, " ")), ""))
		if strings.Contains(joined, "flowd") && (strings.Contains(code, "kill") || strings.Contains(code, "signal")) {
			return name + " code that signals flowd"
		}
		if strings.Contains(code, "/proc") && (strings.Contains(code, "kill") || strings.Contains(code, "signal")) {
			// A process picked by what /proc says of it (a piece of its
			// command line: found by a red team, RT7-22) may be flowd.
			return name + " code that signals processes it picks from /proc (flowd's maybe)"
		}
		if strings.Contains(joined, "flowd") && runsProgram.MatchString(code) {
			return name + " code that runs flowd"
		}
		if p := controlPath(append(decodedLiterals(strings.Join(args, " ")), joined)...); p != "" {
			return name + " code that calls flowd's API " + p
		}
		if why := g.codeWrites(code, args, dir); why != "" {
			return why
		}
	}
	if targets := changed(name, args); len(targets) > 0 {
		for _, t := range targets {
			if why := g.shellWrite(t, dir); why != "" {
				return name + " " + t + why
			}
		}
	}
	for _, t := range removed(name, args) {
		if what := g.keeps(g.resolve(t, dir)); what != "" {
			return name + " " + t + " (a directory that holds " + what + ")"
		}
	}
	return ""
}

// removed returns the files a command deletes, moves away or takes the
// owner's access to: a directory among them takes what it holds along.
func removed(name string, args []string) []string {
	ops := operands(args)
	switch name {
	case "rm", "rmdir", "shred", "srm", "wipe", "trash", "gio", "chmod", "chown", "chgrp", "chattr", "setfacl":
		return ops
	case "mv":
		if len(ops) > 1 {
			return ops[:len(ops)-1]
		}
	case "find":
		// -exec runs anything, often a reader (gofmt -l {}): only -delete
		// surely removes.
		if slices.Contains(args, "-delete") {
			return changed(name, args)
		}
	}
	return nil
}

// signals says why a command that sends signals is refused: it names
// flowd, its shim or its hook, one of flowd's processes, a pid found by
// a command that looks flowd up, or every process of the user.
func (g Guard) signals(l shellnorm.Line, i int, name string, args []string) string {
	c := l.Commands[i]
	for _, a := range args {
		if mentions(a) {
			return name + " " + a
		}
		if n, err := strconv.Atoi(a); err == nil && slices.Contains(g.PIDs, n) {
			return name + " " + a + " (flowd's process)"
		}
	}
	for _, ix := range c.Substituted {
		for _, j := range ix {
			if j >= 0 && j < len(l.Commands) && findsFlowd(l.Commands[j].Run()) {
				return name + " of a process found by " + strings.Join(l.Commands[j].Words, " ")
			}
		}
	}
	// ps | grep | awk | xargs kill: any command up the pipe may pick flowd.
	for p, n := c.PipedFrom, 0; p >= 0 && p < len(l.Commands) && n < 16; p, n = l.Commands[p].PipedFrom, n+1 {
		if findsFlowd(l.Commands[p].Run()) {
			return name + " of a process found by " + strings.Join(l.Commands[p].Words, " ")
		}
	}
	if slices.ContainsFunc(args, func(a string) bool { return strings.Contains(a, "$") }) {
		// kill $p, the pid set elsewhere on the line (for p in $(pgrep …),
		// p=$(…)): a command of the line that looks flowd up picked it.
		for _, other := range l.Commands {
			if findsFlowd(other.Run()) {
				return name + " of a process found by " + strings.Join(other.Words, " ")
			}
		}
	}
	if slices.ContainsFunc(args, func(a string) bool { return strings.Contains(a, "$") }) &&
		slices.ContainsFunc(l.Commands, func(o shellnorm.Command) bool {
			return slices.ContainsFunc(o.Words, func(w string) bool { return strings.Contains(w, "/proc/") })
		}) {
		// for p in /proc/[0-9]*; do grep … $p/cmdline && kill ${p#/proc/}:
		// a pid picked by what /proc says of the process, a piece of its
		// command line as good as its name (found by a red team, RT7-22).
		return name + " of a process picked from /proc (flowd's maybe)"
	}
	if name == "pkill" && anyProcess(name, args) {
		return "pkill " + strings.Join(args, " ") + " (every process of a user, group or parent, flowd's maybe)"
	}
	switch name {
	case "kill":
		// kill -9 -1, kill -- -1: every process the user may signal.
		for j, a := range args {
			if a == "-1" && j > 0 || a == "0" {
				return "kill " + strings.Join(args, " ") + " (every process of yours, flowd's too)"
			}
		}
	case "pkill", "killall", "skill", "snice":
		for j, a := range args {
			if a == "-u" || a == "-U" || a == "--user" || strings.HasPrefix(a, "--user=") || a == "-e" && name == "killall" && j == len(args)-1 {
				return name + " " + strings.Join(args, " ") + " (every process of a user, flowd's too)"
			}
		}
		// A pattern is a regular expression: one that matches flowd's
		// name or command line counts as naming it.
		for _, o := range pgrepPatterns(args) {
			if re, err := regexp.Compile(o); err == nil && (re.MatchString("flowd") || re.MatchString("/usr/local/bin/flowd run")) {
				return name + " " + o + " (it matches flowd)"
			}
		}
	}
	return ""
}

// findsFlowd reports whether a command picks flowd's process: a word of
// it names flowd, or, for a command that looks processes up or filters
// their list (pgrep, ps | grep, awk), one of its operands is a pattern
// (or holds one between slashes, as awk's /re/) that matches flowd's
// name or command line.
func findsFlowd(words []string) bool {
	if slices.ContainsFunc(words, mentions) {
		return true
	}
	if len(words) == 0 || !slices.Contains(finders, base(words[0])) {
		return false
	}
	if anyProcess(base(words[0]), words[1:]) {
		return true
	}
	return slices.ContainsFunc(operands(words[1:]), matchesFlowd)
}

// pgrepPatterns are the patterns of a pgrep, pkill or killall command:
// its operands, the values of its options left out (-P $$ is no
// pattern).
func pgrepPatterns(args []string) []string {
	var out []string
	for k := 0; k < len(args); k++ {
		switch a := args[k]; {
		case slices.Contains([]string{"-u", "-U", "-P", "-g", "-G", "-s", "-t", "--euid", "--uid", "--parent", "--pgroup",
			"--session", "-d", "--delimiter", "-F", "--pidfile", "--signal", "--ns", "--nslist", "-o", "-y", "--older-than", "--younger-than"}, a):
			k++
		case !strings.HasPrefix(a, "-"):
			out = append(out, a)
		}
	}
	return out
}

// anyProcess reports whether a finder picks processes without naming a
// program: pgrep by user, group, session or parent alone (pgrep -n -u
// $USER: the newest process of the user, which may be flowd), lsof of
// every Unix or network socket (flowd holds one).
func anyProcess(name string, args []string) bool {
	switch name {
	case "pgrep", "pkill":
		selects := false
		for k, a := range args {
			if slices.Contains([]string{"-u", "-U", "-P", "-g", "-G", "-s", "--euid", "--uid", "--parent", "--pgroup", "--session"}, a) &&
				// -P $$: the shell's own children, never flowd.
				!(k+1 < len(args) && (args[k+1] == "$$" || args[k+1] == "$BASHPID")) {
				selects = true
			}
		}
		return selects && len(pgrepPatterns(args)) == 0
	case "lsof":
		return slices.Contains(args, "-t") && !slices.ContainsFunc(args, func(a string) bool { return !strings.HasPrefix(a, "-") })
	}
	return false
}

// flowdCommandLines are how flowd's process shows in ps and pgrep -f.
var flowdCommandLines = []string{"flowd", "flowd run", "/usr/local/bin/flowd run"}

// finders look processes up, or filter the list of them.
var finders = []string{"pgrep", "pidof", "ps", "grep", "egrep", "fgrep", "rg", "awk", "gawk", "mawk", "sed", "lsof", "pstree", "fuser"}

// matchesFlowd reports whether w, read as a regular expression (or the
// /re/ inside it), matches flowd's name or command line. One that
// matches anything (".", ".*") picks every process, flowd's too.
func matchesFlowd(w string) bool {
	if !strings.ContainsAny(w, `.*?[]\^$+|(`) {
		return false
	}
	candidates := []string{w}
	if parts := strings.Split(w, "/"); len(parts) > 2 {
		candidates = append(candidates, parts[1:len(parts)-1]...)
	}
	for _, p := range candidates {
		if re, err := regexp.Compile(p); err == nil && slices.ContainsFunc(flowdCommandLines, re.MatchString) {
			// A pattern that matches anything (".", ".*") picks every
			// process, flowd's too.
			return true
		}
	}
	return false
}

// mentions reports whether a word names flowd, its shim or its hook.
func mentions(w string) bool {
	l := strings.ToLower(w)
	if strings.Contains(l, "flowd") {
		return true
	}
	b := base(l)
	return b == "shim" || b == "hook" || b == "shim.exe" || b == "hook.exe"
}

// unitOfFlowd reports whether a word names flowd's service unit or
// launchd agent, or is a pattern that matches it.
func unitOfFlowd(w string) bool {
	l := strings.ToLower(w)
	if strings.Contains(l, "flowd") {
		return true
	}
	if strings.ContainsAny(l, "*?[") {
		for _, u := range []string{"flowd.service", "flowd.socket", "flowd"} {
			if ok, _ := filepath.Match(l, u); ok {
				return true
			}
		}
	}
	return false
}

// operands are the words that are not options.
func operands(args []string) []string {
	var out []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			out = append(out, a)
		}
	}
	return out
}

func base(w string) string {
	w = strings.TrimSuffix(w, ".exe")
	if i := strings.LastIndexAny(w, `/\`); i >= 0 {
		return w[i+1:]
	}
	return w
}

// changed returns the files a command changes: every operand of one that
// removes, moves or alters files; the destination of one that copies or
// links; the files of an in-place edit.
func changed(name string, args []string) []string {
	ops := operands(args)
	switch name {
	case "rm", "rmdir", "unlink", "shred", "truncate", "touch", "chmod", "chown", "chgrp", "chattr", "setfacl", "mv",
		"tee", "srm", "wipe", "trash", "gio", "mkfifo":
		return ops
	case "cp", "install", "ln", "rsync", "scp", "link", "ditto":
		for j, a := range args {
			if (a == "-t" || a == "--target-directory") && j+1 < len(args) {
				return []string{args[j+1]}
			}
			if t, ok := strings.CutPrefix(a, "--target-directory="); ok {
				return []string{t}
			}
		}
		if len(ops) > 0 {
			return ops[len(ops)-1:]
		}
	case "sed", "perl", "ruby", "gsed":
		if slices.ContainsFunc(args, func(a string) bool {
			return a == "-i" || strings.HasPrefix(a, "-i") || strings.HasPrefix(a, "--in-place") || a == "-pi" || strings.Contains(a, "i") && strings.HasPrefix(a, "-p")
		}) {
			return ops
		}
	case "awk", "gawk":
		if slices.ContainsFunc(args, func(a string) bool { return strings.HasSuffix(a, "inplace") }) && len(ops) > 1 {
			return ops[1:] // the program, then the files it rewrites
		}
	case "dd":
		for _, a := range args {
			if t, ok := strings.CutPrefix(a, "of="); ok {
				return []string{t}
			}
		}
	case "find":
		if slices.ContainsFunc(args, func(a string) bool { return a == "-delete" || strings.HasPrefix(a, "-exec") || a == "-ok" }) {
			var roots []string
			for _, a := range args {
				if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
					break
				}
				roots = append(roots, a)
			}
			return roots
		}
	case "tar", "unzip", "bsdtar":
		for j, a := range args {
			if (a == "-C" || a == "-d" || a == "--directory") && j+1 < len(args) {
				return []string{args[j+1]}
			}
		}
	}
	return nil
}

// pathWord finds the path-like words of program text.
var pathWord = regexp.MustCompile(`(?:~|\$HOME|\$\{HOME\}|/)[^\s'"()\],;]+|\.claude[^\s'"()\],;]*|\.mcp\.json`)

// codeWrites says why a program's code that names one of the guarded
// files, and writes, moves or removes files, is refused.
func (g Guard) codeWrites(code string, args []string, dir string) string {
	if !strings.ContainsAny(code, "/~.") {
		return ""
	}
	writes := openToWrite.MatchString(code)
	for _, w := range []string{"write", "unlink", "remove", "rmtree", "rename", "replace", "copy", "symlink",
		"truncate", "chmod", "rm ", "mv ", "cp ", "appendfile", "writefile", "system(", "exec", "spawn", "popen"} {
		writes = writes || strings.Contains(code, w)
	}
	if !writes {
		return ""
	}
	for _, p := range pathWord.FindAllString(strings.Join(args, " "), 64) {
		if why := g.shellWrite(p, dir); why != "" {
			return "program code that changes " + p + why
		}
	}
	return ""
}

// decodedLiterals returns what the literals of program code decode to,
// where they are encoded: base64 and hex strings, lists of character
// codes ([102,108,…], chr(102)), and every string reversed. A program
// that builds a command from them runs it as plainly as if it were
// written out.
func decodedLiterals(code string) []string {
	var out []string
	for _, m := range codeLiteral.FindAllString(code, 64) {
		lit := strings.Trim(m, `"'`)
		if strings.Contains(lit, `\`) {
			out = append(out, shellnorm.DecodeEscapes(lit))
		}
		rs := []rune(lit)
		slices.Reverse(rs)
		out = append(out, string(rs))
		if b, err := base64.StdEncoding.DecodeString(lit); err == nil {
			out = append(out, string(b))
		} else if b, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(lit, "=")); err == nil {
			out = append(out, string(b))
		}
		if b, err := hex.DecodeString(strings.TrimPrefix(lit, "0x")); err == nil {
			out = append(out, string(b))
		}
	}
	// Literals joined: 'POST /api/v1/pass' + 'phrase'.
	var all strings.Builder
	for _, m := range codeLiteral.FindAllString(code, 64) {
		all.WriteString(strings.Trim(m, `"'`))
	}
	out = append(out, all.String())
	var b strings.Builder
	for _, m := range charCode.FindAllString(code, 1024) {
		if n, err := strconv.Atoi(m); err == nil && n >= 32 && n < 127 {
			b.WriteByte(byte(n))
		} else {
			b.WriteByte(' ')
		}
	}
	return append(out, b.String())
}

var (
	codeLiteral = regexp.MustCompile(`"[^"]{2,}"|'[^']{2,}'`)
	// charCode is a number written as a character's code: in a list or a
	// call (chr(102), String.fromCharCode(102, 108)).
	charCode = regexp.MustCompile(`\b[0-9]{2,3}\b`)
)
