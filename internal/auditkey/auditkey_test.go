package auditkey

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestKeyIsMadeOnceAndKeptPrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	key, err := LoadOrCreate(dir)
	require.NoError(t, err)
	again, err := LoadOrCreate(dir)
	require.NoError(t, err)
	assert.True(t, key.Equal(again), "the second start reads the key the first made")

	pub, err := LoadPublic(dir)
	require.NoError(t, err)
	assert.True(t, pub.Equal(key.Public()))

	if runtime.GOOS == "windows" {
		t.Log("file modes are not checked on Windows")
		return
	}
	fi, err := os.Stat(filepath.Join(dir, PrivateFile))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	require.NoError(t, os.Chmod(filepath.Join(dir, PrivateFile), 0o644))
	_, err = LoadOrCreate(dir)
	assert.ErrorContains(t, err, "readable by others")
}

func TestMissingPublicKeyIsWrittenAgain(t *testing.T) {
	dir := t.TempDir()
	key, err := LoadOrCreate(dir)
	require.NoError(t, err)
	require.NoError(t, os.Remove(filepath.Join(dir, PublicFile)))
	_, err = LoadOrCreate(dir)
	require.NoError(t, err)
	pub, err := LoadPublic(dir)
	require.NoError(t, err)
	assert.True(t, pub.Equal(key.Public()))
	_, err = ParsePublic([]byte("junk"))
	assert.Error(t, err)
}
