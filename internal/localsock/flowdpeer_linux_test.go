package localsock

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

func TestHolderIn(t *testing.T) {
	locks := "1: POSIX  ADVISORY  WRITE 11 fe:00:77 0 EOF\n" +
		"2: FLOCK  ADVISORY  WRITE 22 fe:00:5678 0 EOF\n" +
		"2: -> FLOCK  ADVISORY  WRITE 33 fe:00:5678 0 EOF\n" +
		"3: FLOCK  ADVISORY  WRITE 44 08:01:5678 0 EOF\n"
	dev := unix.Mkdev(0xfe, 0)
	assert.Equal(t, 22, holderIn(bufio.NewScanner(strings.NewReader(locks)), dev, 5678), "the holder, not the waiter")
	assert.Equal(t, 44, holderIn(bufio.NewScanner(strings.NewReader(locks)), unix.Mkdev(8, 1), 5678), "matched by device too")
	assert.Equal(t, 0, holderIn(bufio.NewScanner(strings.NewReader(locks)), dev, 77), "a POSIX lock is not flowd's")
}

// listenHere listens on a socket in a short directory, as flowd would,
// taking its lock first when lock is set.
func listenHere(t testing.TB, lock bool) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "fp")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	socket := filepath.Join(dir, "s")
	if lock {
		f, err := os.OpenFile(socket+".lock", os.O_CREATE|os.O_RDWR, 0o600)
		require.NoError(t, err)
		t.Cleanup(func() { f.Close() })
		require.NoError(t, unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB))
	}
	l, err := Listen(socket)
	require.NoError(t, err)
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close() // the client reads who listens from its own end
		}
	}()
	return socket
}

// TestDialFlowdReadsTheRealListener runs the check against real sockets:
// here the test binary plays flowd, so it is the binary expected.
func TestDialFlowdReadsTheRealListener(t *testing.T) {
	self, err := os.Executable()
	require.NoError(t, err)

	t.Run("the expected binary, holding the lock", func(t *testing.T) {
		c, err := DialFlowd(listenHere(t, true), dialTimeout, self)
		require.NoError(t, err)
		c.Close()
	})
	t.Run("the expected binary without the lock", func(t *testing.T) {
		_, err := DialFlowd(listenHere(t, false), dialTimeout, self)
		assert.ErrorIs(t, err, ErrNotFlowd)
		assert.ErrorContains(t, err, "no process holds flowd's lock")
	})
	t.Run("another program holding the lock", func(t *testing.T) {
		other := filepath.Join(t.TempDir(), "flowd")
		require.NoError(t, os.WriteFile(other, []byte("#!/bin/sh\n"), 0o700))
		_, err := DialFlowd(listenHere(t, true), dialTimeout, other)
		assert.ErrorIs(t, err, ErrNotFlowd)
		assert.ErrorContains(t, err, "holds flowd's lock")
	})
	t.Run("no flowd installed", func(t *testing.T) {
		_, err := DialFlowd(listenHere(t, true), dialTimeout, "")
		assert.ErrorIs(t, err, ErrNotFlowd)
	})
}

// BenchmarkDialFlowd is what the check adds to each hook call's dial:
// compare with BenchmarkDial.
func BenchmarkDialFlowd(b *testing.B) {
	self, err := os.Executable()
	require.NoError(b, err)
	socket := listenHere(b, true)
	for b.Loop() {
		c, err := DialFlowd(socket, dialTimeout, self)
		if err != nil {
			b.Fatal(err)
		}
		c.Close()
	}
}

func BenchmarkDial(b *testing.B) {
	socket := listenHere(b, true)
	for b.Loop() {
		c, err := Dial(socket, dialTimeout)
		if err != nil {
			b.Fatal(err)
		}
		c.Close()
	}
}
