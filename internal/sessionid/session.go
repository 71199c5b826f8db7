package sessionid

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Hints are what a shim or hook knows about the agent session around it.
type Hints struct {
	Explicit        string `json:"explicit,omitempty"`          // FLOWD_SESSION
	ClaudeCode      string `json:"claude_code,omitempty"`       // CLAUDE_CODE_SESSION_ID
	ClientPID       int    `json:"client_pid,omitempty"`        // nearest non-shell ancestor
	ClientStartTime uint64 `json:"client_start_time,omitempty"` // clock ticks since boot (Linux)
	ClientName      string `json:"client_name,omitempty"`
}

// ID is the flow session the hints point to. Explicit and Claude Code
// session IDs are used as they are, so a user can pass the ID they see in
// their agent to `flowd activity --session`.
func (h Hints) ID() string {
	switch {
	case h.Explicit != "":
		return h.Explicit
	case h.ClaudeCode != "":
		return h.ClaudeCode
	case h.ClientPID != 0:
		return "proc-" + strconv.Itoa(h.ClientPID) + "-" + strconv.FormatUint(h.ClientStartTime, 10)
	}
	return "unknown"
}

// Collect gathers the hints of the current process.
func Collect() Hints {
	h := Hints{
		Explicit:   os.Getenv("FLOWD_SESSION"),
		ClaudeCode: os.Getenv("CLAUDE_CODE_SESSION_ID"),
	}
	if h.Explicit == "" && h.ClaudeCode == "" {
		h.ClientPID, h.ClientStartTime, h.ClientName = client(os.Getppid())
	}
	return h
}

// client walks up from pid to the first process that is not a launcher.
func client(pid int) (int, uint64, string) {
	first := pid
	for range 32 { // a depth bound: ancestry loops cannot happen, but /proc can lie
		p, ok := readProc(pid)
		if !ok {
			break
		}
		if !IsLauncher(p.name) || p.ppid <= 1 {
			return pid, p.start, p.name
		}
		pid = p.ppid
	}
	p, _ := readProc(first)
	return first, p.start, p.name
}

type procInfo struct {
	name  string
	ppid  int
	start uint64
}

// launchers are the shells and package runners that sit between an agent
// and the processes it starts; they are never the agent itself.
var launchers = map[string]bool{
	"sh": true, "bash": true, "dash": true, "zsh": true, "fish": true, "ksh": true,
	"tcsh": true, "csh": true, "cmd.exe": true, "cmd": true, "powershell": true, "pwsh": true,
	"npx": true, "npm": true, "npm exec": true, "uvx": true, "uv": true, "pipx": true,
	"env": true, "timeout": true, "nohup": true, "setsid": true, "sudo": true, "doas": true,
	"shim": true, "hook": true, "stdbuf": true, "time": true, "xargs": true,
}

// IsLauncher reports whether a process name (as /proc's comm or a command
// basename gives it) is a shell or launcher.
func IsLauncher(name string) bool {
	name = strings.TrimSuffix(filepath.Base(name), ".exe")
	if launchers[name] {
		return true
	}
	// /proc truncates comm to 15 bytes: "npm exec @model".
	return strings.HasPrefix(name, "npm exec") || strings.HasPrefix(name, "npx ")
}

// Scoped is a session's ID in a system flowd, which several users share:
// the uid of the user who named it comes first, so two users who name the
// same session (by chance, or one copying the other's ID) never share one.
func Scoped(uid int, id string) string { return scopePrefix + strconv.Itoa(uid) + ":" + id }

const scopePrefix = "uid"

// Owner is the uid a Scoped session ID belongs to; ok is false for the
// session of a single user's flowd.
func Owner(id string) (uid int, ok bool) {
	rest, found := strings.CutPrefix(id, scopePrefix)
	if !found {
		return 0, false
	}
	n, _, found := strings.Cut(rest, ":")
	if !found || n == "" || strings.TrimLeft(n, "0123456789") != "" {
		return 0, false
	}
	uid, err := strconv.Atoi(n)
	return uid, err == nil
}

// Lineage names pid and its ancestors, nearest first ("flowd 41 ← bash 40
// ← sshd 12"), for a record of who did something a person should
// recognise (the approval passphrase set). It is evidence for the user,
// not a check: a process can be started anywhere. "" where /proc cannot
// tell (off Linux).
func Lineage(pid int) string {
	var parts []string
	for range 16 {
		p, ok := readProc(pid)
		if !ok || p.name == "" {
			break
		}
		parts = append(parts, p.name+" "+strconv.Itoa(pid))
		if p.ppid <= 0 {
			break
		}
		pid = p.ppid
	}
	return strings.Join(parts, " ← ")
}
