package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/service"
)

// cmdInstall installs flowd as a service, enables and starts it.
func cmdInstall(args []string) error {
	fl := flag.NewFlagSet("flowd install", flag.ContinueOnError)
	scope := scopeFlags(fl)
	if err := fl.Parse(args); err != nil {
		return exitError(2)
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
	}
	return nil
}

// handOver stops a flowd that a shim started on demand on the service's
// socket. Left running it would keep the socket's lock, and the service's
// flowd would exit at every start; its shims reconnect to the service.
func handOver(socket string) error {
	st, err := flowdclient.NewClient(socket, 2*time.Second).Status()
	if err != nil || !st.Running {
		return nil
	}
	fmt.Printf("stopping the flowd started on demand (pid %d) so the service can take over its socket\n", st.PID)
	p, err := os.FindProcess(st.PID)
	if err == nil {
		err = p.Signal(syscall.SIGTERM)
	}
	if err != nil {
		return fmt.Errorf("stop flowd pid %d, which serves %s: %w (stop it yourself, then install again)", st.PID, socket, err)
	}
	// It is not our child: all there is to watch is the socket going quiet.
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if _, err := flowdclient.NewClient(socket, time.Second).Status(); err != nil {
			return nil
		}
	}
	return fmt.Errorf("flowd pid %d still serves %s 15s after SIGTERM: stop it yourself, then install again", st.PID, socket)
}

// cmdUninstall stops and removes the service; --purge removes the data.
func cmdUninstall(args []string) error {
	fl := flag.NewFlagSet("flowd uninstall", flag.ContinueOnError)
	scope := scopeFlags(fl)
	purge := fl.Bool("purge", false, "also remove the data directory (the activity log)")
	if err := fl.Parse(args); err != nil {
		return exitError(2)
	}
	s, err := installed(scope)
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

// cmdControl starts, stops or restarts the installed service.
func cmdControl(verb string, args []string) error {
	fl := flag.NewFlagSet("flowd "+verb, flag.ContinueOnError)
	scope := scopeFlags(fl)
	if err := fl.Parse(args); err != nil {
		return exitError(2)
	}
	s, err := installed(scope)
	if err != nil {
		return err
	}
	if !s.Status().Installed {
		return fmt.Errorf("flowd is not installed as a service: flowd install, or flowd run in the foreground")
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
