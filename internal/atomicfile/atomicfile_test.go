package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
	require.NoError(t, Write(path, []byte("new"), 0o600))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "new", string(b))
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())

	refused := errors.New("changed meanwhile")
	assert.ErrorIs(t, WriteIf(path, []byte("newer"), 0o600, func() error { return refused }), refused)
	b, err = os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "new", string(b), "a failed check leaves the file as it was")
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, ents, 1, "no temporary file left behind")

	assert.Error(t, Write(filepath.Join(dir, "missing", "f"), nil, 0o600))
}
