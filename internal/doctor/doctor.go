// Package doctor checks a flowd installation and says, for each problem,
// the command that fixes it. Gathering facts (Gather) does the I/O;
// judging them (Judge) is pure.
package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/flowd-dev/flowd/internal/boltfile"
	"github.com/flowd-dev/flowd/internal/claudecode"
	"github.com/flowd-dev/flowd/internal/clientconfig"
	"github.com/flowd-dev/flowd/internal/codex"
	"github.com/flowd-dev/flowd/internal/cursor"
	"github.com/flowd-dev/flowd/internal/exporter"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/geminicli"
	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/managed"
	"github.com/flowd-dev/flowd/internal/paths"
	"github.com/flowd-dev/flowd/internal/selfguard"
	"github.com/flowd-dev/flowd/internal/unprotected"
)

// Status of a finding.
const (
	OK   = "ok"
	Info = "info"
	Warn = "warn"
	Fail = "fail"
)

// Finding is one line of the report.
type Finding struct {
	Section string `json:"section"`
	Status  string `json:"status"`
	Message string `json:"message"`
	Fix     string `json:"fix,omitempty"`
}

// Facts are what Gather found out.
type Facts struct {
	Socket       string
	Status       *flowdclient.Status // nil: flowd did not answer
	StatusErr    string
	SocketDirErr string // "" when the socket directory is as it should be
	SocketDirFix string // the command that fixes SocketDirErr, when it is not "chmod 700 DIR"
	// SocketShared: the socket is another user's, a system flowd's, whose
	// directory need not be private but must be out of other users' reach.
	SocketShared bool
	// Flowds are this user's flowds that answer, one per socket: more than
	// one splits the user's shims and hooks between them.
	Flowds []Flowd
	// Unprotected are the shims passing messages without flowd's checks;
	// UnprotectedErr says why they could not be listed.
	Unprotected    []unprotected.Shim
	UnprotectedErr string

	ConfigPath    string
	ConfigMissing bool
	ConfigErr     string

	DataDir      string
	DataDirErr   string
	ActivitySize int64
	// DamagedFiles are stores moved aside before (NAME.damaged-TIME),
	// kept for inspection.
	DamagedFiles []string
	// DamagedNow are the stores found damaged by reading them, which
	// doctor does only while flowd does not run (flowd checks them at
	// start, and then holds them).
	DamagedNow []string

	Clients []ClientFile
	Hooks   []HookScope
	// FlowdProgram is the program the flowd that answers runs when it
	// is not this flowd's file (otherProgram); ThisFlowd is this one's.
	FlowdProgram, ThisFlowd string
}

// Flowd is a flowd that answers on a socket of this user's.
type Flowd struct {
	Socket string
	PID    int
}

// ClientFile is an MCP client config found on disk.
type ClientFile struct {
	Client    string
	Path      string
	Project   bool // a project's file, usually committed
	Err       string
	Wrapped   []string
	Unwrapped []string
	// LeftAlone are stdio servers wrap cannot edit, each with the reason
	// ("NAME: reason").
	LeftAlone []string
	// Steers is what a project's file sets that would steer its shims
	// or weaken them (a FLOWD_ variable, a loader or Go runtime variable,
	// a shim's --socket); "" when nothing.
	Steers string
}

// HookScope is one agent's settings file and flowd's hooks in it.
type HookScope struct {
	Agent         string // as `hook install --agent` names it: claude-code, gemini-cli, cursor
	Scope         string
	Path          string
	Installed     bool
	Command       string
	BinaryMissing bool
	Disabled      bool
	// Codex: flowd's hooks the user has not trusted, and those switched
	// off (their trust keys), and why its config could not be read for
	// that. Disabled is features.hooks = false.
	Untrusted, SwitchedOff []string
	ReviewErr              string
}

// Gather collects the facts; dir is the project directory for project
// scoped files (the current directory).
func Gather(socket, configPath, dataDir, dir string) Facts {
	f := Facts{Socket: socket, ConfigPath: configPath, DataDir: dataDir}
	if st, err := flowdclient.NewClient(socket, 2*time.Second).Status(); err == nil {
		f.Status = &st
		if f.FlowdProgram = otherProgram(st.PID); f.FlowdProgram != "" {
			f.ThisFlowd, _ = os.Executable()
		}
	} else {
		f.StatusErr = err.Error()
	}
	// Only an existing directory is checked: flowd creates a missing one
	// itself, and a check must not change anything.
	if _, err := os.Stat(filepath.Dir(socket)); err == nil {
		shared, err := localsock.CheckSocketDir(socket)
		f.SocketShared = shared
		if err != nil {
			f.SocketDirErr, f.SocketDirFix = err.Error(), socketFix(err)
		}
	}
	for _, s := range localsock.UserFlowds() {
		fd := Flowd{Socket: s}
		if st, err := flowdclient.NewClient(s, 2*time.Second).Status(); err == nil {
			fd.PID = st.PID
		}
		f.Flowds = append(f.Flowds, fd)
	}
	unprot, err := unprotected.List(unprotected.Dir())
	if f.Unprotected = unprot; err != nil {
		f.UnprotectedErr = err.Error()
	}
	if _, err := managed.Load(configPath, true); errors.Is(err, fs.ErrNotExist) {
		f.ConfigMissing = true
	} else if err != nil {
		f.ConfigErr = err.Error()
	}
	f.DataDirErr, f.ActivitySize = checkDataDir(dataDir)
	f.DamagedFiles, _ = filepath.Glob(filepath.Join(dataDir, "*.db.damaged-*"))
	if f.Status == nil {
		for _, s := range Stores {
			if err := boltfile.Inspect(filepath.Join(dataDir, s.File), s.What); err != nil {
				f.DamagedNow = append(f.DamagedNow, err.Error())
			}
		}
	}
	f.Clients = clients(dir)
	f.Hooks = hooks(dir)
	return f
}

// socketFix is the command that fixes a shared socket's problem.
func socketFix(err error) string {
	var te *localsock.TrustError
	var ge *localsock.GroupError
	switch {
	case errors.As(err, &te):
		return te.Fix
	case errors.As(err, &ge):
		group := strconv.Itoa(ge.GID)
		if g, err := user.LookupGroupId(group); err == nil {
			group = g.Name
		}
		return "sudo usermod -aG " + group + " $USER, then log in again"
	}
	return ""
}

// Stores are flowd's files in its data directory.
var Stores = []struct{ File, What string }{
	{paths.ActivityStore, "activity store"}, {paths.QuarantineStore, "quarantine store"}, {paths.PinsStore, "pins store"},
}

func checkDataDir(dir string) (string, int64) {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return "", 0 // flowd creates it on first start
	}
	tmp, err := os.CreateTemp(dir, ".doctor-*")
	if err != nil {
		return err.Error(), 0
	}
	tmp.Close()
	os.Remove(tmp.Name())
	fi, err := os.Stat(filepath.Join(dir, paths.ActivityStore))
	if err != nil {
		return "", 0
	}
	return "", fi.Size()
}

// UserClients are the user-wide MCP client configs of the user this
// process runs as (no project's files: a daemon has no project), for a
// running flowd's diagnostics.
func UserClients() []ClientFile { return clients("") }

// clients are the client configs of this user and of the project in
// dir ("": none).
func clients(dir string) []ClientFile {
	env, err := clientconfig.CurrentEnv()
	if err != nil {
		return nil
	}
	env.Dir = dir
	var out []ClientFile
	for _, c := range clientconfig.Clients {
		for _, l := range c.Locations(env) {
			doc, err := os.ReadFile(l.Path)
			if err != nil {
				continue // not installed here
			}
			out = append(out, clientFile(c, l, doc))
		}
	}
	return out
}

// clientFile sorts the servers of one config file by what wrap would do
// with them, which it finds by wrapping in memory.
func clientFile(c clientconfig.Client, l clientconfig.Location, doc []byte) ClientFile {
	cf := ClientFile{Client: string(c), Path: l.Path, Project: l.Project}
	if l.Project {
		cf.Steers = steers(string(doc))
	}
	r, err := l.Format.Wrap(doc, "shim")
	if err != nil {
		cf.Err = err.Error()
	}
	for _, s := range r.Servers {
		name := s.Name
		if s.Project != "" {
			name = s.Project + ": " + s.Name
		}
		switch {
		case s.Action == clientconfig.Wrapped:
			cf.Unwrapped = append(cf.Unwrapped, name)
		case s.Note == "already wrapped":
			cf.Wrapped = append(cf.Wrapped, name)
		case !strings.HasPrefix(s.Note, "remote server") && !strings.HasPrefix(s.Note, "a block from Continue's hub") && s.Note != "no command":
			cf.LeftAlone = append(cf.LeftAlone, name+": "+s.Note)
		}
	}
	return cf
}

// steers is what a project's MCP config sets that would take its
// servers' shims off the user's flowd, or weaken them: the repository's
// writer chose it, and the client passes it to the shim. The shim
// ignores or fails closed on flowd's variables; doctor names the file.
func steers(doc string) string {
	if v := selfguard.SetsEnv([]string{doc}); v != "" {
		return v
	}
	if strings.Contains(doc, "--socket") {
		return "a shim's --socket"
	}
	return ""
}

// SteersMessage is the warning for a project file that steers its shims.
func SteersMessage(c ClientFile) string {
	return fmt.Sprintf("%s (%s), a project's file: it sets %s for its servers, which would move their shims off your flowd or weaken them (the shim ignores what it can, and fails closed otherwise)",
		c.Client, c.Path, c.Steers)
}

func hooks(dir string) []HookScope {
	var out []HookScope
	add := func(agent, scope, path string, inspect func(string) (claudecode.Installation, error)) {
		in, err := inspect(path)
		if err != nil || !in.Exists {
			return
		}
		h := HookScope{Agent: agent, Scope: scope, Path: path, Disabled: in.HooksDisabled}
		for _, e := range in.Entries {
			h.Installed = true
			h.Command = e.Command
			h.BinaryMissing = h.BinaryMissing || !e.BinaryExists
		}
		if agent == codex.Agent && h.Installed {
			// Codex keeps its switches and its trust in its config, not in
			// the hooks file.
			r, err := codex.ReviewFile(path, in.Entries)
			if err != nil {
				h.ReviewErr = err.Error()
			}
			h.Disabled, h.Untrusted, h.SwitchedOff = r.HooksOff, r.Untrusted, r.Disabled
		}
		out = append(out, h)
	}
	for _, scope := range claudecode.Scopes {
		if p, err := claudecode.SettingsPath(scope, dir); err == nil {
			add("claude-code", string(scope), p, claudecode.Inspect)
		}
	}
	for _, scope := range geminicli.Scopes {
		if p, err := geminicli.SettingsPath(scope, dir); err == nil {
			add(geminicli.Agent, scope, p, geminicli.Inspect)
		}
	}
	for _, scope := range cursor.Scopes {
		if p, err := cursor.HooksPath(scope, dir); err == nil {
			add(cursor.Agent, scope, p, cursor.Inspect)
		}
	}
	for _, scope := range codex.Scopes {
		if p, err := codex.HooksPath(scope, dir); err == nil {
			add(codex.Agent, scope, p, codex.Inspect)
		}
	}
	return out
}

// agentTitle is how doctor names an agent in a sentence.
func agentTitle(agent string) string {
	switch agent {
	case geminicli.Agent:
		return "Gemini CLI"
	case cursor.Agent:
		return "Cursor"
	case codex.Agent:
		return "Codex"
	}
	return "Claude Code"
}

// Judge turns facts into findings.
func Judge(f Facts) []Finding {
	var out []Finding
	add := func(section, status, msg, fix string) {
		out = append(out, Finding{Section: section, Status: status, Message: msg, Fix: fix})
	}
	switch {
	case f.Status != nil:
		add("daemon", OK, fmt.Sprintf("flowd %s answers on %s (pid %d, %d shims connected)", f.Status.Version, f.Socket, f.Status.PID, len(f.Status.Shims)), "")
	case f.SocketShared:
		add("daemon", Warn, fmt.Sprintf("the machine's flowd does not answer on %s: %s (systemd starts it, not a shim)", f.Socket, f.StatusErr),
			"sudo systemctl start flowd.socket flowd.service")
	default:
		add("daemon", Warn, fmt.Sprintf("flowd does not answer on %s: %s (a shim starts it on demand)", f.Socket, f.StatusErr), "flowd run")
	}
	if f.Status != nil && f.FlowdProgram != "" {
		add("daemon", Warn, fmt.Sprintf("the flowd on %s (pid %d) runs %s, not this flowd (%s): shims and hooks installed beside this one start and trust only it, and refuse that one as not flowd",
			f.Socket, f.Status.PID, f.FlowdProgram, f.ThisFlowd), "flowd restart (if you did not start that program, find out what did)")
	}
	if len(f.Flowds) > 1 {
		var where, kill []string
		for _, fd := range f.Flowds[1:] {
			where = append(where, fmt.Sprintf("%s (pid %d)", fd.Socket, fd.PID))
			kill = append(kill, strconv.Itoa(fd.PID))
		}
		add("daemon", Fail, fmt.Sprintf("more than one flowd runs for you: %s besides %s; your shims and hooks may be split between them, and each sees only part of a session",
			strings.Join(where, ", "), f.Flowds[0].Socket), "kill "+strings.Join(kill, " ")+", then restart your MCP clients")
	}
	if f.UnprotectedErr != "" {
		add("daemon", Warn, "cannot tell which shims pass messages unchecked: "+f.UnprotectedErr, "rm -rf "+unprotected.Dir()+" (shims that run unprotected make it again)")
	}
	for _, u := range f.Unprotected {
		add("daemon", Fail, fmt.Sprintf("shim %q (pid %d) passes messages unchecked since %s: %s (it looked for flowd on %s)",
			u.Server, u.PID, u.Since.Local().Format(time.Stamp), u.Reason, u.Socket), "flowd start, then restart the MCP client that runs "+u.Server)
	}
	if f.SocketDirErr != "" {
		fix := f.SocketDirFix
		if fix == "" {
			fix = "chmod 700 " + filepath.Dir(f.Socket)
		}
		add("daemon", Fail, f.SocketDirErr, fix)
	}
	switch {
	case f.ConfigErr != "":
		add("config", Fail, f.ConfigErr, "flowd config check "+f.ConfigPath)
	case f.ConfigMissing:
		add("config", Info, "no config file at "+f.ConfigPath+": built-in defaults apply", "flowd config default > "+f.ConfigPath)
	default:
		add("config", OK, f.ConfigPath+" is valid", "")
	}
	if f.DataDirErr != "" {
		add("data", Fail, "data dir "+f.DataDir+" is not writable: "+f.DataDirErr, "mkdir -p -m 700 "+f.DataDir)
	} else {
		add("data", OK, fmt.Sprintf("data dir %s is writable; activity store %s", f.DataDir, size(f.ActivitySize)), "")
	}
	out = append(out, stores(f)...)
	if len(f.Clients) == 0 {
		add("clients", Info, "no MCP client config found (looked for "+clientconfig.Names()+")", "")
	}
	for _, c := range f.Clients {
		out = append(out, judgeClient(c)...)
	}
	out = append(out, coverage(f)...)
	return out
}

// judgeClient is what doctor says of one client config file: each
// server wrapped, not yet wrapped, or one wrap cannot edit, and the
// command that fixes it.
func judgeClient(c ClientFile) []Finding {
	var out []Finding
	add := func(status, msg, fix string) {
		out = append(out, Finding{Section: "clients", Status: status, Message: msg, Fix: fix})
	}
	where := fmt.Sprintf("%s (%s)", c.Client, c.Path)
	wrap := clientconfig.WrapCommand(clientconfig.Client(c.Client), c.Path)
	if c.Project {
		// The shim's path written there is this user's.
		wrap += " (a project file, usually committed: the shim path it gets is yours)"
	}
	if c.Steers != "" {
		add(Warn, SteersMessage(c), "remove it from the file, or do not run the agent in this project")
	}
	switch {
	case c.Err != "":
		add(Fail, fmt.Sprintf("%s: %s", where, c.Err), "correct the file where the message says, then "+wrap)
	case len(c.Unwrapped) > 0:
		add(Warn, fmt.Sprintf("%s: not wrapped, flowd cannot see them: %s", where, strings.Join(c.Unwrapped, ", ")), wrap)
	case len(c.Wrapped) > 0 && len(c.LeftAlone) > 0:
		add(OK, fmt.Sprintf("%s: wrapped: %s", where, strings.Join(c.Wrapped, ", ")), "")
	case len(c.Wrapped) > 0:
		add(OK, fmt.Sprintf("%s: all %d stdio servers wrapped (%s)", where, len(c.Wrapped), strings.Join(c.Wrapped, ", ")), "")
	case len(c.LeftAlone) == 0:
		add(Info, where+": no stdio servers", "")
	}
	if len(c.LeftAlone) > 0 {
		add(Warn, fmt.Sprintf("%s: flowd cannot see these, and shim wrap cannot edit them: %s", where, strings.Join(c.LeftAlone, "; ")),
			"rewrite them as the reason says, then "+wrap+"; or set each one's command line to SHIM --name NAME -- COMMAND ARGS by hand")
	}
	return out
}

// stores are the data section's findings about flowd's files: damaged,
// failing to write, pins lost.
func stores(f Facts) []Finding {
	var out []Finding
	add := func(status, msg, fix string) {
		out = append(out, Finding{Section: "data", Status: status, Message: msg, Fix: fix})
	}
	for _, e := range f.DamagedNow {
		add(Fail, e, "flowd run (or start any shim): flowd moves a damaged store aside and starts a fresh one")
	}
	reported := map[string]bool{}
	if st := f.Status; st != nil {
		for _, d := range st.DamagedStores {
			reported[d.MovedTo] = true
			add(Warn, fmt.Sprintf("%s %s was damaged when flowd started (%s): moved aside to %s, flowd runs on a fresh one", d.What, d.Path, d.Reason, d.MovedTo),
				"rm "+d.MovedTo+" once you no longer need it for inspection")
		}
		if h := st.HeldLost; h != nil {
			add(Warn, fmt.Sprintf("flowd cannot tell which sessions read data before it started (%s): every session that starts until %s is judged as carrying internal data when it sends out",
				h.Why, h.Until.Local().Format(time.DateTime)), "nothing to do: it ends by itself; if you did not restart flowd or touch "+filepath.Join(f.DataDir, paths.HeldSessions)+", find out what did")
		}
		if h := st.ConfigHeld; h != nil {
			add(Warn, fmt.Sprintf("a config that lowers protection is held back since %s (%s): the config before it stays in force",
				h.Since.Local().Format(time.DateTime), strings.Join(h.Changes, "; ")), applyHeld(st.ApprovalPassphrase))
		}
		if u := st.PinsUntrusted; u != nil {
			add(Warn, fmt.Sprintf("tool pins were lost with a damaged file on %s: no server is trusted on first use, each one's tools are held until you approve them",
				u.Since.Local().Format(time.DateTime)), "flowd pins list, then flowd pins approve SERVER")
		}
		a := st.Activity
		switch {
		case a.WriteError != "":
			add(Fail, fmt.Sprintf("the activity log cannot write since %s, %d records lost so far: %s",
				a.FailingSince.Local().Format(time.DateTime), a.Failed, a.WriteError), "free space on the disk of "+f.DataDir+" (df -h "+f.DataDir+")")
		case a.Failed > 0:
			add(Warn, fmt.Sprintf("%d activity records were lost to failed writes since flowd started (writing works again)", a.Failed),
				"check free space on the disk of "+f.DataDir+" (df -h "+f.DataDir+")")
		}
		if a.Unreadable > 0 {
			add(Info, fmt.Sprintf("%d activity records cannot be decoded: flowd activity skips them", a.Unreadable), "")
		}
		if n := a.Retention.NotableByCount; n > 0 {
			// Denied, asked or flagged records pushed out before max_age:
			// more came than their budget holds, a flood of them perhaps.
			add(Warn, fmt.Sprintf("%d notable activity records (denied, asked, warned, flagged…) were pruned before activity.max_age: more came than activity.max_notable_records holds", n),
				"flowd activity --risk-level high, to see what came in such numbers; raise activity.max_notable_records")
		}
		for _, x := range []*exporter.Status{st.OTLP, st.Export} {
			if x != nil {
				exportCheck(x, f.DataDir, add)
			}
		}
	}
	for _, p := range f.DamagedFiles {
		if !reported[p] {
			add(Info, p+" is a damaged store flowd moved aside earlier, kept for inspection", "rm "+p)
		}
	}
	return out
}

// coverage is the Security Coverage section: what hooks add, and whether
// they are there.
func coverage(f Facts) []Finding {
	var out []Finding
	var installed []string
	for _, h := range f.Hooks {
		if !h.Installed {
			continue
		}
		agent := h.Agent
		if agent == "" {
			agent = "claude-code"
		}
		installed = append(installed, fmt.Sprintf("%s (%s scope)", agentTitle(agent), h.Scope))
		switch {
		case h.BinaryMissing:
			out = append(out, Finding{"security coverage", Fail, fmt.Sprintf("%s hooks in %s (%s scope) run %q, which no longer exists", agentTitle(agent), h.Path, h.Scope, h.Command),
				"hook install --agent " + agent + " --scope " + h.Scope})
		case h.Disabled && agent == geminicli.Agent:
			out = append(out, Finding{"security coverage", Warn, fmt.Sprintf("%s turns flowd's hooks off (hooksConfig.enabled is false, or hooksConfig.disabled names flowd; before 0.61 hooks.enabled or tools.enableHooks): they do not run", h.Path),
				"set \"hooksConfig\": {\"enabled\": true} and take \"flowd\" out of \"hooksConfig\".\"disabled\" in " + h.Path})
		case agent == codex.Agent:
			out = append(out, codexCoverage(h)...)
		case h.Disabled:
			out = append(out, Finding{"security coverage", Warn, fmt.Sprintf("%s sets disableAllHooks: flowd's hooks there do not run", h.Path), ""})
		}
	}
	var active []string
	if f.Status != nil {
		for agent, last := range f.Status.HooksActive {
			active = append(active, fmt.Sprintf("%s (last event %s)", agent, last.Local().Format(time.Kitchen)))
		}
		sort.Strings(active)
	}
	if len(installed) == 0 {
		return append(out, Finding{"security coverage", Warn,
			"proxy-only: without hooks flowd sees only MCP traffic. Hooks add visibility into the agent's own tools (Read, Bash, WebFetch, Write…), so a key read with Read and sent with WebFetch or curl is caught, and \"ask\" decisions reach you instead of becoming warnings",
			"hook install --agent claude-code --scope user"})
	}
	msg := fmt.Sprintf("full: hooks installed for %s", strings.Join(installed, ", "))
	if len(active) > 0 {
		msg += "; events seen from " + strings.Join(active, ", ")
	} else {
		msg += "; no hook events seen yet (they start with the agent's next session)"
	}
	return append(out, Finding{"security coverage", OK, msg, ""})
}

// codexCoverage is what doctor says of flowd's hooks in one Codex hooks
// file: whether Codex's config lets them run.
func codexCoverage(h HookScope) []Finding {
	cfg, err := codex.ConfigPath()
	if err != nil {
		cfg = "Codex's config.toml"
	}
	var out []Finding
	add := func(msg, fix string) { out = append(out, Finding{"security coverage", Warn, msg, fix}) }
	if h.ReviewErr != "" {
		add(fmt.Sprintf("cannot tell whether Codex runs flowd's hooks in %s: %s", h.Path, h.ReviewErr), "correct "+cfg+" where the message says")
		return out
	}
	if h.Disabled {
		add(fmt.Sprintf("%s turns Codex's hooks off (features.hooks = false): flowd's hooks in %s do not run", cfg, h.Path), "codex features enable hooks")
	}
	if len(h.SwitchedOff) > 0 {
		add(fmt.Sprintf("%s switches flowd's hooks off (enabled = false): %s", cfg, strings.Join(h.SwitchedOff, ", ")),
			"turn them on in codex's /hooks, or delete their enabled = false lines in "+cfg)
	}
	if len(h.Untrusted) > 0 {
		add(fmt.Sprintf("Codex has not trusted flowd's hooks in %s (%s): it does not run them, and codex exec skips them without a word", h.Path, strings.Join(h.Untrusted, ", ")),
			"run codex in a terminal and answer its \"Hooks need review\" prompt with \"Trust all and continue\" (or trust them in /hooks)")
	}
	return out
}

func size(n int64) string {
	switch {
	case n == 0:
		return "not created yet"
	case n < 1<<20:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// Broken reports whether any finding is a failure.
func Broken(fs []Finding) bool {
	for _, f := range fs {
		if f.Status == Fail {
			return true
		}
	}
	return false
}

// applyHeld is how the user applies a held config: with the approval
// passphrase, which they may have to set first.
func applyHeld(passphraseSet bool) string {
	if passphraseSet {
		return "flowd config apply (it shows the changes and asks your approval passphrase)"
	}
	return "flowd passphrase set, then flowd config apply (it shows the changes and asks the passphrase)"
}

// exportCheck warns while an exporter fails, once it dropped records,
// and when it has no spool.
func exportCheck(x *exporter.Status, dataDir string, add func(status, msg, fix string)) {
	what, receiver := "syslog", "receiver"
	if x.Name == "otlp" {
		what, receiver = "OTLP", "collector"
	}
	section := "[export." + x.Name + "]"
	switch {
	case x.SpoolError != "":
		add(Warn, what+" export has no spool on disk, records wait in memory only: "+x.SpoolError, "check "+dataDir+" (df -h "+dataDir+")")
	case x.Enabled && !x.Connected && x.LastError != "":
		add(Warn, fmt.Sprintf("%s export to %s is failing (%d records wait on disk, %d lost to full queues): %s",
			what, x.Endpoint, x.Spool.Records, x.Lost(), x.LastError), "check the "+receiver+" at "+x.Endpoint+" and "+section+" (flowd status)")
	case x.Lost() > 0:
		add(Warn, fmt.Sprintf("%s export dropped %d records to full queues since flowd started", what, x.Lost()),
			"raise "+section+" spool_bytes, or check why the "+receiver+" was away")
	}
}
