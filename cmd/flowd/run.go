package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/daemon"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/managed"
	"github.com/flowd-dev/flowd/internal/paths"
	"github.com/flowd-dev/flowd/internal/service"
	"github.com/flowd-dev/flowd/internal/systemd"
)

// oneSlot runs flowd's goroutines on one scheduler slot unless the user
// set GOMAXPROCS. flowd's work per message is tens of microseconds, and a
// second slot bought no parallelism worth having: each message readied a
// goroutine with a slot idle, and the runtime woke a second thread for
// it, on this 2-core VM a wake-up of the other core. Alternating bench
// runs measured +218-234 µs with one slot against +258-280 µs with two.
// The price: a blocking system call (the activity store's fsync, about
// 0.3 ms here) holds the slot until the runtime takes it back, and while
// a 10 MB result is scanned or recorded, other verdicts wait for the
// scheduler to preempt that work (every 10 ms).
func oneSlot() {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
}

func cmdRun(args []string) error {
	oneSlot()
	fl := newFlags("flowd run")
	cfgPath := fl.String("config", paths.ConfigFile(), "config file (env FLOWD_CONFIG); a missing default file means defaults")
	socket := fl.String("socket", paths.UserSocket(), "socket to listen on (env FLOWD_SOCKET)")
	dataDir := fl.String("data-dir", paths.DataDir(), "where the activity store lives (env FLOWD_DATA_DIR)")
	system := fl.Bool("system", false, "run as the machine's flowd: members of the socket's group may connect, each user sees only their own sessions (paths default to "+
		strings.Join([]string{systemLayout.Config, systemLayout.Socket, systemLayout.DataDir}, ", ")+")")
	if err := noArgs(fl, args); err != nil {
		return err
	}
	if *system {
		systemDefaults(fl, cfgPath, socket, dataDir)
	}
	startedBy := service.Started()
	os.Unsetenv(paths.EnvStartedBy) // said to this flowd, not to what it runs
	cfg, err := loadConfig(*cfgPath, fl)
	if err != nil {
		return err
	}
	log := slog.New(systemd.LogHandler(os.Stderr, &slog.HandlerOptions{Level: logLevel(cfg.Daemon.LogLevel)}))
	listener, err := systemd.Listener()
	if err != nil {
		return err
	}
	if listener != nil {
		// The socket unit decides the path; the flag may disagree.
		*socket = listener.Addr().String()
		log.Info("using the socket systemd passed", "socket", *socket)
	} else if !*system && !flagGiven(fl, "socket") && os.Getenv(paths.EnvSocket) == "" {
		if others := otherFlowds(*socket); len(others) > 0 {
			other := others[0]
			return fmt.Errorf("a flowd of yours already answers on %s, where your shims and hooks find it: a second one on %s would split them (stop it with `flowd stop --socket %s`, or give --socket to run one apart)",
				other, *socket, other)
		}
	}
	signalled, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// systemd hears STOPPING=1 before the shutdown begins, never after
	// flowd has exited: the daemon's context ends only once it is sent.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-signalled.Done():
			systemd.Notify(log, "STOPPING=1")
			cancel()
		case <-ctx.Done():
		}
	}()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	onReady := func(d *daemon.Daemon) {
		systemd.Notify(log, "READY=1")
		go systemd.Watchdog(ctx, log, func(c context.Context) error { return answers(c, *socket) })
		go reloadOnHUP(ctx, hup, d, *cfgPath, fl, log)
	}
	err = service.Serve(ctx, func(ctx context.Context) error {
		return daemon.Run(ctx, daemon.Options{Config: cfg, ConfigFile: *cfgPath, Socket: *socket, DataDir: *dataDir, Log: log,
			Listener: listener, OnReady: onReady, System: *system, StartedBy: startedBy, ServiceState: serviceStatus}, nil)
	})
	if errors.Is(err, daemon.ErrRunning) {
		// Several shims may start flowd at once; the losers are not failures.
		log.Info("another flowd already serves this socket; exiting", "socket", *socket)
		return nil
	}
	return err
}

func flagGiven(fl *flag.FlagSet, name string) bool {
	given := false
	fl.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

// systemLayout is where a system flowd keeps its files.
var systemLayout = service.DefaultLayout(service.System, "")

// systemDefaults points the path flags not given on the command line at
// the system layout: the user's own paths (and FLOWD_* variables) are no
// place for the machine's flowd.
func systemDefaults(fl *flag.FlagSet, cfgPath, socket, dataDir *string) {
	for name, p := range map[string]struct {
		flag  *string
		value string
	}{
		"config": {cfgPath, systemLayout.Config}, "socket": {socket, systemLayout.Socket}, "data-dir": {dataDir, systemLayout.DataDir},
	} {
		if !flagGiven(fl, name) {
			*p.flag = p.value
		}
	}
}

// reloadOnHUP reads the config file again on each SIGHUP. A file that
// does not load leaves the config in force unchanged: a typo must not
// take the firewall down or open it. A file that weakens the machine's
// managed policy is refused key by key: the managed values take effect
// in place of the user's (an administrator who tightened the policy and
// sent a SIGHUP gets what they asked for).
func reloadOnHUP(ctx context.Context, hup <-chan os.Signal, d *daemon.Daemon, path string, fl *flag.FlagSet, log *slog.Logger) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
		}
		e, err := managed.Load(path, explicitConfig(fl))
		if e != nil {
			if err != nil {
				log.Error("config weakens the machine's managed policy: those keys keep the managed values", "err", err)
			}
			err = d.Reload(e.Config)
		}
		if err != nil {
			log.Error("config not reloaded; the previous config stays in force", "config", path, "err", err)
		}
	}
}

// answers is the watchdog's check: flowd's own status request, through
// the socket every shim uses, comes back before ctx's deadline.
func answers(ctx context.Context, socket string) error {
	timeout := time.Second
	if dl, ok := ctx.Deadline(); ok {
		timeout = time.Until(dl)
	}
	_, err := flowdclient.NewClient(socket, timeout).Status()
	return err
}

// loadConfig reads the config file, bounded by the machine's managed
// policy. Only the default path may be missing: a file named on the
// command line or in FLOWD_CONFIG must exist. A file that weakens the
// managed policy, and a managed policy that cannot be trusted, stop
// flowd as an invalid file does.
func loadConfig(path string, fl *flag.FlagSet) (*config.Config, error) {
	e, err := managed.Load(path, explicitConfig(fl))
	if err != nil {
		return nil, fmt.Errorf("refusing to start: %w", err)
	}
	return e.Config, nil
}

func explicitConfig(fl *flag.FlagSet) bool {
	set := os.Getenv("FLOWD_CONFIG") != ""
	fl.Visit(func(f *flag.Flag) {
		if f.Name == "config" {
			set = true
		}
	})
	return set
}

func logLevel(s string) slog.Level {
	var l slog.Level
	if l.UnmarshalText([]byte(s)) != nil {
		return slog.LevelInfo
	}
	return l
}
