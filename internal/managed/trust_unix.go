//go:build unix

package managed

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
)

// checkFile accepts a regular file owned by root (or uid) that group and
// others may not write.
func checkFile(f *os.File, path string, uid int) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("inspect the machine's managed policy %s: %w", path, err)
	}
	return checkMode(path, fi, uid)
}

// checkDirs accepts the directories from dir up to / when each is owned
// by root (or uid) and writable by no one else: whoever may write one
// may rename what is in it. missingOK skips directories that do not
// exist (the policy file is then missing too).
func checkDirs(dir string, uid int, missingOK bool) error {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	for {
		fi, err := os.Lstat(dir)
		switch {
		case missingOK && errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return fmt.Errorf("inspect %s, above the machine's managed policy: %w", dir, err)
		default:
			if err := checkMode(dir, fi, uid); err != nil {
				return err
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil
		}
		dir = parent
	}
}

func checkMode(path string, fi fs.FileInfo, uid int) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("inspect %s: no owner information", path)
	}
	switch {
	case !fi.Mode().IsRegular() && !fi.IsDir():
		return refused(path, "is neither a file nor a directory", "replace it with a regular file")
	case st.Uid != 0 && int(st.Uid) != uid:
		return refused(path, fmt.Sprintf("belongs to uid %d, not root", st.Uid), "sudo chown root "+path)
	case fi.Mode().Perm()&0o002 != 0:
		return refused(path, fmt.Sprintf("is writable by others (mode %#o)", fi.Mode().Perm()), "sudo chmod o-w "+path)
	case fi.Mode().Perm()&0o020 != 0 && !adminGroup(int(st.Gid)):
		return refused(path, fmt.Sprintf("is writable by group %d (mode %#o), whose members need not be administrators", st.Gid, fi.Mode().Perm()),
			"sudo chmod g-w "+path)
	}
	return nil
}

// adminGroup reports whether the members of gid are administrators, who
// may write the policy: root's group (wheel), and on macOS admin, which
// owns /Library and /Applications.
func adminGroup(gid int) bool {
	return gid == 0 || runtime.GOOS == "darwin" && gid == 80
}
