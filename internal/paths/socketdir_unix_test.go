//go:build unix

package paths

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEnsureSocketDirCreatesPrivateDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "flowd")
	sock := filepath.Join(dir, "flowd.sock")

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
