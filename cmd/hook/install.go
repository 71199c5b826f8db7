package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/flowd-dev/flowd/internal/claudecode"
	"github.com/flowd-dev/flowd/internal/localsock"
)

const exitUsage = 2

// installFlags are the flags install and uninstall share.
type installFlags struct {
	fs          *flag.FlagSet
	agent       *string
	scope       *string
	dir         *string
	failClosed  *bool
	noAutostart *bool
	asyncPost   *bool
	scanOutput  *bool
}

func newInstallFlags(name string, stderr io.Writer) installFlags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return installFlags{
		fs:          fs,
		agent:       fs.String("agent", defaultAgent, "agent to hook into: claude-code, gemini-cli or cursor"),
		scope:       fs.String("scope", "", "settings to change: user, project or local (Claude Code only) (required)"),
		dir:         fs.String("dir", ".", "project directory, for the project and local scopes"),
		failClosed:  fs.Bool("fail-closed", false, "deny tool calls when flowd cannot answer"),
		noAutostart: fs.Bool("no-autostart", false, "never start flowd: while none runs, tool calls go on unchecked (denied with --fail-closed)"),
		asyncPost:   fs.Bool("async-post", false, "record tool output in the background (faster, but a record can miss the next check)"),
		scanOutput:  fs.Bool("scan-output", false, "let flowd replace tool output it finds prompt injection in (PostToolUse runs synchronously)"),
	}
}

// parseFlags parses fs the way the CLIs users know do. It reports whether
// the command goes on, and if not, its exit code: 0 after -h or --help,
// whose usage goes to stdout; exitUsage after a bad flag, said on stderr.
func parseFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (code int, ok bool) {
	var msg bytes.Buffer
	fs.SetOutput(&msg)
	defer fs.SetOutput(stderr)
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		stdout.Write(msg.Bytes())
		return 0, false
	case err != nil:
		stderr.Write(msg.Bytes())
		return exitUsage, false
	}
	return 0, true
}

// parse reads the flags; without an agent, the command ends with code.
func (f installFlags) parse(args []string, stdout, stderr io.Writer) (a agent, code int) {
	if code, ok := parseFlags(f.fs, args, stdout, stderr); !ok {
		return nil, code
	}
	if f.fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unexpected arguments %q\n", f.fs.Name(), f.fs.Args())
		return nil, exitUsage
	}
	if *f.scope == "" {
		fmt.Fprintf(stderr, "%s: --scope is required: user, project or local\n", f.fs.Name())
		return nil, exitUsage
	}
	a, err := lookupAgent(*f.agent)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", f.fs.Name(), err)
		return nil, exitUsage
	}
	return a, 0
}

func install(args []string, stdout, stderr io.Writer, binary func() (string, error)) int {
	f := newInstallFlags("hook install", stderr)
	a, code := f.parse(args, stdout, stderr)
	if a == nil {
		return code
	}
	bin, err := binary()
	if err != nil {
		fmt.Fprintf(stderr, "hook install: %v\n", err)
		return 1
	}
	msg, err := a.install(*f.scope, *f.dir, claudecode.HookOptions{Binary: bin, FailClosed: *f.failClosed,
		NoAutostart: *f.noAutostart, AsyncPost: *f.asyncPost, ScanOutput: *f.scanOutput})
	if err != nil {
		fmt.Fprintf(stderr, "hook install: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, msg)
	if *f.scope == "project" {
		keep := "--scope local keeps it to this checkout"
		if *f.agent != "claude-code" {
			keep = "--scope user keeps it to you"
		}
		fmt.Fprintf(stdout, "note: project settings are usually committed; everyone who uses them needs the hook at %s (%s)\n", bin, keep)
	}
	return 0
}

func uninstall(args []string, stdout, stderr io.Writer) int {
	f := newInstallFlags("hook uninstall", stderr)
	a, code := f.parse(args, stdout, stderr)
	if a == nil {
		return code
	}
	msg, err := a.uninstall(*f.scope, *f.dir)
	if err != nil {
		fmt.Fprintf(stderr, "hook uninstall: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, msg)
	return 0
}

// hookBinary is the path settings should run: this program as the user
// invoked it, so a package manager's symlink (/usr/local/bin/hook) stays
// the path and survives upgrades. Settings entries are recognised by the
// program's name, so it must be called hook.
func hookBinary() (string, error) {
	p := os.Args[0]
	if !strings.ContainsAny(p, `/\`) {
		p, _ = exec.LookPath(p) // "" when not found
	}
	if p == "" {
		var err error
		if p, err = os.Executable(); err != nil {
			return "", fmt.Errorf("find this program's path: %w", err)
		}
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("find this program's path: %w", err)
	}
	if base := strings.TrimSuffix(strings.ToLower(filepath.Base(abs)), ".exe"); base != "hook" {
		return "", fmt.Errorf("this program is %s, but must be named hook: flowd finds its entries in settings files by that name", abs)
	}
	return abs, nil
}

func status(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hook status", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", ".", "project directory, for the project and local scopes")
	socket := fs.String("socket", "", "flowd socket (default: $FLOWD_SOCKET, else the per-user default)")
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "hook status: unexpected arguments %q\n", fs.Args())
		return exitUsage
	}
	if *socket == "" {
		*socket = localsock.Locate()
	}
	names := make([]string, 0, len(agents))
	for n := range agents {
		names = append(names, n)
	}
	sort.Strings(names)
	code := 0
	for _, n := range names {
		scopes, err := agents[n].status(*dir)
		fmt.Fprintln(stdout, n)
		printScopes(stdout, scopes)
		if err != nil {
			fmt.Fprintf(stderr, "hook status: %v\n", err)
			code = 1
		}
	}
	if err := flowdAnswers(*socket); err != nil {
		fmt.Fprintf(stdout, "flowd: not answering on %s: %v\n", *socket, err)
	} else {
		fmt.Fprintf(stdout, "flowd: answering on %s\n", *socket)
	}
	return code
}

func printScopes(w io.Writer, scopes []scopeStatus) {
	for _, s := range scopes {
		switch {
		case !s.Exists:
			fmt.Fprintf(w, "  %-8s %s: no such file\n", s.scope, s.Path)
			continue
		case len(s.Entries) == 0:
			fmt.Fprintf(w, "  %-8s %s: not installed\n", s.scope, s.Path)
			continue
		}
		var events []string
		for _, h := range s.Entries {
			events = append(events, h.Event)
		}
		fmt.Fprintf(w, "  %-8s %s: installed (%s)\n", s.scope, s.Path, strings.Join(events, ", "))
		if s.HooksDisabled {
			by := s.disabledBy
			if by == "" {
				by = `"disableAllHooks": true`
			}
			fmt.Fprintf(w, "           but %s in this file turns them off\n", by)
		}
		for _, p := range s.problems {
			fmt.Fprintf(w, "           but %s\n", p)
		}
		for _, h := range s.Entries {
			var notes []string
			if h.FailClosed {
				notes = append(notes, "fail-closed")
			}
			if h.NoAutostart {
				notes = append(notes, "no-autostart: unchecked while flowd is not running")
			}
			if h.Async {
				notes = append(notes, "async")
			}
			if h.ScanOutput {
				notes = append(notes, "scan-output")
			}
			if !h.BinaryExists {
				notes = append(notes, "BINARY MISSING: "+h.Binary)
			}
			extra := ""
			if len(notes) > 0 {
				extra = "  [" + strings.Join(notes, ", ") + "]"
			}
			fmt.Fprintf(w, "           %s%s\n", h.Command, extra)
		}
	}
}

func flowdAnswers(socket string) error {
	st, body, err := call(socket, "GET", "/api/v1/status", nil, 2*time.Second)
	if err != nil {
		return err
	}
	if st != 200 {
		return errors.New("status " + fmt.Sprint(st) + ": " + strings.TrimSpace(string(body)))
	}
	return nil
}
