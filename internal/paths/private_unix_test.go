//go:build unix

package paths

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPrivateDir(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o700))
	assert.True(t, privateDir(dir))
	require.NoError(t, os.Chmod(dir, 0o777))
	assert.False(t, privateDir(dir), "others may write to it")
	require.NoError(t, os.Chmod(dir, 0o700))
	link := filepath.Join(t.TempDir(), "link")
	require.NoError(t, os.Symlink(dir, link))
	assert.False(t, privateDir(link), "a symbolic link")
	assert.False(t, privateDir(filepath.Join(dir, "missing")))
}
