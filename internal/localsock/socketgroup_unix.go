//go:build unix

package localsock

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// socketGroup returns the mode and group of the socket file at path.
func socketGroup(path string) (fs.FileMode, int, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, 0, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, fmt.Errorf("no owner information for %s", path)
	}
	return fi.Mode(), int(st.Gid), nil
}
