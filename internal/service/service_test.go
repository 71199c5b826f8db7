package service

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	kservice "github.com/kardianos/service"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeSystemctl stands in for systemctl: it logs each call and keeps the
// units' enabled and active states as files, answering is-enabled,
// is-active and list-unit-files from them the way systemctl does.
const fakeSystemctl = `#!/bin/sh
echo "$*" >>"$FAKE_STATE/calls"
verb= units= skip=
for a in "$@"; do
	if [ -n "$skip" ]; then skip=; continue; fi
	case $a in
	-t) skip=1 ;;
	-*) ;;
	*) if [ -z "$verb" ]; then verb=$a; else units="$units $a"; fi ;;
	esac
done
for u in $units; do
	case $verb in
	enable) touch "$FAKE_STATE/enabled.$u"; [ "$u" = flowd.service ] && touch "$FAKE_STATE/enabled.flowd.socket" ;;
	disable) rm -f "$FAKE_STATE/enabled.$u"; [ "$u" = flowd.service ] && rm -f "$FAKE_STATE/enabled.flowd.socket" ;;
	start|restart) touch "$FAKE_STATE/active.$u" ;;
	stop) rm -f "$FAKE_STATE/active.$u" ;;
	is-enabled) if [ -e "$FAKE_STATE/enabled.$u" ]; then echo enabled; else echo disabled; exit 1; fi ;;
	is-active) if [ -e "$FAKE_STATE/active.$u" ]; then echo active; else echo inactive; exit 3; fi ;;
	list-unit-files) [ -e "$HOME/.config/systemd/user/$u" ] && echo "$u enabled" ;;
	esac
done
exit 0
`

// fakeSystemd makes a temp HOME and a systemctl on PATH that only pretends,
// and returns a user-scope Service built on kardianos/service's systemd
// backend whatever this machine's init is.
func fakeSystemd(t *testing.T) (*Service, string, func() []string) {
	if runtime.GOOS != "linux" {
		t.Skip("kardianos/service has its systemd backend on Linux only")
	}
	home, state, bin := t.TempDir(), t.TempDir(), t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(bin, "systemctl"), []byte(fakeSystemctl), 0o755))
	t.Setenv("HOME", home)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("FAKE_STATE", state)
	l := Layout{Executable: "/opt/flowd/bin/flowd", Config: filepath.Join(home, ".config/flowd/config.toml"),
		Socket: filepath.Join(home, "run/flowd/flowd.sock"), DataDir: filepath.Join(home, ".local/state/flowd")}
	s, err := newWith(systemdBackend(t), User, l)
	require.NoError(t, err)
	calls := func() []string {
		b, _ := os.ReadFile(filepath.Join(state, "calls"))
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		os.Remove(filepath.Join(state, "calls"))
		if lines[0] == "" {
			return nil
		}
		return lines
	}
	return s, home, calls
}

func TestSystemdUserInstallLifecycle(t *testing.T) {
	s, home, calls := fakeSystemd(t)
	unitDir := filepath.Join(home, ".config/systemd/user")

	st := s.Status()
	assert.Equal(t, Status{Manager: Systemd, Scope: User, Unit: filepath.Join(unitDir, "flowd.service")}, st)
	calls()

	change, err := s.Install()
	require.NoError(t, err)
	assert.Equal(t, Installed, change)
	assert.Equal(t, []string{
		"enable --user flowd.service", // kardianos/service: enable, then reload
		"daemon-reload --user",
		"--user start flowd.socket flowd.service",
	}, calls())
	for _, unit := range []string{"flowd.service", "flowd.socket"} {
		got, err := os.ReadFile(filepath.Join(unitDir, unit))
		require.NoError(t, err)
		want, err := systemdFiles(User, s.layout, unitDir, "")
		require.NoError(t, err)
		assert.Contains(t, []string{string(want[0].Content), string(want[1].Content)}, string(got), unit)
	}
	assert.DirExists(t, s.layout.DataDir, "ReadWritePaths= needs it")

	st = s.Status()
	assert.True(t, st.Installed && st.Enabled && st.Running, "%+v", st)
	calls()

	change, err = s.Install()
	require.NoError(t, err)
	assert.Equal(t, Unchanged, change)
	assert.Equal(t, []string{"--user is-enabled flowd.service"}, calls(), "installing twice only looks")

	// A new binary path rewrites the unit and restarts flowd.
	moved := s.layout
	moved.Executable = "/usr/bin/flowd"
	s2, err := newWith(systemdBackend(t), User, moved)
	require.NoError(t, err)
	change, err = s2.Install()
	require.NoError(t, err)
	assert.Equal(t, Updated, change)
	assert.Contains(t, calls(), "--user restart flowd.socket flowd.service")
	unit, err := os.ReadFile(filepath.Join(unitDir, "flowd.service"))
	require.NoError(t, err)
	assert.Contains(t, string(unit), "ExecStart=/usr/bin/flowd run ")

	require.NoError(t, s2.Restart())
	assert.Equal(t, []string{"restart --user flowd.service"}, calls(), "the socket stays open across a restart")
	require.NoError(t, s2.Stop())
	assert.Equal(t, []string{"--user stop flowd.socket flowd.service"}, calls())
	st = s2.Status()
	assert.True(t, st.Installed && st.Enabled && !st.Running, "%+v", st)
	calls()

	// Data written while installed stays after uninstall, unless purged.
	require.NoError(t, os.WriteFile(filepath.Join(s.layout.DataDir, "activity.db"), []byte("x"), 0o600))
	removed, err := s2.Uninstall(false)
	require.NoError(t, err)
	assert.True(t, removed)
	assert.Equal(t, []string{
		"--user stop flowd.socket flowd.service",
		"disable --user flowd.service",
		"daemon-reload --user",
		"--user daemon-reload",
	}, calls())
	assert.NoFileExists(t, filepath.Join(unitDir, "flowd.service"))
	assert.NoFileExists(t, filepath.Join(unitDir, "flowd.socket"))
	assert.FileExists(t, filepath.Join(s.layout.DataDir, "activity.db"))
	assert.False(t, s2.Status().Installed)

	removed, err = s2.Uninstall(true)
	require.NoError(t, err)
	assert.False(t, removed, "uninstalling twice is a no-op")
	assert.NoDirExists(t, s.layout.DataDir, "--purge removes the data dir")
}

// systemdBackend is kardianos/service's systemd backend, chosen by name
// rather than by what runs as pid 1 here.
func systemdBackend(t *testing.T) kservice.System {
	for _, s := range kservice.AvailableSystems() {
		if s.String() == "linux-systemd" {
			return s
		}
	}
	t.Fatal("no linux-systemd backend")
	return nil
}

// A unit written by an install whose `systemctl enable` failed is not
// "already installed": installing again finishes the job.
func TestSystemdInstallRetriesWhenNotEnabled(t *testing.T) {
	s, home, calls := fakeSystemd(t)
	_, err := s.Install()
	require.NoError(t, err)
	require.NoError(t, os.Remove(filepath.Join(os.Getenv("FAKE_STATE"), "enabled.flowd.service")))
	calls()
	change, err := s.Install()
	require.NoError(t, err)
	assert.Equal(t, Updated, change)
	assert.Contains(t, calls(), "enable --user flowd.service")
	assert.FileExists(t, filepath.Join(home, ".config/systemd/user/flowd.socket"))
}

func TestNewRefusesUnsupportedManagers(t *testing.T) {
	for _, sys := range kservice.AvailableSystems() {
		_, err := newWith(sys, User, userLayout)
		if _, ok := managers[sys.String()]; ok {
			assert.NoError(t, err, sys.String())
		} else {
			assert.ErrorIs(t, err, ErrNoManager, sys.String())
		}
	}
}

// What started flowd, from what each starter leaves in its environment.
func TestStartedBy(t *testing.T) {
	for _, tc := range []struct {
		env     map[string]string
		service bool
		want    string
	}{
		{map[string]string{}, false, ByHand},
		{map[string]string{"FLOWD_STARTED_BY": "on-demand"}, false, ByOnDemand},
		{map[string]string{"FLOWD_STARTED_BY": "on-demand", "NOTIFY_SOCKET": "/run/systemd/notify", "INVOCATION_ID": "ab"}, false, ByOnDemand},
		{map[string]string{"NOTIFY_SOCKET": "/run/user/1000/systemd/notify", "INVOCATION_ID": "ab12"}, false, BySystemd},
		{map[string]string{"INVOCATION_ID": "ab12"}, false, ByHand}, // a shell in a terminal systemd started
		{map[string]string{"XPC_SERVICE_NAME": "flowd"}, false, ByLaunchd},
		{map[string]string{"XPC_SERVICE_NAME": "application.com.apple.Terminal.123"}, false, ByHand},
		{map[string]string{"FLOWD_STARTED_BY": "systemd"}, false, ByHand}, // only the value ondemand sets counts
		{map[string]string{}, true, ByWindows},
	} {
		assert.Equal(t, tc.want, StartedBy(func(k string) string { return tc.env[k] }, tc.service), "%v %v", tc.env, tc.service)
	}
}
