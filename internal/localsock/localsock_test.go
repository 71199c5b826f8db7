package localsock

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestListenDialSameUser(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.sock")
	require.NoError(t, os.WriteFile(path, []byte("stale"), 0o600), "a stale file is replaced")
	l, err := Listen(path)
	require.NoError(t, err)
	defer l.Close()
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())

	accepted := make(chan *Conn, 1)
	go func() {
		c, err := l.Accept()
		if err != nil {
			accepted <- nil
			return
		}
		c.Write([]byte("x"))
		accepted <- c.(*Conn)
	}()
	c, err := Dial(path, time.Second)
	require.NoError(t, err)
	defer c.Close()
	buf := make([]byte, 1)
	_, err = c.Read(buf)
	require.NoError(t, err)
	ac := <-accepted
	require.NotNil(t, ac)
	defer ac.Close()
	assert.Equal(t, os.Getuid(), ac.Peer.UID, "the accepted side knows who connected")
	assert.Equal(t, os.Getgid(), ac.Peer.GID)
	cred, err := PeerCred(c)
	require.NoError(t, err)
	assert.Equal(t, os.Getuid(), cred.UID)
}

func TestDialMissing(t *testing.T) {
	_, err := Dial(filepath.Join(t.TempDir(), "none.sock"), time.Second)
	assert.Error(t, err)
}

// Find and Answering go by who answers, not by which files exist: a
// socket file left by a flowd that died is passed over.
func TestFindAnswering(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.sock")
	stale := filepath.Join(dir, "stale.sock")
	live := filepath.Join(dir, "live.sock")
	live2 := filepath.Join(dir, "live2.sock")

	sl, err := Listen(stale)
	require.NoError(t, err)
	sl.SetUnlinkOnClose(false) // as after kill -9
	require.NoError(t, sl.Close())
	require.FileExists(t, stale)
	for _, p := range []string{live, live2} {
		l, err := Listen(p)
		require.NoError(t, err)
		t.Cleanup(func() { l.Close() })
	}

	got, ok := Find([]string{missing, stale, live, live2}, time.Second)
	assert.True(t, ok)
	assert.Equal(t, live, got)
	_, ok = Find([]string{missing, stale}, time.Second)
	assert.False(t, ok, "no flowd answers")
	assert.Equal(t, []string{live, live2}, Answering([]string{missing, stale, live, live2}, time.Second))
}
