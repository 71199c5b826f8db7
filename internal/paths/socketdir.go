package paths

import (
	"fmt"
	"io/fs"
)

// fixHint ends every socket directory error: the user either repairs the
// directory or points flowd elsewhere.
const fixHint = "or set " + EnvSocket + " to a path in a directory only you can access"

// checkDirType rejects anything but a real directory. A symbolic link is
// rejected too: in a shared directory such as /tmp another user could have
// planted it to send flowd's socket somewhere they control.
func checkDirType(dir string, mode fs.FileMode) error {
	switch {
	case mode&fs.ModeSymlink != 0:
		return fmt.Errorf("socket directory %s is a symbolic link, which another user could have planted: remove it (rm %s) %s",
			dir, dir, fixHint)
	case !mode.IsDir():
		return fmt.Errorf("socket directory %s exists but is not a directory: remove it %s", dir, fixHint)
	}
	return nil
}

// checkDirAccess accepts only a directory that uid owns with mode 0700: any
// other owner could swap the socket, group or other access would let other
// users connect to flowd, and without rwx for the owner flowd cannot bind.
func checkDirAccess(dir string, mode fs.FileMode, owner, uid int) error {
	if owner != uid {
		return fmt.Errorf("socket directory %s is owned by uid %d, not by you (uid %d), so that user could intercept flowd's socket: remove it (sudo rm -r %s) %s",
			dir, owner, uid, dir, fixHint)
	}
	if perm := mode.Perm(); perm != 0o700 {
		return fmt.Errorf("socket directory %s has mode %#o, not 0700 (only you may enter it, and flowd must be able to create the socket): run \"chmod 700 %s\" %s",
			dir, perm, dir, fixHint)
	}
	return nil
}
