package claudecode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/flowd-dev/flowd/internal/jsonedit"
	"github.com/flowd-dev/flowd/internal/shellnorm"
)

// Matcher selects the tools flowd's hooks run for: every one ("*" is
// Claude Code's catch-all). A list of names misses each tool Claude Code
// adds (Skill runs a skill's shell commands; CronCreate, SendMessage…),
// and flowd judges a tool it does not know as an unknown destination.
const Matcher = "*"

// DefaultTimeout is how long, in seconds, Claude Code waits for the hook.
// The hook gives up on flowd well before that (evaluate --timeout).
const DefaultTimeout = 10

// HookOptions are the choices a user makes when installing the hook.
type HookOptions struct {
	Binary     string // absolute path of the hook binary
	FailClosed bool   // deny tool calls when flowd cannot answer
	// AsyncPost runs the Post* hooks in the background. Off by default: a
	// background record of a tool's output can lose the race against the
	// next PreToolUse, which then misses the data it should have seen.
	AsyncPost bool
	// ScanOutput lets flowd replace a tool's output in which it finds
	// prompt injection; the PostToolUse hook then runs synchronously,
	// whatever AsyncPost says, because only a hook Claude Code waits for
	// can replace output.
	ScanOutput bool
	Timeout    int // seconds; 0 means DefaultTimeout
	// Agent is the hook's --agent, for an agent whose settings take
	// Claude Code's shape (Gemini CLI); "" is Claude Code, the default.
	Agent string
	// NoAutostart keeps the hook from starting a flowd that is not
	// running: tool calls then go on unchecked (or are denied, with
	// FailClosed). By default the hook starts it, as a shim does.
	NoAutostart bool
}

// Command is the shell command Claude Code runs for event. It names no
// socket, port or token: the hook finds flowd at run time.
func Command(o HookOptions, event string) string {
	c := shellnorm.QuoteIfNeeded(o.Binary) + " evaluate"
	if o.Agent != "" {
		c += " --agent " + o.Agent
	}
	c += " --event " + event
	if o.FailClosed {
		c += " --fail-closed"
	}
	if o.NoAutostart {
		c += " --no-autostart"
	}
	if o.ScanOutput && event == PostToolUse {
		c += " --scan-output"
	}
	return c
}

// Entry is one flowd hook found in a settings file.
type Entry struct {
	Event       string
	Matcher     string
	Command     string
	Binary      string // the command's program, unquoted
	Agent       string // the command's --agent; "" for Claude Code
	FailClosed  bool
	NoAutostart bool
	ScanOutput  bool
	Async       bool
	Timeout     int // seconds; 0 when not set
	// Group and Index place the hook in the file: its matcher group's
	// position in the event's list, and its own in the group's hooks.
	Group, Index int
	// BinaryExists is filled in by Inspect; FindHooks leaves it false.
	BinaryExists bool
}

type hookEntry struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
	Async   bool   `json:"async,omitempty"`
}

// matcherGroup is a group of hooks in the shape every agent here copies
// from Claude Code; each agent's hook entry has its own fields.
type matcherGroup struct {
	Matcher string `json:"matcher"`
	Hooks   []any  `json:"hooks"`
}

func group(o HookOptions, event string) json.RawMessage {
	timeout := o.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	h := hookEntry{Type: "command", Command: Command(o, event), Timeout: timeout,
		Async: o.AsyncPost && event != PreToolUse && !(o.ScanOutput && event == PostToolUse)}
	return jsonedit.Marshal(matcherGroup{Matcher: Matcher, Hooks: []any{h}})
}

// AddHooks returns settings with flowd's hooks for every event in Events.
// Everything else in the file stays as it was, in its order. An existing
// flowd group is replaced where it stands, so installing twice gives the
// same bytes as installing once; a flowd hook that shares a group with
// other hooks is moved out into flowd's own group.
func AddHooks(settings []byte, o HookOptions) ([]byte, error) {
	return AddGroups(settings, Events, func(event string) json.RawMessage { return group(o, event) })
}

// AddGroups is AddHooks for any agent whose settings copy Claude Code's
// hooks shape (Gemini CLI's do): group is flowd's matcher group for each
// of events. RemoveHooks and FindHooks serve those agents as they are.
func AddGroups(settings []byte, events []string, group func(event string) json.RawMessage) ([]byte, error) {
	top, hooks, st, err := parseSettings(settings)
	if err != nil {
		return nil, err
	}
	for _, event := range events {
		groups, err := eventGroups(hooks, event)
		if err != nil {
			return nil, err
		}
		want := group(event)
		placed := false
		var out []json.RawMessage
		for _, g := range groups {
			ng, removed, othersLeft := withoutOurs(g)
			switch {
			case removed == 0:
				out = append(out, g)
			case !othersLeft && !placed:
				out = append(out, want)
				placed = true
			case othersLeft:
				out = append(out, ng)
			}
		}
		if !placed {
			out = append(out, want)
		}
		hooks.Set(event, jsonedit.EncodeArray(out))
	}
	if b, ok, err := jsonedit.Splice(settings, top, "hooks", hooks.Encode(), st); ok || err != nil {
		return b, err
	}
	top.Set("hooks", hooks.Encode())
	return st.Layout(top.Encode())
}

// RemoveHooks returns settings without any flowd hook, and how many it
// removed. Groups, event lists and the hooks jsonedit.Object that flowd's removal
// leaves empty go too; ones that were empty before stay. With nothing to
// remove, settings come back as they were, byte for byte.
func RemoveHooks(settings []byte) ([]byte, int, error) {
	top, hooks, st, err := parseSettings(settings)
	if err != nil {
		return nil, 0, err
	}
	total := 0
	for _, m := range append(jsonedit.Object(nil), hooks...) {
		groups, err := eventGroups(hooks, m.Key)
		if err != nil {
			continue // not ours to judge; Claude Code will complain about it
		}
		var out []json.RawMessage
		n := 0
		for _, g := range groups {
			ng, removed, othersLeft := withoutOurs(g)
			n += removed
			switch {
			case removed == 0:
				out = append(out, g)
			case othersLeft:
				out = append(out, ng)
			}
		}
		if n == 0 {
			continue
		}
		total += n
		if len(out) == 0 {
			hooks.Del(m.Key)
		} else {
			hooks.Set(m.Key, jsonedit.EncodeArray(out))
		}
	}
	if total == 0 {
		return settings, 0, nil
	}
	var value json.RawMessage // nil: the hooks member goes
	if len(hooks) > 0 {
		value = hooks.Encode()
	}
	if b, ok, err := jsonedit.Splice(settings, top, "hooks", value, st); ok || err != nil {
		return b, total, err
	}
	if value == nil {
		top.Del("hooks")
	} else {
		top.Set("hooks", value)
	}
	b, err := st.Layout(top.Encode())
	return b, total, err
}

// FindHooks lists the flowd hooks in settings, and reports whether the
// file turns all hooks off ("disableAllHooks": true).
func FindHooks(settings []byte) (entries []Entry, disabled bool, err error) {
	top, hooks, _, err := parseSettings(settings)
	if err != nil {
		return nil, false, err
	}
	if v, ok := top.Get("disableAllHooks"); ok {
		json.Unmarshal(v, &disabled)
	}
	for _, m := range hooks {
		groups, err := eventGroups(hooks, m.Key)
		if err != nil {
			continue
		}
		for gi, g := range groups {
			var mg struct {
				Matcher string            `json:"matcher"`
				Hooks   []json.RawMessage `json:"hooks"`
			}
			if json.Unmarshal(g, &mg) != nil {
				continue
			}
			for hi, h := range mg.Hooks {
				var he struct {
					Command string  `json:"command"`
					Timeout float64 `json:"timeout"`
					Async   bool    `json:"async"`
				}
				if json.Unmarshal(h, &he) != nil {
					continue
				}
				e, ok := EntryOf(m.Key, he.Command)
				if !ok {
					continue
				}
				e.Matcher, e.Async, e.Timeout = mg.Matcher, he.Async, int(he.Timeout)
				e.Group, e.Index = gi, hi
				entries = append(entries, e)
			}
		}
	}
	return entries, disabled, nil
}

// parseSettings splits a settings file into its top-level jsonedit.Object and its
// hooks jsonedit.Object. An empty file is an empty jsonedit.Object.
func parseSettings(settings []byte) (top, hooks jsonedit.Object, st jsonedit.Style, err error) {
	st = jsonedit.StyleOf(settings)
	if len(bytes.TrimSpace(settings)) == 0 {
		return jsonedit.Object{}, jsonedit.Object{}, st, nil
	}
	if top, err = jsonedit.Parse(settings); err != nil {
		return nil, nil, st, fmt.Errorf("settings are not a JSON jsonedit.Object: %w", err)
	}
	hooks = jsonedit.Object{}
	if raw, ok := top.Get("hooks"); ok && string(raw) != "null" {
		if hooks, err = jsonedit.Parse(raw); err != nil {
			return nil, nil, st, fmt.Errorf(`settings key "hooks" is not an jsonedit.Object: %w`, err)
		}
	}
	return top, hooks, st, nil
}

func eventGroups(hooks jsonedit.Object, event string) ([]json.RawMessage, error) {
	raw, ok := hooks.Get(event)
	if !ok || string(raw) == "null" {
		return nil, nil
	}
	var groups []json.RawMessage
	if err := json.Unmarshal(raw, &groups); err != nil {
		return nil, fmt.Errorf("settings key hooks.%s is not a list of matcher groups: %w", event, err)
	}
	return groups, nil
}

// withoutOurs takes flowd's hooks out of a matcher group. It reports how
// many it took and whether other hooks remain; a group it cannot read is
// someone else's and is left alone.
func withoutOurs(g json.RawMessage) (json.RawMessage, int, bool) {
	obj, err := jsonedit.Parse(g)
	if err != nil {
		return g, 0, true
	}
	raw, ok := obj.Get("hooks")
	if !ok {
		return g, 0, true
	}
	var hs []json.RawMessage
	if json.Unmarshal(raw, &hs) != nil {
		return g, 0, true
	}
	var kept []json.RawMessage
	for _, h := range hs {
		var he struct {
			Command string `json:"command"`
		}
		json.Unmarshal(h, &he)
		if _, _, ours := OurCommand(he.Command); !ours {
			kept = append(kept, h)
		}
	}
	removed := len(hs) - len(kept)
	if removed == 0 {
		return g, 0, true
	}
	obj.Set("hooks", jsonedit.EncodeArray(kept))
	return obj.Encode(), removed, len(kept) > 0
}

// EntryOf reads command, run for event, as one of flowd's hook commands:
// its program and the options it was installed with; false when the
// command is not flowd's. The settings around it are the caller's to read.
func EntryOf(event, command string) (Entry, bool) {
	bin, args, ok := OurCommand(command)
	if !ok {
		return Entry{}, false
	}
	return Entry{Event: event, Command: command, Binary: bin, Agent: flagValue(args, "--agent"),
		FailClosed: hasWord(args, "--fail-closed"), NoAutostart: hasWord(args, "--no-autostart"),
		ScanOutput: hasWord(args, "--scan-output")}, true
}

// OurCommand recognises a flowd hook command: a program named hook run
// with "evaluate", whatever its path or quoting.
func OurCommand(cmd string) (binary string, args []string, ok bool) {
	binary, rest := firstWord(cmd)
	args = strings.Fields(rest)
	if !isHookBinary(binary) || len(args) == 0 || args[0] != "evaluate" {
		return "", nil, false
	}
	return binary, args, true
}

func isHookBinary(p string) bool {
	base := p[strings.LastIndexAny(p, `/\`)+1:]
	return base == "hook" || strings.EqualFold(base, "hook.exe")
}

func hasWord(words []string, w string) bool {
	for _, x := range words {
		if x == w {
			return true
		}
	}
	return false
}

func flagValue(words []string, name string) string {
	for i, x := range words {
		if x == name && i+1 < len(words) {
			return words[i+1]
		}
		if v, ok := strings.CutPrefix(x, name+"="); ok {
			return v
		}
	}
	return ""
}

// firstWord splits off a command's first word the way /bin/sh reads it
// (quotes and backslashes; no expansions).
func firstWord(cmd string) (word, rest string) {
	cmd = strings.TrimLeft(cmd, " \t")
	var b strings.Builder
	quote := byte(0)
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				b.WriteByte(c)
			}
		case quote == '"':
			if c == '"' {
				quote = 0
			} else if c == '\\' && i+1 < len(cmd) && strings.IndexByte(`"\$`+"`", cmd[i+1]) >= 0 {
				i++
				b.WriteByte(cmd[i])
			} else {
				b.WriteByte(c)
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '\\' && i+1 < len(cmd):
			i++
			b.WriteByte(cmd[i])
		case c == ' ' || c == '\t':
			return b.String(), cmd[i:]
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), ""
}
