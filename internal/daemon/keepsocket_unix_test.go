//go:build unix

package daemon

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A socket that lost a permission its clients need is bound again; one
// opened up further is not (flowd checks every peer's uid), so a test or
// an administrator that opens it on purpose does not race flowd.
func TestModeChangedMeansClientsLockedOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s")
	require.NoError(t, os.WriteFile(path, nil, 0o600))
	for _, tt := range []struct {
		mode    os.FileMode
		system  bool
		changed bool
	}{
		{0o600, false, false}, {0o666, false, false}, {0o000, false, true}, {0o400, false, true},
		{0o660, true, false}, {0o600, true, true}, {0o666, true, false}, {0o060, true, true},
	} {
		require.NoError(t, os.Chmod(path, tt.mode))
		fi, err := os.Lstat(path)
		require.NoError(t, err)
		assert.Equal(t, tt.changed, modeChanged(fi, Options{System: tt.system}), "%o system=%v", tt.mode, tt.system)
	}
}
