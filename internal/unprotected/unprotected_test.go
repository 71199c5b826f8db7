package unprotected

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMarkListClear(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "unprotected")
	list, err := List(dir)
	require.NoError(t, err, "no directory yet: nothing runs unprotected")
	assert.Empty(t, list)

	me := Shim{PID: os.Getpid(), Server: "slack", Socket: "/run/user/1/flowd/flowd.sock", Reason: "flowd is not running", Since: time.Unix(100, 0).UTC()}
	require.NoError(t, Mark(dir, me))
	me.Reason = "flowd is not answering"
	require.NoError(t, Mark(dir, me), "a second mark replaces the first")

	// A shim that is gone: a process that has exited and been reaped.
	gone := exec.Command(os.Args[0], "-test.run=^$")
	require.NoError(t, gone.Run())
	require.NoError(t, Mark(dir, Shim{PID: gone.Process.Pid, Server: "old", Since: time.Unix(50, 0)}))
	// Junk a reader must skip, not trip over.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "7.json"), []byte("{half"), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o600))

	list, err = List(dir)
	require.NoError(t, err)
	assert.Equal(t, []Shim{me}, list)
	assert.NoFileExists(t, file(dir, gone.Process.Pid), "a gone shim's record is removed")
	assert.NoFileExists(t, file(dir, 7), "an unreadable record is removed")

	Clear(dir, me.PID)
	list, err = List(dir)
	require.NoError(t, err)
	assert.Empty(t, list)
}
