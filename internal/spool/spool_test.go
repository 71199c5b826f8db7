package spool

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func recs(from, n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = fmt.Appendf(nil, "record %06d", from+i)
	}
	return out
}

// drain reads and commits everything, k at a time, as numbers.
func drain(t *testing.T, s *Spool, k int) []int {
	t.Helper()
	var got []int
	for {
		rs, m, err := s.Read(k)
		require.NoError(t, err)
		if len(rs) == 0 {
			return got
		}
		for _, r := range rs {
			n, err := strconv.Atoi(string(r[len("record "):]))
			require.NoError(t, err)
			got = append(got, n)
		}
		require.NoError(t, s.Commit(m))
	}
}

func seq(from, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = from + i
	}
	return out
}

func TestOrderAcrossSegmentsAndReopen(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, 1<<20) // 128 KiB segments: 1000 records span several
	require.NoError(t, err)
	for i := 0; i < 10; i++ {
		require.NoError(t, s.Append(recs(i*1000, 1000)))
	}
	assert.Equal(t, 10000, s.Len())
	// Half read and committed, then a restart: the rest, in order.
	rs, m, err := s.Read(5000)
	require.NoError(t, err)
	require.Len(t, rs, 5000)
	require.NoError(t, s.Commit(m))
	require.NoError(t, s.Close())

	s, err = Open(dir, 1<<20)
	require.NoError(t, err)
	assert.Equal(t, 5000, s.Len())
	// Read but not committed (a crash before the receiver's answer):
	// read again after the restart.
	_, _, err = s.Read(10)
	require.NoError(t, err)
	require.NoError(t, s.Close())
	s, err = Open(dir, 1<<20)
	require.NoError(t, err)
	assert.Equal(t, seq(5000, 5000), drain(t, s, 333))
	assert.Equal(t, Stats{Limit: 1 << 20}, s.Stats())
	require.NoError(t, s.Append(recs(7, 1)))
	assert.Equal(t, []int{7}, drain(t, s, 10))
	require.NoError(t, s.Close())
}

func TestLimitDropsOldestAndCounts(t *testing.T) {
	s, err := Open(t.TempDir(), 64<<10)
	require.NoError(t, err)
	defer s.Close()
	for i := 0; i < 100; i++ {
		require.NoError(t, s.Append(recs(i*100, 100)))
	}
	st := s.Stats()
	assert.LessOrEqual(t, st.Bytes, int64(64<<10), "over the limit")
	assert.Positive(t, st.Dropped)
	assert.Equal(t, 10000, st.Records+int(st.Dropped), "every record is either kept or counted dropped")
	// What is kept is the newest, in order, without a gap.
	got := drain(t, s, 500)
	assert.Equal(t, seq(10000-len(got), len(got)), got)
}

func TestTornTailCutOff(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, 1<<20)
	require.NoError(t, err)
	require.NoError(t, s.Append(recs(0, 3)))
	require.NoError(t, s.Close())
	// A crash mid-write: half a frame at the end.
	seg := filepath.Join(dir, segName(1))
	f, err := os.OpenFile(seg, os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	_, err = f.Write([]byte{20, 0, 0, 0, 1, 2, 3, 4, 'r', 'e'})
	require.NoError(t, err)
	require.NoError(t, f.Close())

	s, err = Open(dir, 1<<20)
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.Append(recs(3, 2)))
	assert.Equal(t, seq(0, 5), drain(t, s, 2), "the torn frame is gone and what came after it reads")
}

func TestDamagedHeadFileRereads(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, 1<<20)
	require.NoError(t, err)
	require.NoError(t, s.Append(recs(0, 4)))
	rs, m, err := s.Read(2)
	require.NoError(t, err)
	require.Len(t, rs, 2)
	require.NoError(t, s.Commit(m))
	require.NoError(t, s.Close())
	require.NoError(t, os.WriteFile(filepath.Join(dir, "head"), []byte("garbage"), 0o600))

	s, err = Open(dir, 1<<20)
	require.NoError(t, err)
	defer s.Close()
	// Sent again rather than lost.
	assert.Equal(t, seq(0, 4), drain(t, s, 10))
}

// A batch the receiver took only part of: committing the first k takes
// those off, across segments, and the rest is read again next, also
// after a restart.
func TestCommitPart(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, 64<<10) // 8 KiB segments: 1000 records span several
	require.NoError(t, err)
	require.NoError(t, s.Append(recs(0, 1000)))
	_, m, err := s.Read(800)
	require.NoError(t, err)
	require.NoError(t, s.Commit(m.Upto(0)))
	assert.Equal(t, 1000, s.Len())
	require.NoError(t, s.Commit(m.Upto(700)))
	assert.Equal(t, 300, s.Len())
	assert.Equal(t, 300, s.Stats().Records)
	require.NoError(t, s.Close())
	s, err = Open(dir, 64<<10)
	require.NoError(t, err)
	defer s.Close()
	assert.Equal(t, seq(700, 300), drain(t, s, 64))
}
