//go:build unix

package localsock

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/flowd-dev/flowd/internal/paths"
)

// EnsureSocketDir makes sure the directory that will hold socketPath exists,
// belongs to the current user and is closed to everyone else, creating it
// with mode 0700 if it is missing. It never changes a directory it did not
// create: the error says what is wrong and how to fix it.
func EnsureSocketDir(socketPath string) error {
	dir, fi, err := ensureDir(socketPath, 0o700)
	if err != nil {
		return err
	}
	return checkDirAccess(dir, fi.Mode(), owner(fi), os.Getuid())
}

// EnsureSystemSocketDir is EnsureSocketDir for a system flowd, whose
// users reach the socket through the directory: it creates a missing one
// with mode 0755 and accepts one that belongs to flowd's account or root
// and that no one else may write to. The socket's own mode (0660) says who
// may connect.
func EnsureSystemSocketDir(socketPath string) error {
	dir, fi, err := ensureDir(socketPath, 0o755)
	if err != nil {
		return err
	}
	return checkTrustedDir(dir, fi.Mode(), owner(fi), os.Getuid())
}

// ensureDir creates the socket's directory with mode if it is missing and
// returns what is there, refusing anything but a real directory.
func ensureDir(socketPath string, mode fs.FileMode) (string, fs.FileInfo, error) {
	dir := filepath.Dir(socketPath)
	if err := os.MkdirAll(filepath.Dir(dir), 0o755&mode); err != nil {
		return dir, nil, fmt.Errorf("create parent of socket directory %s: %w", dir, err)
	}
	// Mkdir, not MkdirAll: it fails if the directory already exists, so a
	// directory someone else made in /tmp is checked, never adopted.
	switch err := os.Mkdir(dir, mode); {
	case err == nil:
		// The umask may have cleared bits the socket needs.
		if err := os.Chmod(dir, mode); err != nil {
			return dir, nil, fmt.Errorf("set mode of socket directory %s: %w", dir, err)
		}
	case !errors.Is(err, fs.ErrExist):
		return dir, nil, fmt.Errorf("create socket directory %s: %w", dir, err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return dir, nil, fmt.Errorf("inspect socket directory %s: %w", dir, err)
	}
	if err := checkDirType(dir, fi.Mode()); err != nil {
		return dir, nil, err
	}
	if _, ok := fi.Sys().(*syscall.Stat_t); !ok {
		return dir, nil, fmt.Errorf("inspect socket directory %s: no owner information", dir)
	}
	return dir, fi, nil
}

func owner(fi fs.FileInfo) int { return int(fi.Sys().(*syscall.Stat_t).Uid) }

// CheckSocketTrust reports whether a socket at socketPath can only have
// been put there by uid or root: every directory from the socket's own up
// to / is a real directory (no symbolic link), owned by root or uid, and
// writable by no one else. A client uses it to trust a system flowd that
// runs as an account of its own: only root can have made that account a
// place in a tree that only root controls.
func CheckSocketTrust(socketPath string, uid int) error {
	dir, err := filepath.Abs(filepath.Dir(socketPath))
	if err != nil {
		return fmt.Errorf("socket %s: %w", socketPath, err)
	}
	for {
		fi, err := os.Lstat(dir)
		if err != nil {
			return fmt.Errorf("inspect %s, on the way to socket %s: %w", dir, socketPath, err)
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			return fmt.Errorf("inspect %s: no owner information", dir)
		}
		if err := checkTrustedDir(dir, fi.Mode(), int(st.Uid), uid); err != nil {
			return err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil
		}
		dir = parent
	}
}

// CheckSocketDir checks, without changing anything, the existing directory
// of a socket a client is to use. The user's own socket (UserSocket), or
// one in a directory of theirs, must be private as EnsureSocketDir wants
// it. Another user's is a system flowd's (shared): root and its owner only
// may change the way to it (CheckSocketTrust), and this user must be
// allowed to connect (a *GroupError if not).
func CheckSocketDir(socketPath string) (shared bool, err error) {
	dir := filepath.Dir(socketPath)
	fi, err := os.Lstat(dir)
	if err != nil {
		return false, fmt.Errorf("inspect socket directory %s: %w", dir, err)
	}
	if err := checkDirType(dir, fi.Mode()); err != nil {
		return false, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return false, fmt.Errorf("inspect socket directory %s: no owner information", dir)
	}
	uid := os.Getuid()
	if dirOwner := int(st.Uid); dirOwner == uid || socketPath == paths.UserSocket() {
		return false, checkDirAccess(dir, fi.Mode(), dirOwner, uid)
	}
	if err := CheckSocketTrust(socketPath, int(st.Uid)); err != nil {
		return true, err
	}
	return true, checkConnect(socketPath)
}

// checkConnect reports a socket this process may not connect to (which
// takes write permission) as a *GroupError.
func checkConnect(socketPath string) error {
	fi, err := os.Stat(socketPath)
	if err != nil {
		return fmt.Errorf("inspect socket %s: %w", socketPath, err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fmt.Errorf("inspect socket %s: no owner information", socketPath)
	}
	groups, err := os.Getgroups()
	if err != nil {
		return fmt.Errorf("read this process's groups: %w", err)
	}
	if !mayWrite(fi.Mode(), int(st.Uid), int(st.Gid), os.Getuid(), append(groups, os.Getgid())) {
		return &GroupError{Socket: socketPath, GID: int(st.Gid)}
	}
	return nil
}

// mayWrite is the kernel's write permission check on a file of mode,
// owner and gid for uid in groups.
func mayWrite(mode fs.FileMode, owner, gid, uid int, groups []int) bool {
	perm := mode.Perm()
	switch {
	case uid == 0:
		return true
	case uid == owner:
		return perm&0o200 != 0
	case slices.Contains(groups, gid):
		return perm&0o020 != 0
	}
	return perm&0o002 != 0
}
