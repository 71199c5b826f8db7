package activity

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// smallDisk mounts a 1 MiB tmpfs, so that the disk really fills.
func smallDisk(t *testing.T) string {
	dir := t.TempDir()
	if os.Geteuid() != 0 {
		t.Skip("a full disk is simulated with a small tmpfs, which only root may mount; run as root to test it")
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=1m"); err != nil {
		t.Skipf("a full disk is simulated with a small tmpfs, which this machine refuses to mount: %v", err)
	}
	t.Cleanup(func() { require.NoError(t, syscall.Unmount(dir, 0)) })
	return dir
}

// fill writes to path until the disk is full.
func fill(t *testing.T, path string) {
	f, err := os.Create(path)
	require.NoError(t, err)
	defer f.Close()
	chunk := make([]byte, 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			require.True(t, errors.Is(err, syscall.ENOSPC), "%v", err)
			return
		}
	}
}

func TestFullDiskIsLoggedOnceAndCounted(t *testing.T) {
	dir := smallDisk(t)
	var log logBuf
	// The writer ticks every millisecond with nothing to write: a tick
	// that writes nothing must not end the episode.
	opts := Options{FlushInterval: time.Millisecond, BatchSize: 1 << 20, Log: log.logger()}
	s := openStore(t, filepath.Join(dir, "activity.db"), opts)
	filler := filepath.Join(dir, "filler")
	fill(t, filler)

	big := Record{Type: "tool_call", Reason: strings.Repeat("r", 2000)}
	for round := range 3 {
		for range 100 {
			s.Append(big)
		}
		require.Error(t, s.Flush(), "round %d", round)
		settle(t, s, uint64(100*(round+1)))
	}
	st := s.Stats()
	assert.Equal(t, uint64(300), st.Failed)
	assert.Contains(t, st.WriteError, "no space left on device")
	assert.False(t, st.FailingSince.IsZero())
	assert.Equal(t, 1, log.count("activity log cannot write"), "once per episode, not per batch")
	assert.Zero(t, log.count("writes again"))

	require.NoError(t, os.Remove(filler))
	s.Append(Record{Type: "after"})
	require.NoError(t, s.Flush())
	st = s.Stats()
	assert.Empty(t, st.WriteError)
	assert.Equal(t, uint64(300), st.Failed, "what was lost stays counted")
	assert.Equal(t, 1, log.count("activity log writes again"))
	assert.Equal(t, 1, log.count("lost=300"))
	rs, err := s.Query(Filter{})
	require.NoError(t, err)
	require.Len(t, rs, 1)
	assert.Equal(t, "after", rs[0].Type)
}

// settle waits until the writer has tried n records. Flush returns at the
// first failed batch, which may hold only part of what it waits for (the
// millisecond tick splits batches), so the rest can still be queued.
func settle(t *testing.T, s *Store, n uint64) {
	t.Helper()
	for st := s.Stats(); st.Written+st.Failed < n; st = s.Stats() {
		_ = s.Flush() // returns when the writer has finished another batch
	}
}
