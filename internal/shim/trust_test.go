//go:build unix

package shim

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The trust check is made again only when the directory changed: its
// mode, or the directory itself (removed and made again, or replaced by a
// symbolic link); each change gets the full check's verdict.
func TestSocketTrustIsRecheckedWhenTheDirectoryChanges(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "flowd")
	require.NoError(t, os.Mkdir(dir, 0o700))
	c := newSocketTrust(filepath.Join(dir, "flowd.sock"))
	checks := 0
	c.check = func(s string) string { checks++; return untrustedSocket(s) }

	assert.Empty(t, c.untrusted())
	assert.Empty(t, c.untrusted())
	assert.Equal(t, 1, checks, "an unchanged directory is not checked again")

	require.NoError(t, os.Chmod(dir, 0o777))
	assert.Contains(t, c.untrusted(), "mode 0777")
	require.NoError(t, os.Chmod(dir, 0o700))
	assert.Empty(t, c.untrusted())
	assert.Equal(t, 3, checks)

	other := dir + ".other"
	require.NoError(t, os.Mkdir(other, 0o755))
	require.NoError(t, os.Rename(dir, dir+".old"))
	require.NoError(t, os.Symlink(other, dir))
	assert.Contains(t, c.untrusted(), "symbolic link")
	assert.Equal(t, 4, checks)

	require.NoError(t, os.Remove(dir))
	require.NoError(t, os.Mkdir(dir, 0o700))
	assert.Empty(t, c.untrusted())
	assert.Equal(t, 5, checks, "a directory made again is checked again")
}

// BenchmarkSocketTrust is the trust check a fail-open shim makes at every
// message it passes unchecked: the full check, and the remembered one.
func BenchmarkSocketTrust(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "flowd")
	require.NoError(b, os.Mkdir(dir, 0o700))
	sock := filepath.Join(dir, "flowd.sock")
	b.Run("full", func(b *testing.B) {
		for b.Loop() {
			untrustedSocket(sock)
		}
	})
	b.Run("remembered", func(b *testing.B) {
		c := newSocketTrust(sock)
		for b.Loop() {
			c.untrusted()
		}
	})
}
