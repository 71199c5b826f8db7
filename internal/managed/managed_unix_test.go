//go:build unix

package managed

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/config"
)

// policyDir is a fresh directory whose every ancestor only root or this
// user may write, as the managed file's must be. t.TempDir is under /tmp,
// which anyone may write, so it is made in the user's cache directory.
func policyDir(t *testing.T) string {
	t.Helper()
	base, err := os.UserCacheDir()
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(base, 0o755))
	dir, err := os.MkdirTemp(base, "flowd-managed-test-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	require.NoError(t, os.Chmod(dir, 0o755))
	if err := checkDirs(dir, os.Getuid(), false); err != nil {
		t.Skipf("the cache directory cannot hold a trusted test policy on this machine: %v", err)
	}
	return dir
}

func write(t *testing.T, path, data string, mode os.FileMode) string {
	t.Helper()
	require.NoError(t, os.WriteFile(path, []byte(data), mode))
	require.NoError(t, os.Chmod(path, mode)) // past the umask
	return path
}

func TestLoadBoundsTheUserFile(t *testing.T) {
	dir := policyDir(t)
	mgd := write(t, filepath.Join(dir, "managed.toml"), "[shim]\nfail_mode = \"closed\"\n[policy]\nsensitive_data_external = \"deny\"\n", 0o644)
	user := write(t, filepath.Join(t.TempDir(), "config.toml"), "[policy]\nsensitive_data_external = \"warn\"\ndefault_action = \"ask\"\n", 0o600)

	e, err := load(mgd, os.Getuid(), user, true)
	var merr *config.ManagedError
	require.True(t, errors.As(err, &merr), "want a *config.ManagedError, got %v", err)
	assert.Contains(t, err.Error(), user+":2: policy.sensitive_data_external")
	assert.Contains(t, err.Error(), mgd+":4 sets 'deny'")
	require.NotNil(t, e, "the config that holds the managed values comes with the error")
	assert.Equal(t, config.ActionDeny, e.Config.Policy.SensitiveDataExternal)
	assert.Equal(t, config.ActionAsk, e.Config.Policy.DefaultAction)

	write(t, user, "[policy]\ndefault_action = \"ask\"\n", 0o600)
	e, err = load(mgd, os.Getuid(), user, true)
	require.NoError(t, err)
	assert.Equal(t, config.FailClosed, e.Config.Shim.FailMode)
	assert.Equal(t, config.FromManaged, e.Sources["shim.fail_mode"])
	assert.Equal(t, config.FromUser, e.Sources["policy.default_action"])
	assert.Equal(t, mgd, e.Managed)

	// No user file: the defaults, bounded.
	e, err = load(mgd, os.Getuid(), filepath.Join(t.TempDir(), "none.toml"), false)
	require.NoError(t, err)
	assert.Equal(t, config.FailClosed, e.Config.Shim.FailMode)
	assert.Empty(t, e.User)
	_, err = load(mgd, os.Getuid(), filepath.Join(t.TempDir(), "none.toml"), true)
	assert.ErrorIs(t, err, os.ErrNotExist)
}

func TestLoadWithoutAManagedFile(t *testing.T) {
	dir := policyDir(t)
	user := write(t, filepath.Join(t.TempDir(), "config.toml"), "[shim]\nfail_mode = \"open\"\n", 0o600)
	e, err := load(filepath.Join(dir, "flowd", "managed.toml"), os.Getuid(), user, true)
	require.NoError(t, err)
	assert.Empty(t, e.Managed)
	assert.Equal(t, config.FromUser, e.Sources["shim.fail_mode"])
}

// No policy directory at all, under a parent every user may write (as
// Windows' %ProgramData% is): no policy was installed, so there is none.
func TestLoadWithoutAPolicyDirectory(t *testing.T) {
	parent := t.TempDir()
	require.NoError(t, os.Chmod(parent, 0o1777))
	e, err := load(filepath.Join(parent, "flowd", "managed.toml"), os.Getuid(), "", false)
	require.NoError(t, err)
	assert.Empty(t, e.Managed)
}

// A managed file that anyone but the administrator could have written is
// refused, and no config comes back: the callers fail safe.
func TestLoadRefusesAnUntrustedPolicy(t *testing.T) {
	const policy = "[shim]\nfail_mode = \"closed\"\n"
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) string
		want  string
	}{
		{"a group of users may write the file", func(t *testing.T, dir string) string {
			p := write(t, filepath.Join(dir, "managed.toml"), policy, 0o664)
			if adminGroup(os.Getgid()) {
				if os.Getuid() != 0 {
					t.Skip("this user's group is an administrators' group, and only root can give the file another")
				}
				require.NoError(t, os.Chown(p, -1, 4242))
			}
			return p
		}, "(mode 0664), whose members need not be administrators"},
		{"others may write the file", func(t *testing.T, dir string) string {
			return write(t, filepath.Join(dir, "managed.toml"), policy, 0o646)
		}, "is writable by others (mode 0646)"},
		{"others may write its directory", func(t *testing.T, dir string) string {
			sub := filepath.Join(dir, "flowd")
			require.NoError(t, os.Mkdir(sub, 0o755))
			require.NoError(t, os.Chmod(sub, 0o777))
			return write(t, filepath.Join(sub, "managed.toml"), policy, 0o644)
		}, "flowd is writable by others (mode 0777)"},
		{"missing from a directory others may write", func(t *testing.T, dir string) string {
			sub := filepath.Join(dir, "flowd")
			require.NoError(t, os.Mkdir(sub, 0o755))
			require.NoError(t, os.Chmod(sub, 0o1777))
			return filepath.Join(sub, "managed.toml")
		}, "is writable by others"},
		{"a link to nothing", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "managed.toml")
			require.NoError(t, os.Symlink(filepath.Join(dir, "gone.toml"), p))
			return p
		}, "is a link to nothing"},
		{"a link into a directory others may write", func(t *testing.T, dir string) string {
			open := t.TempDir() // under /tmp
			target := write(t, filepath.Join(open, "managed.toml"), policy, 0o644)
			p := filepath.Join(dir, "managed.toml")
			require.NoError(t, os.Symlink(target, p))
			return p
		}, "is writable by others"},
		{"owned by another user", func(t *testing.T, dir string) string {
			if os.Getuid() != 0 {
				t.Skip("only root can give a file to another user")
			}
			p := write(t, filepath.Join(dir, "managed.toml"), policy, 0o644)
			require.NoError(t, os.Chown(p, 4242, 4242))
			return p
		}, "belongs to uid 4242, not root"},
		{"invalid", func(t *testing.T, dir string) string {
			return write(t, filepath.Join(dir, "managed.toml"), "[shim]\nfail_mode = \"ajar\"\n", 0o644)
		}, "managed policy is invalid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.setup(t, policyDir(t))
			e, err := load(path, os.Getuid(), "", false)
			require.Error(t, err)
			assert.Nil(t, e)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// A link from the policy's place to a trusted file is followed.
func TestLoadFollowsATrustedLink(t *testing.T) {
	dir := policyDir(t)
	target := write(t, filepath.Join(dir, "real.toml"), "[shim]\nfail_mode = \"closed\"\n", 0o644)
	p := filepath.Join(dir, "managed.toml")
	require.NoError(t, os.Symlink(target, p))
	e, err := load(p, os.Getuid(), "", false)
	require.NoError(t, err)
	assert.Equal(t, config.FailClosed, e.Config.Shim.FailMode)
}

// The policy's place depends on nothing the user controls.
func TestPathIgnoresTheEnvironment(t *testing.T) {
	want := "/etc/flowd/managed.toml"
	if runtime.GOOS == "darwin" {
		want = "/Library/Application Support/flowd/managed.toml"
	}
	for _, v := range []string{"FLOWD_CONFIG", "FLOWD_MANAGED", "XDG_CONFIG_HOME", "HOME", "ProgramData"} {
		t.Setenv(v, t.TempDir())
	}
	assert.Equal(t, want, Path())
}

// root's group (an administrators' group) may write the file.
func TestLoadTrustsTheAdministratorsGroup(t *testing.T) {
	dir := policyDir(t)
	p := write(t, filepath.Join(dir, "managed.toml"), "[shim]\nfail_mode = \"closed\"\n", 0o664)
	if os.Getgid() != 0 {
		if os.Getuid() != 0 {
			t.Skip("only root can give a file to root's group")
		}
		require.NoError(t, os.Chown(p, -1, 0))
	}
	_, err := load(p, os.Getuid(), "", false)
	assert.NoError(t, err)
}

// Load trusts root's files only: a file the user owns is one the user
// could weaken.
func TestLoadTrustsRootOnly(t *testing.T) {
	if os.Getuid() == 0 {
		t.Skip("running as root, whose files are root's")
	}
	dir := policyDir(t)
	p := write(t, filepath.Join(dir, "managed.toml"), "[shim]\nfail_mode = \"closed\"\n", 0o644)
	_, err := load(p, 0, "", false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not root")
}
