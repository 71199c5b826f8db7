package ondemand

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/paths"
)

// No flowd binary is "not installed" (where shims and hooks fail open)
// only where no flowd has run: found in review, a binary made unrunnable
// after flowd was killed opened the way again.
func TestNoBinaryIsNotInstalledOnlyWhereFlowdNeverRan(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	data := t.TempDir()
	t.Setenv(paths.EnvDataDir, data)
	socket := filepath.Join(t.TempDir(), "flowd.sock")

	err := StartNextToMe(socket, time.Second)
	assert.ErrorIs(t, err, ErrNotInstalled)

	require.NoError(t, os.WriteFile(filepath.Join(data, "activity.db"), nil, 0o600))
	err = StartNextToMe(socket, time.Second)
	require.Error(t, err)
	assert.False(t, errors.Is(err, ErrNotInstalled), "flowd has run here: %v", err)
	assert.Contains(t, err.Error(), "though flowd has run here")
}
