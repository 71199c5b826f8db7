package service

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	kservice "github.com/kardianos/service"

	"github.com/flowd-dev/flowd/internal/paths"
)

// Manager names the service manager flowd is installed into.
type Manager string

const (
	Systemd Manager = "systemd"
	Launchd Manager = "launchd"
	Windows Manager = "windows"
)

// managers maps kardianos/service's names for the managers flowd supports.
var managers = map[string]Manager{
	"linux-systemd":   Systemd,
	"darwin-launchd":  Launchd,
	"windows-service": Windows,
}

// Change says what Install did.
type Change string

const (
	Installed Change = "installed"
	Updated   Change = "updated"
	Unchanged Change = "unchanged"
)

// Status is the service's state as its manager sees it.
type Status struct {
	Manager   Manager `json:"manager"`
	Scope     Scope   `json:"scope"`
	Installed bool    `json:"installed"`
	Enabled   bool    `json:"enabled"`
	Running   bool    `json:"running"`
	// Unit is the file that defines the service, where there is one.
	Unit string `json:"unit,omitempty"`
	// Problem is what kept the state from being read, or a failed state.
	Problem string `json:"problem,omitempty"`
}

// Service is flowd's service in one scope on this machine.
type Service struct {
	manager Manager
	scope   Scope
	layout  Layout
	k       kservice.Service
	// systemd only: where the units and the account definition go.
	unitDir, sysusersDir string
}

// DefaultLayout is where a service of scope keeps its files: the same
// paths the CLI and the shims compute for a user, and the usual system
// directories (/etc, /run, /var/lib) for the machine.
func DefaultLayout(scope Scope, executable string) Layout {
	if scope == System {
		return Layout{Executable: executable, Config: "/etc/flowd/config.toml",
			Socket: paths.SystemSocket, DataDir: "/var/lib/flowd", LogFile: "/var/log/flowd.log"}
	}
	l := Layout{Executable: executable, Config: paths.ConfigFile(), Socket: paths.UserSocket(), DataDir: paths.DataDir()}
	if home, err := os.UserHomeDir(); err == nil {
		l.LogFile = filepath.Join(home, "Library", "Logs", "flowd.log")
	}
	return l
}

// ErrNoManager says that this machine has no service manager flowd can
// be installed into. It is a normal machine: flowd then runs on demand.
var ErrNoManager = errors.New("flowd installs into systemd, launchd or the Windows service manager, and this machine runs none of them: " +
	"a shim starts flowd when it needs it, and flowd start|stop|restart control that one")

// New describes flowd's service of scope under this machine's service
// manager. It fails where flowd cannot be a service: a Linux without
// systemd, or a scope the manager does not have.
func New(scope Scope, l Layout) (*Service, error) {
	sys := kservice.ChosenSystem()
	if sys == nil {
		return nil, fmt.Errorf("%w (none found on %s)", ErrNoManager, runtime.GOOS)
	}
	return newWith(sys, scope, l)
}

// newWith uses sys whatever the machine has, so tests can drive the
// systemd code on a machine whose init is something else.
func newWith(sys kservice.System, scope Scope, l Layout) (*Service, error) {
	m, ok := managers[sys.String()]
	if !ok {
		return nil, fmt.Errorf("%w (found %s)", ErrNoManager, sys.String())
	}
	if m == Launchd && scope == System {
		return nil, fmt.Errorf("a system-wide install is for systemd only: on macOS flowd runs as the user's launchd agent (drop --system)")
	}
	if m == Windows {
		// The Windows service manager has no per-user services.
		scope = System
	}
	s := &Service{manager: m, scope: scope, layout: l}
	cfg := &kservice.Config{
		Name:        Name,
		DisplayName: "flowd",
		Description: "flowd data-flow firewall for AI agents",
		Executable:  l.Executable,
		Arguments:   []string{"run", "--config", l.Config, "--socket", l.Socket, "--data-dir", l.DataDir},
		Option:      kservice.KeyValue{"UserService": scope == User},
	}
	switch m {
	case Systemd:
		// Where clients look for it (paths.SystemUnit).
		s.unitDir, s.sysusersDir = filepath.Dir(paths.SystemUnit), "/etc/sysusers.d"
		if scope == User {
			// kardianos/service puts user units here, under $HOME.
			home, err := os.UserHomeDir()
			if err != nil {
				return nil, fmt.Errorf("find home directory for the user unit: %w", err)
			}
			s.unitDir = filepath.Join(home, ".config", "systemd", "user")
		}
		files, err := s.systemdFiles()
		if err != nil {
			return nil, err
		}
		cfg.Option["SystemdScript"] = string(files[0].Content)
	case Launchd:
		plist, err := launchdPlist(l)
		if err != nil {
			return nil, err
		}
		cfg.Option["LaunchdConfig"] = string(plist)
	case Windows:
		cfg.Option["StartType"] = "automatic"
		cfg.Option["OnFailure"] = "restart"
		cfg.Option["OnFailureDelayDuration"] = "2s"
	}
	k, err := sys.New(program{}, cfg)
	if err != nil {
		return nil, fmt.Errorf("set up %s service: %w", m, err)
	}
	s.k = k
	return s, nil
}

// program is what kardianos/service runs; installing and controlling a
// service never runs it.
type program struct{}

func (program) Start(kservice.Service) error { return nil }
func (program) Stop(kservice.Service) error  { return nil }

// Install installs the service, enables it and starts it. Installing what
// is already installed and enabled changes nothing.
func (s *Service) Install() (Change, error) {
	switch s.manager {
	case Systemd:
		return s.installSystemd()
	case Launchd:
		return s.installLaunchd()
	}
	st := s.Status()
	if st.Installed {
		return Unchanged, nil
	}
	if err := s.k.Install(); err != nil {
		return "", fmt.Errorf("install Windows service %s: %w", Name, err)
	}
	if err := s.k.Start(); err != nil {
		return "", fmt.Errorf("start Windows service %s: %w", Name, err)
	}
	return Installed, nil
}

func (s *Service) installLaunchd() (Change, error) {
	plist, err := launchdPlist(s.layout)
	if err != nil {
		return "", err
	}
	path := s.plistPath()
	old, err := os.ReadFile(path)
	switch {
	case err == nil && bytes.Equal(old, plist):
		return Unchanged, nil
	case err == nil:
		// kardianos/service does not overwrite: unload and remove the old agent.
		if err := s.k.Uninstall(); err != nil {
			return "", fmt.Errorf("remove the old launchd agent %s: %w", path, err)
		}
	case !errors.Is(err, os.ErrNotExist):
		return "", fmt.Errorf("read launchd agent %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(s.layout.LogFile), 0o700); err != nil {
		return "", fmt.Errorf("create log directory: %w", err)
	}
	if err := s.k.Install(); err != nil {
		return "", fmt.Errorf("install launchd agent %s: %w", path, err)
	}
	if err := s.k.Start(); err != nil {
		return "", fmt.Errorf("load launchd agent %s: %w", path, err)
	}
	if old != nil {
		return Updated, nil
	}
	return Installed, nil
}

func (s *Service) plistPath() string {
	home, _ := os.UserHomeDir()
	return filepath.Join(home, "Library", "LaunchAgents", Name+".plist")
}

// Uninstall stops the service and removes it. The data directory stays
// unless purge is set: it holds the activity log the user may still want.
// Uninstalling what is not installed changes nothing (but still purges).
func (s *Service) Uninstall(purge bool) (removed bool, err error) {
	switch s.manager {
	case Systemd:
		removed, err = s.uninstallSystemd()
	case Launchd:
		if _, statErr := os.Stat(s.plistPath()); statErr == nil {
			removed, err = true, s.k.Uninstall()
		}
	case Windows:
		if s.Status().Installed {
			s.k.Stop() // a stopped service cannot be stopped again; Uninstall says what matters
			removed, err = true, s.k.Uninstall()
		}
	}
	if err != nil {
		return removed, fmt.Errorf("uninstall %s service: %w", s.manager, err)
	}
	if purge {
		if err := os.RemoveAll(s.layout.DataDir); err != nil {
			return removed, fmt.Errorf("remove data dir %s: %w", s.layout.DataDir, err)
		}
	}
	return removed, nil
}

// Start starts the service (on systemd: its socket too).
func (s *Service) Start() error {
	if s.manager == Systemd {
		return s.systemctl("start", Name+".socket", Name+".service")
	}
	return wrap("start", s.k.Start())
}

// Stop stops the service. On systemd the socket stops too: otherwise the
// next connection would start flowd again.
func (s *Service) Stop() error {
	if s.manager == Systemd {
		return s.systemctl("stop", Name+".socket", Name+".service")
	}
	return wrap("stop", s.k.Stop())
}

// Restart restarts flowd. On systemd the socket stays open meanwhile, so
// shims and hooks that connect wait in its backlog instead of failing.
func (s *Service) Restart() error {
	return wrap("restart", s.k.Restart())
}

func wrap(what string, err error) error {
	if err != nil {
		return fmt.Errorf("%s service %s: %w", what, Name, err)
	}
	return nil
}

// Status reads the service's state. It never fails: what it could not
// read is in Problem.
func (s *Service) Status() Status {
	st := Status{Manager: s.manager, Scope: s.scope}
	switch s.manager {
	case Systemd:
		st.Unit = filepath.Join(s.unitDir, Name+".service")
		_, err := os.Stat(st.Unit)
		st.Installed = err == nil
		st.Enabled = st.Installed && s.enabled()
	case Launchd:
		st.Unit = s.plistPath()
		_, err := os.Stat(st.Unit)
		st.Installed = err == nil
		st.Enabled = st.Installed // RunAtLoad: an installed agent starts at login
	}
	ks, err := s.k.Status()
	switch {
	case errors.Is(err, kservice.ErrNotInstalled):
		if s.manager == Windows {
			st.Installed = false
		}
	case err != nil:
		st.Problem = err.Error()
	default:
		if s.manager == Windows {
			// Installed with StartType automatic: enabled.
			st.Installed, st.Enabled = true, true
		}
		st.Running = ks == kservice.StatusRunning
	}
	return st
}

// Find returns flowd's installed service: the user's if there is one,
// else the machine's, else (none installed) the user's.
func Find(executable string) (*Service, error) {
	var first *Service
	for _, scope := range []Scope{User, System} {
		s, err := New(scope, DefaultLayout(scope, executable))
		if err != nil {
			if first == nil && scope == User {
				return nil, err
			}
			continue
		}
		if first == nil {
			first = s
		}
		if s.Status().Installed {
			return s, nil
		}
	}
	return first, nil
}
