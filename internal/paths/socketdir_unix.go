//go:build unix

package paths

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// EnsureSocketDir makes sure the directory that will hold socketPath exists,
// belongs to the current user and is closed to everyone else, creating it
// with mode 0700 if it is missing. It never changes a directory it did not
// create: the error says what is wrong and how to fix it.
func EnsureSocketDir(socketPath string) error {
	dir := filepath.Dir(socketPath)
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return fmt.Errorf("create parent of socket directory %s: %w", dir, err)
	}
	// Mkdir, not MkdirAll: it fails if the directory already exists, so a
	// directory someone else made in /tmp is checked, never adopted.
	switch err := os.Mkdir(dir, 0o700); {
	case err == nil:
		// The umask may have cleared owner bits the socket needs.
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("set mode of socket directory %s: %w", dir, err)
		}
	case !errors.Is(err, fs.ErrExist):
		return fmt.Errorf("create socket directory %s: %w", dir, err)
	}

	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("inspect socket directory %s: %w", dir, err)
	}
	if err := checkDirType(dir, fi.Mode()); err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("inspect socket directory %s: no owner information", dir)
	}
	return checkDirAccess(dir, fi.Mode(), int(st.Uid), os.Getuid())
}
