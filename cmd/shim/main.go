// Command shim wraps one stdio MCP server: it relays the server's stdio
// untouched and shows every message to flowd, which may block it.
//
//	shim [--name NAME] [--socket PATH] [--no-autostart] -- COMMAND [ARGS...]
//	shim wrap|unwrap [--client CLIENT] [--config PATH] [--dry-run]
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/managed"
	"github.com/flowd-dev/flowd/internal/ondemand"
	"github.com/flowd-dev/flowd/internal/paths"
	"github.com/flowd-dev/flowd/internal/shim"
	"github.com/flowd-dev/flowd/internal/unprotected"
	"github.com/flowd-dev/flowd/internal/version"
)

func main() {
	// A shim only relays, and on Linux its stdio and socket are all in the
	// runtime's poller. One scheduler slot saves waking a second thread
	// for each message: about 10 µs of a round trip on a 2-core machine.
	// Elsewhere stdio reads block a thread, and a single slot would wait
	// for the runtime to take it back.
	if runtime.GOOS == "linux" && os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
	if len(os.Args) > 1 && (os.Args[1] == "wrap" || os.Args[1] == "unwrap") {
		os.Exit(runWrap(os.Args[1], os.Args[2:]))
	}
	fs := flag.NewFlagSet("shim", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: shim [--name NAME] [--socket PATH] [--no-autostart] -- COMMAND [ARGS...]\n")
		fmt.Fprintf(fs.Output(), "       shim wrap|unwrap [--client CLIENT] [--config PATH] [--dry-run]\n\n")
		fs.PrintDefaults()
	}
	name := fs.String("name", "", "server name flowd uses (default: the server's own serverInfo.name, else the package or command name)")
	socket := fs.String("socket", "", "flowd socket (env FLOWD_SOCKET; default: where this user's flowd answers)")
	noAuto := fs.Bool("no-autostart", false, "do not start flowd when none is running")
	showVersion := fs.Bool("version", false, "print the version and exit")
	var msg bytes.Buffer
	fs.SetOutput(&msg)
	if err := fs.Parse(os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Stdout.Write(msg.Bytes())
			os.Exit(0)
		}
		os.Stderr.Write(msg.Bytes())
		os.Exit(2)
	}
	fs.SetOutput(os.Stderr)
	if *showVersion {
		fmt.Println("shim", version.Version)
		return
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "shim: no server command given")
		fs.Usage()
		os.Exit(2)
	}
	var steered string
	*socket, steered = ondemand.Steer(*socket, func(m string) { fmt.Fprintln(os.Stderr, "shim: "+m) })
	local := localShim()
	os.Exit(shim.Run(shim.Options{
		Name:           *name,
		Socket:         *socket,
		Autostart:      !*noAuto,
		FailMode:       local.FailMode,
		VerdictTimeout: local.VerdictTimeout.Duration,
		Command:        fs.Args(),
		Stdin:          os.Stdin,
		Stdout:         os.Stdout,
		Stderr:         os.Stderr,
		UnprotectedDir: unprotected.Dir(),
		Steered:        steered,
	}))
}

// localShim reads the config file's [shim] section, bounded by the
// machine's managed policy, whose fail_mode and verdict_timeout apply
// until flowd answers (flowd's own copy wins after that). A broken
// config file here is flowd's to report; the shim falls back to the
// managed policy over the defaults. A managed policy that cannot be
// trusted or read leaves the shim closed: nothing passes unchecked
// because the policy that may require it could not be read.
func localShim() config.Shim {
	if e, _ := managed.Load(paths.ConfigFile(), false); e != nil {
		return heldBack(e.Config, paths.DataDir()) // with a user key that weakens it refused
	}
	if e, err := managed.Load("", false); err == nil {
		return e.Config.Shim
	}
	s := config.Default().Shim
	s.FailMode = config.FailClosed
	return s
}

// heldBack returns file's [shim] section, or the one flowd has in force
// where file lowers protection from it: flowd holds such an edit back
// for `flowd config apply`, and a shim that read it would apply it
// whenever flowd did not answer. Before flowd has ever run in dataDir the
// file is the user's setup, as flowd takes it at its first start.
func heldBack(file *config.Config, dataDir string) config.Shim {
	if paths.NeverRan(dataDir) {
		return file.Shim
	}
	old, _ := config.InForce(filepath.Join(dataDir, paths.ConfigInForce)) // the defaults when it cannot be read
	if len(config.Weakened(old, file)) > 0 {
		return old.Shim
	}
	return file.Shim
}
