package activity

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/flowd-dev/flowd/internal/boltfile"
)

// logBuf collects what the store logs, from its writer goroutine too.
type logBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuf) count(s string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Count(l.b.String(), s)
}

func (l *logBuf) logger() *slog.Logger { return slog.New(slog.NewTextHandler(l, nil)) }

// filled writes n records to a store at path and closes it.
func filled(t *testing.T, path string, n int) {
	t.Helper()
	opts := quiet
	opts.Key = testKey // so a checkpoint is kept beside the store too
	s, err := Open(path, opts)
	require.NoError(t, err)
	for range n {
		s.Append(Record{Type: "tool_call", Server: "github", Reason: strings.Repeat("r", 200)})
	}
	require.NoError(t, s.Close())
}

func TestTruncatedStoreIsMovedAsideAndAFreshOneWorks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "activity.db")
	filled(t, path, 2000)
	fi, err := os.Stat(path)
	require.NoError(t, err)
	require.NoError(t, os.Truncate(path, fi.Size()/2))

	// A reader reports it and changes nothing.
	_, err = Open(path, quiet)
	require.ErrorIs(t, err, boltfile.ErrDamaged)
	assert.ErrorContains(t, err, "cut short")

	opts := quiet
	opts.Recover = true
	start := time.Now()
	s := openStore(t, path, opts)
	t.Logf("opened a damaged %d KiB store in %s", fi.Size()/2>>10, time.Since(start))
	d := s.Damage()
	require.NotNil(t, d)
	assert.Equal(t, "activity store", d.What)
	assert.FileExists(t, d.MovedTo)
	s.Append(Record{Type: "tool_call"})
	require.NoError(t, s.Flush())
	rs, err := s.Query(Filter{})
	require.NoError(t, err)
	assert.Equal(t, []uint64{1}, ids(rs))
	// The old chain's head went aside with it: the fresh chain verifies.
	assert.FileExists(t, d.MovedTo+HeadSuffix)
	rep, err := s.Verify(testPub(), VerifyOptions{})
	require.NoError(t, err)
	assert.True(t, rep.OK(), "%+v", rep.Problems)
}

func TestUndecodableRecordIsSkippedNotTheQuery(t *testing.T) {
	path := filepath.Join(t.TempDir(), "activity.db")
	filled(t, path, 3)
	db, err := bolt.Open(path, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketName).Put(idKey(2), []byte("{not json")) }))
	require.NoError(t, db.Close())

	var log logBuf
	opts := quiet
	opts.Log = log.logger()
	s := openStore(t, path, opts)
	for range 2 {
		rs, err := s.Query(Filter{})
		require.NoError(t, err)
		assert.Equal(t, []uint64{3, 1}, ids(rs))
	}
	assert.Equal(t, uint64(1), s.Stats().Unreadable, "counted once, however often it is skipped")
	assert.Equal(t, 1, log.count("cannot be decoded"))
}

func TestRetentionRunsOnAnIdleStore(t *testing.T) {
	c := &clock{now: time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)}
	tick := make(chan time.Time) // unbuffered: a second send waits for the first prune
	opts := quiet
	opts.MaxAge = time.Hour
	opts.Key = testKey
	opts.Now = c.Now
	opts.pruneTick = tick
	s := openStore(t, filepath.Join(t.TempDir(), "a.db"), opts)
	for range 3 {
		s.Append(Record{Type: "old"})
	}
	require.NoError(t, s.Flush())

	tick <- time.Time{}
	tick <- time.Time{}
	assert.Zero(t, s.Stats().Pruned, "nothing is old yet")

	c.advance(time.Hour + time.Second)
	tick <- time.Time{}
	tick <- time.Time{}
	assert.Equal(t, uint64(3), s.Stats().Pruned)
	rs, err := s.Query(Filter{})
	require.NoError(t, err)
	assert.Empty(t, rs, "no record came to trigger retention; the timer did")
}

func TestEpisode(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	var e episode
	_, ended := e.ok()
	assert.False(t, ended, "success without failure ends nothing")
	assert.True(t, e.fail(t0, os.ErrClosed, 5), "first failure starts")
	assert.False(t, e.fail(t0.Add(time.Second), os.ErrInvalid, 7), "second continues")
	was, ended := e.ok()
	assert.True(t, ended)
	assert.Equal(t, episode{on: true, since: t0, err: os.ErrClosed, lost: 12}, was)
	_, ended = e.ok()
	assert.False(t, ended, "ended once")
	assert.True(t, e.fail(t0, os.ErrClosed, 1), "a new failure starts a new episode")
}
