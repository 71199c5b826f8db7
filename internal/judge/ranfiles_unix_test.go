//go:build unix

package judge

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/policy"
)

// A fifo a command runs is not read (the read would wait for a writer):
// it is code nobody has seen, asked about.
func TestFileRunFifoNotRead(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600))
	d := decide(newJudge(t, nil), hookBash("s", dir, "sh fifo"))
	assert.Equal(t, policy.Ask, d.Action, d.Reason)
}
