package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/flowd-dev/flowd/internal/clientconfig"
)

// runWrap runs `shim wrap` or `shim unwrap`, which put the stdio servers
// in MCP clients' config files behind this shim, or take them back out.
func runWrap(verb string, args []string) int {
	w := wrapCmd{
		stdout: os.Stdout,
		stderr: os.Stderr,
		self:   func() (string, error) { return shimPath(os.Args[0], os.Executable) },
	}
	return w.run(verb, args)
}

type wrapCmd struct {
	stdout, stderr io.Writer
	self           func() (string, error) // the path clients should start the shim by
}

// target is one config file to edit, and the client it belongs to; path
// is "" for a client with no config file, looked lists where it looked.
type target struct {
	client, path string
	format       clientconfig.Format
	project      bool   // a project's file, usually committed
	userFile     string // where the client keeps this user's own servers
	looked       []string
}

func (w wrapCmd) run(verb string, args []string) int {
	flags := flag.NewFlagSet("shim "+verb, flag.ContinueOnError)
	var msg bytes.Buffer
	flags.SetOutput(&msg)
	flags.Usage = func() {
		fmt.Fprintf(flags.Output(), "usage: shim %s [--client NAME] [--config PATH] [--dry-run]\n\n", verb)
		flags.PrintDefaults()
	}
	client := flags.String("client", "", "edit only this client's configs: "+clientconfig.Names()+" (default: every client's found)")
	config := flags.String("config", "", "edit this config file instead of looking for the client's")
	dryRun := flags.Bool("dry-run", false, "print the changes and write nothing")
	err := flags.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		w.stdout.Write(msg.Bytes())
		return 0
	case err != nil:
		w.stderr.Write(msg.Bytes())
		return 2
	}
	flags.SetOutput(w.stderr)
	if flags.NArg() > 0 {
		fmt.Fprintf(w.stderr, "shim %s: unexpected argument %q\n", verb, flags.Arg(0))
		flags.Usage()
		return 2
	}
	targets, err := targets(*client, *config)
	if err != nil {
		fmt.Fprintf(w.stderr, "shim %s: %v\n", verb, err)
		return 1
	}

	edit := clientconfig.UnwrapFile
	var shimPath string
	if verb == "wrap" {
		self, err := w.self()
		if err != nil {
			fmt.Fprintf(w.stderr, "shim wrap: %v\n", err)
			return 1
		}
		shimPath = self
		edit = func(path string, f clientconfig.Format, dryRun bool) (clientconfig.File, error) {
			return clientconfig.WrapFile(path, f, self, dryRun)
		}
	}
	code, written := 0, false
	for _, t := range targets {
		if t.path == "" {
			fmt.Fprintf(w.stdout, "%s: no config (looked for %s)\n", t.client, strings.Join(t.looked, ", "))
			continue
		}
		fmt.Fprintf(w.stdout, "%s: %s\n", t.client, t.path)
		f, err := edit(t.path, t.format, *dryRun)
		if err != nil {
			fmt.Fprintf(w.stderr, "shim %s: %v\n", verb, err)
			code = 1
			continue
		}
		f.Report(w.stdout)
		if verb == "wrap" && f.Changed() && t.project {
			// A project's servers file is usually committed: the path
			// written into it is this user's.
			fmt.Fprintf(w.stdout, "  note: %s is a project file, usually committed; everyone who uses it needs the shim at %s (%s)\n",
				t.path, shimPath, keepToYourself(t))
		}
		written = written || f.Written
	}
	if written {
		fmt.Fprintln(w.stdout, "Restart the clients whose files changed: they read their servers at start.")
	}
	return code
}

// targets lists the config files to edit: the one given, or those of the
// clients asked for that exist, and the clients that have none.
func targets(client, config string) ([]target, error) {
	clients := clientconfig.Clients
	if client != "" {
		c, err := clientconfig.ParseClient(client)
		if err != nil {
			return nil, err
		}
		clients = []clientconfig.Client{c}
	}
	env, err := clientconfig.CurrentEnv()
	if err != nil {
		return nil, err
	}
	if config != "" {
		return []target{configTarget(env, client, config)}, nil
	}
	var all []target
	found := false
	for _, c := range clients {
		locs := c.Locations(env)
		paths := c.Paths(env)
		n := len(all)
		for _, l := range locs {
			_, err := os.Stat(l.Path)
			switch {
			case err == nil:
				all = append(all, target{client: string(c), path: l.Path, format: l.Format, project: l.Project, userFile: locs[0].Path})
			case !errors.Is(err, fs.ErrNotExist):
				return nil, fmt.Errorf("%s config %s: %w", c, l.Path, err)
			}
		}
		found = found || len(all) > n
		if len(all) == n {
			all = append(all, target{client: string(c), looked: paths})
		}
	}
	if !found {
		return nil, errors.New("no MCP client config found; name one with --config PATH")
	}
	return all, nil
}

// configTarget is the file named with --config: read in its client's
// format, or, with no client named, in the one its name suggests.
func configTarget(env clientconfig.Env, client, path string) target {
	t := target{client: client, path: path, format: clientconfig.FormatOf(path), project: clientconfig.ProjectFile(env.Home, path)}
	if client == "" {
		t.client = "config"
		return t
	}
	c, _ := clientconfig.ParseClient(client) // checked by the caller
	locs := c.Locations(env)
	t.userFile = locs[0].Path
	if abs, err := filepath.Abs(path); err == nil {
		for _, l := range locs {
			if l.Path == abs {
				t.format, t.project = l.Format, l.Project
				return t
			}
		}
	}
	if c != clientconfig.Continue { // whose block files may be YAML or JSON
		t.format = locs[0].Format
	}
	return t
}

// keepToYourself says how to keep a server out of a project's file.
func keepToYourself(t target) string {
	switch {
	case t.client == string(clientconfig.ClaudeCode):
		return "to keep it to yourself, add the servers with claude mcp add --scope local and wrap those"
	case t.userFile != "":
		return "to keep it to yourself, move the servers to " + t.userFile + " and wrap them there"
	}
	return "to keep it to yourself, move the servers to your client's user config and wrap them there"
}

// shimPath is the absolute path clients should start this shim by: they
// do not get the login shell's PATH (Claude Desktop, for one), so a bare
// "shim" may not be found. The path the shim was invoked by wins over
// os.Executable's when both are the same file: it is how the user reaches
// the shim, and a symlink such as Homebrew's keeps working across upgrades,
// where the versioned path it resolves to would not.
func shimPath(arg0 string, executable func() (string, error)) (string, error) {
	exe, err := executable()
	if err != nil {
		return "", fmt.Errorf("find this shim's own path: %w", err)
	}
	p := exe
	if invoked := invokedPath(arg0); invoked != "" && sameFile(invoked, exe) {
		p = invoked
	}
	if strings.Contains(filepath.ToSlash(p), "/go-build") {
		return "", fmt.Errorf("this shim runs from Go's build cache (%s), which is deleted after the run; install it (go install ./cmd/shim) and run the installed one", p)
	}
	return p, nil
}

// invokedPath makes arg0 absolute the way the shell found it: through PATH
// when it has no directory. It is "" when that fails.
func invokedPath(arg0 string) string {
	if !strings.ContainsAny(arg0, `/\`) {
		p, err := exec.LookPath(arg0)
		if err != nil {
			return ""
		}
		arg0 = p
	}
	abs, err := filepath.Abs(arg0)
	if err != nil {
		return ""
	}
	return abs
}

func sameFile(a, b string) bool {
	ia, err := os.Stat(a)
	if err != nil {
		return false
	}
	ib, err := os.Stat(b)
	return err == nil && os.SameFile(ia, ib)
}
