//go:build unix

package daemon

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/heldfile"
)

// A held file that is not a regular file (a FIFO would block the open
// for good, before flowd serves) is refused, flowd starts, and every
// session is lost for a while.
func TestHeldFileNotRegularIsRefused(t *testing.T) {
	d := testDaemon(t, nil)
	require.NoError(t, syscall.Mkfifo(filepath.Join(d.dataDir, heldfile.Name), 0o600))
	done := make(chan struct{})
	go func() { d.restoreHeld(true); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute): // a hang guard, not a wait
		t.Fatal("restoreHeld blocked on a FIFO")
	}
	assert.Empty(t, d.flows.Held())
	assert.True(t, d.flows.LostUntil().After(time.Now()))
}
