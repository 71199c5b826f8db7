package installers

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func script(t *testing.T, name string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("/bin/sh", append([]string{name}, args...)...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// The scripts build, install and remove the binaries, and a second run of
// each changes nothing. The service half needs a running systemd or
// launchd and would install a real service, so it is left to
// internal/service's tests; here --no-service.
func TestInstallAndUninstallScriptsAreIdempotent(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("install.sh builds with go, which is not on PATH")
	}
	prefix := filepath.Join(t.TempDir(), "bin")
	out, err := script(t, "install.sh", "--prefix", prefix, "--no-service")
	require.NoError(t, err, out)
	for _, b := range []string{"shim", "flowd", "hook"} {
		fi, err := os.Stat(filepath.Join(prefix, b))
		require.NoError(t, err, out)
		assert.Equal(t, os.FileMode(0o755), fi.Mode().Perm())
		assert.Contains(t, out, "installed "+filepath.Join(prefix, b))
	}
	assert.Contains(t, out, "flowd ", "flowd version ran")

	out, err = script(t, "install.sh", "--prefix", prefix, "--no-service")
	require.NoError(t, err, out)
	assert.Equal(t, 3, strings.Count(out, "is up to date"), out)
	assert.NotContains(t, out, "installed "+prefix)

	out, err = script(t, "uninstall.sh", "--prefix", prefix, "--no-service")
	require.NoError(t, err, out)
	assert.Equal(t, 3, strings.Count(out, "removed "), out)
	entries, err := os.ReadDir(prefix)
	require.NoError(t, err)
	assert.Empty(t, entries)

	out, err = script(t, "uninstall.sh", "--prefix", prefix, "--no-service")
	require.NoError(t, err, out)
	assert.NotContains(t, out, "removed ")
}

func TestInstallScriptRefusesMissingBinaries(t *testing.T) {
	out, err := script(t, "install.sh", "--prefix", t.TempDir(), "--from", t.TempDir())
	assert.Error(t, err)
	assert.Contains(t, out, "shim is missing or not executable")
	out, err = script(t, "install.sh", "--bogus")
	assert.Error(t, err)
	assert.Contains(t, out, "unknown argument --bogus")
}

func TestTemplatesAreEmbedded(t *testing.T) {
	for _, name := range []string{"systemd/flowd.service", "systemd/flowd.socket", "systemd/flowd.sysusers", "launchd/flowd.plist"} {
		b, err := Templates.ReadFile(name)
		require.NoError(t, err)
		assert.Contains(t, string(b), "{{", "%s is a template", name)
	}
}

// On a machine without systemd or launchd, flowd install exits 3, and
// install.sh goes on without a service and says that flowd runs on
// demand; any other failure of flowd install is install.sh's failure.
// The flowd here is a stand-in that fails install as told.
func TestInstallScriptFallsBackToOnDemandWithoutServiceManager(t *testing.T) {
	for _, tc := range []struct {
		installExit int
		ok          bool
	}{{3, true}, {1, false}} {
		from := t.TempDir()
		for _, b := range []string{"shim", "hook"} {
			require.NoError(t, os.WriteFile(filepath.Join(from, b), []byte("#!/bin/sh\n"), 0o755))
		}
		flowd := fmt.Sprintf("#!/bin/sh\n[ \"$1\" = install ] && { echo 'flowd: no service manager' >&2; exit %d; }\nexit 0\n", tc.installExit)
		require.NoError(t, os.WriteFile(filepath.Join(from, "flowd"), []byte(flowd), 0o755))

		out, err := script(t, "install.sh", "--prefix", t.TempDir(), "--from", from)
		if tc.ok {
			require.NoError(t, err, out)
			assert.Contains(t, out, "flowd runs on demand, started by the first shim that needs it", "exit %d", tc.installExit)
		} else {
			require.Error(t, err, out)
			assert.NotContains(t, out, "on demand", "exit %d", tc.installExit)
		}
	}
}
