//go:build unix

package localsock

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newSocketPath is a socket's path in a directory not made yet, whose
// parent is missing too.
func newSocketPath(t *testing.T) (dir, sock string) {
	dir = filepath.Join(t.TempDir(), "a", "flowd")
	return dir, filepath.Join(dir, "flowd.sock")
}

func TestEnsureSocketDirCreatesPrivateDir(t *testing.T) {
	dir, sock := newSocketPath(t)

	require.NoError(t, EnsureSocketDir(sock))
	fi, err := os.Stat(dir)
	require.NoError(t, err)
	assert.True(t, fi.IsDir())
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm())

	// Idempotent: the directory it made passes its own check.
	require.NoError(t, EnsureSocketDir(sock))
}

func TestEnsureSocketDirRejects(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  string
	}{
		{
			name: "group and other access",
			setup: func(t *testing.T, dir string) {
				require.NoError(t, os.Mkdir(dir, 0o700))
				require.NoError(t, os.Chmod(dir, 0o755))
			},
			want: `has mode 0755, not 0700 (only you may enter it, and flowd must be able to create the socket): run "chmod 700 `,
		},
		{
			name: "symlink to a private dir",
			setup: func(t *testing.T, dir string) {
				target := filepath.Join(t.TempDir(), "elsewhere")
				require.NoError(t, os.Mkdir(target, 0o700))
				require.NoError(t, os.Symlink(target, dir))
			},
			want: "is a symbolic link",
		},
		{
			name:  "a file",
			setup: func(t *testing.T, dir string) { require.NoError(t, os.WriteFile(dir, nil, 0o600)) },
			want:  "exists but is not a directory",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "flowd")
			tt.setup(t, dir)
			before, err := os.Lstat(dir)
			require.NoError(t, err)

			err = EnsureSocketDir(filepath.Join(dir, "flowd.sock"))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Contains(t, err.Error(), dir)

			after, err := os.Lstat(dir)
			require.NoError(t, err)
			assert.Equal(t, before.Mode(), after.Mode(), "EnsureSocketDir changed a directory it did not create")
		})
	}
}

func TestEnsureSocketDirRejectsOtherOwner(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to give a directory to another user; the owner rule is covered by TestCheckSocketDir")
	}
	dir := filepath.Join(t.TempDir(), "flowd")
	require.NoError(t, os.Mkdir(dir, 0o700))
	require.NoError(t, os.Chown(dir, 65534, 65534))

	err := EnsureSocketDir(filepath.Join(dir, "flowd.sock"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is owned by uid 65534, not by you (uid 0)")

	fi, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), fi.Mode().Perm())
}

func TestMayWrite(t *testing.T) {
	tests := []struct {
		name   string
		mode   fs.FileMode
		uid    int
		groups []int
		want   bool
	}{
		{"member of a 0660 socket's group", 0o660, 1000, []int{1000, 990}, true},
		{"non-member of a 0660 socket", 0o660, 1001, []int{1001}, false},
		{"root", 0o600, 0, nil, true},
		{"owner of a 0600 socket", 0o600, 990, []int{990}, true},
		{"owner is judged by the owner bits only", 0o060, 990, []int{990}, false},
		{"anyone on a 0666 socket", 0o666, 1001, nil, true},
		{"group may only read", 0o640, 1000, []int{990}, false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, mayWrite(fs.ModeSocket|tt.mode, 990, 990, tt.uid, tt.groups), tt.name)
	}
}

func TestEnsureSystemSocketDir(t *testing.T) {
	dir, sock := newSocketPath(t)
	require.NoError(t, EnsureSystemSocketDir(sock))
	fi, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o755), fi.Mode().Perm(), "members of the socket's group must get through to it")
	require.NoError(t, EnsureSystemSocketDir(sock), "idempotent")

	require.NoError(t, os.Chmod(dir, 0o775))
	err = EnsureSystemSocketDir(sock)
	assert.ErrorContains(t, err, dir+" is writable by group or others (mode 0775)")
	fi, err = os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o775), fi.Mode().Perm(), "a directory it did not create is left alone")
}

// A user flowd's directory must be private; a system flowd's need not be,
// but must be out of other users' reach, and this user must be allowed to
// connect to its socket.
func TestCheckSocketDirAsClient(t *testing.T) {
	t.Run("a directory of one's own is a user flowd's", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "flowd")
		require.NoError(t, os.Mkdir(dir, 0o755))
		shared, err := CheckSocketDir(filepath.Join(dir, "flowd.sock"))
		assert.False(t, shared)
		assert.ErrorContains(t, err, "not 0700")
	})
	if os.Getuid() != 0 {
		t.Skip("needs root to make a directory another account's; the rules are covered by TestCheckTrustedDir and TestMayWrite")
	}
	t.Run("another account's directory under a world-writable one", func(t *testing.T) {
		base := t.TempDir()
		require.NoError(t, os.Chmod(base, 0o777))
		dir := filepath.Join(base, "flowd")
		require.NoError(t, os.Mkdir(dir, 0o755))
		require.NoError(t, os.Chown(dir, 65534, 65534))
		shared, err := CheckSocketDir(filepath.Join(dir, "flowd.sock"))
		assert.True(t, shared)
		var te *TrustError
		require.ErrorAs(t, err, &te)
		assert.Equal(t, base, te.Dir)
	})
}
