//go:build windows

package paths

import (
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
