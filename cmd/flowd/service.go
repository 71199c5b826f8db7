package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/ondemand"
	"github.com/flowd-dev/flowd/internal/paths"
	"github.com/flowd-dev/flowd/internal/service"
)

// exitNoManager is install's exit code on a machine without a service
// manager, where installers/install.sh goes on without a service.
const exitNoManager = 3

// cmdInstall installs flowd as a service, enables and starts it.
func cmdInstall(args []string) error {
	fl := newFlags("flowd install")
	scope := scopeFlags(fl)
	if err := noArgs(fl, args); err != nil {
		return err
	}
	sc, err := scope(service.User)
	if err != nil {
		return err
	}
	if sc == service.System && os.Geteuid() != 0 {
		return errors.New("a system-wide install writes to /etc and creates the flowd account: run it as root (sudo flowd install --system)")
	}
	exe, err := executable()
	if err != nil {
		return err
	}
	layout := service.DefaultLayout(sc, exe)
	s, err := service.New(sc, layout)
	if errors.Is(err, service.ErrNoManager) {
		fmt.Fprintln(os.Stderr, "flowd:", err)
		return exitError(exitNoManager)
	}
	if err != nil {
		return err
	}
	if !s.Status().Installed {
		if err := handOver(layout.Socket); err != nil {
			return err
		}
	}
	change, err := s.Install()
	if err != nil {
		return err
	}
	st := s.Status()
	switch change {
	case service.Unchanged:
		fmt.Printf("flowd is already installed (%s); nothing changed\n", describe(st))
	case service.Updated:
		fmt.Printf("flowd service updated and restarted (%s)\n", describe(st))
	default:
		fmt.Printf("flowd service installed, enabled and started (%s)\n", describe(st))
	}
	if sc == service.System {
		fmt.Printf("users who may use it: sudo usermod -aG flowd NAME (then they log in again); their shims, hooks and flowd CLI find %s unless they run a flowd of their own\n", layout.Socket)
		return nil
	}
	// The first passphrase is set only before any agent has run through
	// flowd: now, before the user starts one, is the moment.
	if st, err := flowdclient.NewClient(layout.Socket, 5*time.Second).Status(); err == nil && !st.ApprovalPassphrase {
		fmt.Println("next, before you start an agent: set your approval passphrase with `flowd passphrase set` (flowd sets a first one only before any agent has run through it)")
	}
	return nil
}

// handOver stops a flowd that a shim started on demand on the service's
// socket. Left running it would keep the socket's lock, and the service's
// flowd would exit at every start; its shims reconnect to the service.
func handOver(socket string) error {
	pid, err := stopOnDemand(socket, 15*time.Second)
	switch {
	case errors.Is(err, errNotRunning):
		return nil
	case err != nil:
		return fmt.Errorf("%w: stop it yourself, then install again", err)
	}
	fmt.Printf("stopped the flowd started on demand (pid %d) so the service can take over its socket\n", pid)
	return nil
}

// cmdUninstall stops and removes the service; --purge removes the data.
func cmdUninstall(args []string) error {
	fl := newFlags("flowd uninstall")
	scope := scopeFlags(fl)
	purge := fl.Bool("purge", false, "also remove the data directory (the activity log)")
	if err := noArgs(fl, args); err != nil {
		return err
	}
	sc, err := scope("")
	if err != nil {
		return err
	}
	s, err := installed(scope)
	if sc == "" && (errors.Is(err, service.ErrNoManager) || err == nil && !s.Status().Installed) {
		return uninstallOnDemand(*purge)
	}
	if err != nil {
		return err
	}
	removed, err := s.Uninstall(*purge)
	if err != nil {
		return err
	}
	switch {
	case removed && *purge:
		fmt.Println("flowd service removed, and its data directory")
	case removed:
		fmt.Println("flowd service removed; its data directory stays (flowd uninstall --purge removes it)")
	case *purge:
		fmt.Println("flowd service was not installed; data directory removed")
	default:
		fmt.Println("flowd service was not installed; nothing changed")
	}
	return nil
}

// uninstallOnDemand is uninstall where no service was installed: it
// stops the flowd started on demand, which would otherwise run on from
// the binaries being removed (and write to a data dir being purged).
func uninstallOnDemand(purge bool) error {
	done := "no flowd was running"
	pid, err := stopOnDemand(paths.UserSocket(), 15*time.Second)
	switch {
	case errors.Is(err, errNotRunning):
	case err != nil:
		return err
	default:
		done = fmt.Sprintf("stopped the flowd started on demand (pid %d)", pid)
	}
	if purge {
		dir := paths.DataDir()
		if err := os.RemoveAll(dir); err != nil {
			return fmt.Errorf("remove data dir %s: %w", dir, err)
		}
		done += "; data directory " + dir + " removed"
	}
	fmt.Printf("no flowd service was installed; %s\n", done)
	return nil
}

// cmdControl starts, stops or restarts the installed service, or where
// none is installed, the flowd started on demand.
func cmdControl(verb string, args []string) error {
	fl := newFlags("flowd " + verb)
	scope := scopeFlags(fl)
	socket := clientSocket(fl)
	if err := noArgs(fl, args); err != nil {
		return err
	}
	sc, err := scope("")
	if err != nil {
		return err
	}
	if *socket != "" {
		if sc != "" {
			return errors.New("--socket names a flowd started on demand, --user and --system a service: give one of them")
		}
		return controlOnDemand(verb, socket.Path(), socket.Path())
	}
	s, err := installed(scope)
	if sc == "" && (err != nil || !s.Status().Installed) {
		// No service: the flowd here is the one started on demand, which
		// listens where `flowd run` does.
		return controlOnDemand(verb, socket.Path(), paths.UserSocket())
	}
	if err != nil {
		return err
	}
	if !s.Status().Installed {
		return fmt.Errorf("flowd is not installed as a %s service: flowd install --%s", sc, sc)
	}
	switch verb {
	case "start":
		err = s.Start()
	case "stop":
		err = s.Stop()
	default:
		err = s.Restart()
	}
	if err != nil {
		return err
	}
	fmt.Printf("flowd %s: done (%s)\n", verb, describe(s.Status()))
	return nil
}

// controlOnDemand starts, stops or restarts a flowd that no service
// manager looks after: the one a shim started, or `flowd start` did. It
// stops the flowd that answers on socket and starts one on startSocket.
func controlOnDemand(verb, socket, startSocket string) error {
	if verb != "start" {
		pid, err := stopOnDemand(socket, 15*time.Second)
		switch {
		case errors.Is(err, errNotRunning) && verb == "stop":
			fmt.Printf("flowd is not running (socket %s); nothing to stop\n", socket)
			return nil
		case errors.Is(err, errNotRunning):
		case err != nil:
			return err
		case verb == "stop":
			fmt.Printf("flowd (pid %d) stopped; no service looks after it, so the next shim that needs it starts it again\n", pid)
			return nil
		default:
			fmt.Printf("flowd (pid %d) stopped\n", pid)
		}
	}
	if st, err := flowdclient.NewClient(socket, 2*time.Second).Status(); err == nil && st.Running {
		fmt.Printf("flowd is already running (pid %d, socket %s)\n", st.PID, socket)
		return nil
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find the flowd executable: %w", err)
	}
	socket = startSocket
	if err := ondemand.Start(exe, socket, ondemand.Wait); err != nil {
		return err
	}
	st, err := flowdclient.NewClient(socket, 2*time.Second).Status()
	if err != nil {
		return fmt.Errorf("flowd started but does not answer on %s: %w (see %s)", socket, err, ondemand.LogFile())
	}
	fmt.Printf("flowd started in the background (pid %d, socket %s, log %s); no service looks after it (flowd install makes it one)\n",
		st.PID, socket, ondemand.LogFile())
	return nil
}

// errNotRunning is stopOnDemand's answer when no flowd answers.
var errNotRunning = errors.New("no flowd answers")

// stopOnDemand stops the flowd that answers on socket (see
// ondemand.Terminate) and returns its pid.
func stopOnDemand(socket string, timeout time.Duration) (pid int, err error) {
	st, err := flowdclient.NewClient(socket, 5*time.Second).Status()
	if err != nil || !st.Running {
		if _, accepts := localsock.Find([]string{socket}, time.Second); err != nil && accepts {
			// Its pid would come from the socket's peer credentials, which
			// name whoever listened: systemd's pid 1 for an activated socket.
			return 0, fmt.Errorf("a flowd accepts connections on %s but does not answer (%v): it hangs or was stopped (SIGSTOP); end it by its pid (pgrep -af 'flowd run')", socket, err)
		}
		return 0, fmt.Errorf("%w on %s", errNotRunning, socket)
	}
	if err := ondemand.Terminate(st.PID, timeout); err != nil {
		return st.PID, fmt.Errorf("%w, which serves %s", err, socket)
	}
	return st.PID, nil
}

// scopeFlags adds --user and --system; the function it returns reads them,
// with def when neither is given.
func scopeFlags(fl *flag.FlagSet) func(def service.Scope) (service.Scope, error) {
	user := fl.Bool("user", false, "flowd as your user's service (the default on Linux and macOS)")
	system := fl.Bool("system", false, "flowd as the machine's service (systemd; needs root)")
	return func(def service.Scope) (service.Scope, error) {
		switch {
		case *user && *system:
			return "", errors.New("--user and --system exclude each other")
		case *user:
			return service.User, nil
		case *system:
			return service.System, nil
		}
		return def, nil
	}
}

// installed is the service the flags name, else the installed one.
func installed(scope func(service.Scope) (service.Scope, error)) (*service.Service, error) {
	exe, err := executable()
	if err != nil {
		return nil, err
	}
	sc, err := scope("")
	if err != nil {
		return nil, err
	}
	if sc == "" {
		return service.Find(exe)
	}
	return service.New(sc, service.DefaultLayout(sc, exe))
}

// executable is the flowd the service will run: this one, unless it is a
// throwaway build.
func executable() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find the flowd executable: %w", err)
	}
	if exe, err = filepath.EvalSymlinks(exe); err != nil {
		return "", fmt.Errorf("find the flowd executable: %w", err)
	}
	if strings.Contains(exe, string(filepath.Separator)+"go-build") {
		return "", fmt.Errorf("%s is a temporary build (go run): go build or go install flowd, then run that one's install", exe)
	}
	return exe, nil
}

// serviceStatus is the service's state for `flowd status`; a machine
// where flowd cannot be a service says why in Problem.
func serviceStatus() service.Status {
	exe, err := os.Executable()
	if err != nil {
		return service.Status{Problem: err.Error()}
	}
	s, err := service.Find(exe)
	if err != nil {
		return service.Status{Problem: err.Error()}
	}
	return s.Status()
}

// describe says in a few words what the service is and what state it is in.
func describe(st service.Status) string {
	if st.Manager == "" {
		return "unavailable: " + st.Problem
	}
	kind := map[service.Manager]string{service.Systemd: "systemd " + string(st.Scope) + " unit",
		service.Launchd: "launchd agent", service.Windows: "Windows service"}[st.Manager]
	if !st.Installed {
		return kind + ": not installed (flowd install sets it up)"
	}
	state := []string{"installed"}
	for _, f := range []struct {
		on       bool
		yes, not string
	}{{st.Enabled, "enabled", "disabled"}, {st.Running, "running", "not running"}} {
		if f.on {
			state = append(state, f.yes)
		} else {
			state = append(state, f.not)
		}
	}
	out := kind + " " + st.Unit + ": " + strings.Join(state, ", ")
	if st.Problem != "" {
		out += " (" + st.Problem + ")"
	}
	return out
}
