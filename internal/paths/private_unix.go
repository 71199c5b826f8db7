//go:build unix

package paths

import (
	"os"
	"syscall"
)

// privateDir reports whether dir is a real directory that this user owns
// and no one else may write to, as a login's runtime directory is.
func privateDir(dir string) bool {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid() && fi.Mode().Perm()&0o022 == 0
}
