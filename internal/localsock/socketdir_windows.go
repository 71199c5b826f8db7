//go:build windows

package localsock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// EnsureSocketDir makes sure the directory that will hold socketPath exists
// and is a real directory. Ownership is not checked: Windows file modes do
// not reflect ACLs, and the default location under %LOCALAPPDATA% is already
// private to the user.
func EnsureSocketDir(socketPath string) error {
	dir := filepath.Dir(socketPath)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create socket directory %s: %w", dir, err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("inspect socket directory %s: %w", dir, err)
	}
	return checkDirType(dir, fi.Mode())
}

// errNoSystemFlowd: a flowd shared by several users needs Unix owners and
// groups.
var errNoSystemFlowd = errors.New("a flowd shared by several users is for Linux (flowd install --system); on Windows each user runs their own")

// EnsureSystemSocketDir refuses: see errNoSystemFlowd.
func EnsureSystemSocketDir(string) error { return errNoSystemFlowd }

// CheckSocketTrust refuses: see errNoSystemFlowd.
func CheckSocketTrust(string, int) error { return errNoSystemFlowd }

// CheckSocketDir checks an existing socket directory as EnsureSocketDir
// does; there is no shared socket on Windows.
func CheckSocketDir(socketPath string) (shared bool, err error) {
	dir := filepath.Dir(socketPath)
	fi, err := os.Lstat(dir)
	if err != nil {
		return false, fmt.Errorf("inspect socket directory %s: %w", dir, err)
	}
	return false, checkDirType(dir, fi.Mode())
}

func privateDir(string) bool { return false }
