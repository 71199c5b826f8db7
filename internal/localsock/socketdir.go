package localsock

import (
	"fmt"
	"io/fs"

	"github.com/flowd-dev/flowd/internal/paths"
)

// fixHint ends every socket directory error: the user either repairs the
// directory or points flowd elsewhere.
const fixHint = "or set " + paths.EnvSocket + " to a path in a directory only you can access"

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

// TrustError is a directory on the way to a socket that another user could
// change, so a socket found there may not be the one root set up.
type TrustError struct {
	Dir     string
	Problem string // "is writable by group or others (mode 0777)"
	Fix     string // the command that fixes it
}

func (e *TrustError) Error() string {
	return fmt.Sprintf("%s %s, so another user could put their own socket in flowd's place: run %q", e.Dir, e.Problem, e.Fix)
}

// checkTrustedDir accepts a directory that only root or uid can change: a
// real directory owned by one of them that no one else may write to. A
// sticky world-writable directory (/tmp) is refused too: anyone may create
// a name in it that does not exist yet.
func checkTrustedDir(dir string, mode fs.FileMode, owner, uid int) error {
	switch {
	case mode&fs.ModeSymlink != 0:
		return &TrustError{Dir: dir, Problem: "is a symbolic link", Fix: "unset " + paths.EnvSocket + " or point it at a path without symbolic links"}
	case !mode.IsDir():
		return &TrustError{Dir: dir, Problem: "is not a directory", Fix: "sudo rm " + dir}
	case owner != 0 && owner != uid:
		return &TrustError{Dir: dir, Problem: fmt.Sprintf("belongs to uid %d, which is neither root nor flowd's uid %d", owner, uid),
			Fix: "sudo chown root " + dir}
	case mode.Perm()&0o022 != 0:
		return &TrustError{Dir: dir, Problem: fmt.Sprintf("is writable by group or others (mode %#o)", mode.Perm()),
			Fix: "sudo chmod go-w " + dir}
	}
	return nil
}

// GroupError is a shared socket this user may not connect to: they are
// not in its group.
type GroupError struct {
	Socket string
	GID    int
}

func (e *GroupError) Error() string {
	return fmt.Sprintf("you may not connect to %s: only the members of its group (gid %d) may, and you are not one (or joined after you logged in)", e.Socket, e.GID)
}
