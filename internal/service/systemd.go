package service

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

func (s *Service) systemdFiles() ([]File, error) {
	return systemdFiles(s.scope, s.layout, s.unitDir, s.sysusersDir)
}

// installSystemd writes the units, enables them (the service's Also=
// enables the socket) and starts them. kardianos/service writes the
// service unit and enables it; the socket unit and the account are ours.
func (s *Service) installSystemd() (Change, error) {
	files, err := s.systemdFiles()
	if err != nil {
		return "", err
	}
	unit := files[0].Path
	same, existed := true, false
	for _, f := range files {
		old, err := os.ReadFile(f.Path)
		switch {
		case err == nil:
			existed = existed || f.Path == unit
			same = same && bytes.Equal(old, f.Content)
		case errors.Is(err, os.ErrNotExist):
			same = false
		default:
			return "", fmt.Errorf("read %s: %w", f.Path, err)
		}
	}
	// A unit that is written but not enabled is an install that failed
	// half way (say, with no user session bus): do it again.
	if same && s.enabled() {
		return Unchanged, nil
	}
	if s.scope == User {
		// ReadWritePaths= needs the data dir to exist when flowd starts.
		if err := os.MkdirAll(s.layout.DataDir, 0o700); err != nil {
			return "", fmt.Errorf("create data dir %s: %w", s.layout.DataDir, err)
		}
	}
	if err := os.MkdirAll(s.unitDir, 0o755); err != nil {
		return "", fmt.Errorf("create unit directory %s: %w", s.unitDir, err)
	}
	for _, f := range files[1:] {
		if err := writeFile(f); err != nil {
			return "", err
		}
	}
	if s.scope == System {
		if out, err := exec.Command("systemd-sysusers", files[2].Path).CombinedOutput(); err != nil {
			return "", fmt.Errorf("create the flowd account (systemd-sysusers %s): %w: %s", files[2].Path, err, bytes.TrimSpace(out))
		}
	}
	// kardianos/service does not overwrite a unit.
	if err := os.Remove(unit); err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("remove old unit %s: %w", unit, err)
	}
	if err := s.k.Install(); err != nil {
		return "", fmt.Errorf("install %s and enable it (systemctl%s enable %s.service): %w%s",
			unit, s.userFlag(), Name, err, s.busHint())
	}
	verb, change := "start", Installed
	if existed {
		verb, change = "restart", Updated
	}
	if err := s.systemctl(verb, Name+".socket", Name+".service"); err != nil {
		return "", err
	}
	return change, nil
}

// uninstallSystemd stops and disables the units and removes their files.
// The system account stays: files may still belong to it.
func (s *Service) uninstallSystemd() (bool, error) {
	files, err := s.systemdFiles()
	if err != nil {
		return false, err
	}
	var present []File
	for _, f := range files {
		if _, err := os.Stat(f.Path); err == nil {
			present = append(present, f)
		}
	}
	if len(present) == 0 {
		return false, nil
	}
	// Units that were never loaded cannot be stopped; that is no failure.
	s.systemctl("stop", Name+".socket", Name+".service")
	if _, err := os.Stat(files[0].Path); err == nil {
		if err := s.k.Uninstall(); err != nil {
			return true, fmt.Errorf("disable and remove %s (systemctl%s disable %s.service): %w", files[0].Path, s.userFlag(), Name, err)
		}
	} else if err := s.systemctl("disable", Name+".socket"); err != nil {
		return true, err
	}
	for _, f := range files[1:] {
		if err := os.Remove(f.Path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return true, fmt.Errorf("remove %s: %w", f.Path, err)
		}
	}
	return true, s.systemctl("daemon-reload")
}

func writeFile(f File) error {
	if err := os.WriteFile(f.Path, f.Content, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", f.Path, err)
	}
	return nil
}

func (s *Service) enabled() bool {
	args := []string{"is-enabled", Name + ".service"}
	if s.scope == User {
		args = append([]string{"--user"}, args...)
	}
	// Not enabled is a non-zero exit: the answer is on stdout either way.
	out, _ := exec.Command("systemctl", args...).Output()
	return strings.TrimSpace(string(out)) == "enabled"
}

func (s *Service) userFlag() string {
	if s.scope == User {
		return " --user"
	}
	return ""
}

// busHint explains the commonest failure of systemctl --user.
func (s *Service) busHint() string {
	if s.scope == User {
		return " (systemctl --user needs your systemd user session: log in normally rather than through su or sudo, or run `loginctl enable-linger $USER`)"
	}
	return ""
}

func (s *Service) systemctl(args ...string) error {
	if out, err := s.systemctlOutput(args...); err != nil {
		return fmt.Errorf("systemctl%s %s: %w: %s%s", s.userFlag(), strings.Join(args, " "), err, strings.TrimSpace(out), s.busHint())
	}
	return nil
}

func (s *Service) systemctlOutput(args ...string) (string, error) {
	if s.scope == User {
		args = append([]string{"--user"}, args...)
	}
	out, err := exec.Command("systemctl", args...).CombinedOutput()
	return string(out), err
}
