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

// The flowd a shim or hook starts, and trusts on the socket, is the one
// beside it, links resolved, never one found on PATH: an agent that put
// a program of its own named flowd first on PATH had it started as
// flowd, and then trusted as flowd.
func TestBinaryIsBesideThisProgramNeverOnPath(t *testing.T) {
	evil := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(evil, "flowd"), []byte("#!/bin/sh\n"), 0o755))
	t.Setenv("PATH", evil)
	t.Setenv(paths.EnvDataDir, t.TempDir())

	install, elsewhere := t.TempDir(), t.TempDir()
	shim := filepath.Join(install, "shim")
	require.NoError(t, os.WriteFile(shim, []byte("#!/bin/sh\n"), 0o755))
	self := func(p string) func() (string, error) { return func() (string, error) { return p, nil } }

	_, err := binaryBeside(self(shim))
	assert.ErrorIs(t, err, ErrNotInstalled, "no flowd beside the shim: the one on PATH is not taken")
	got, err := Binary()
	if err == nil {
		assert.NotEqual(t, filepath.Join(evil, "flowd"), got)
	}

	flowd := filepath.Join(install, "flowd")
	require.NoError(t, os.WriteFile(flowd, []byte("#!/bin/sh\n"), 0o755))
	got, err = binaryBeside(self(shim))
	require.NoError(t, err)
	assert.Equal(t, flowd, got)

	// A shim linked into another directory (a package manager's bin)
	// finds the flowd installed beside the file it links to.
	link := filepath.Join(elsewhere, "shim")
	require.NoError(t, os.Symlink(shim, link))
	got, err = binaryBeside(self(link))
	require.NoError(t, err)
	assert.Equal(t, flowd, got)
}
