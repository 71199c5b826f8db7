package managed

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/flowd-dev/flowd/internal/config"
)

// maxSize bounds what is read of a managed file; a policy is a few KiB.
const maxSize = 1 << 20

// Load returns the config in force: the user's file at userPath (none
// when userPath is ""; a missing file is the defaults unless required)
// bounded by the machine's managed policy, if there is one. A user value
// that weakens a managed one is a *config.ManagedError, returned with the
// config that holds the managed values in their place; a managed file
// that is there but cannot be trusted or read is an error, and no config.
func Load(userPath string, required bool) (*config.Effective, error) {
	return load(Path(), 0, userPath, required)
}

// load is Load with the managed file at path, trusted when root or uid
// owns it and every directory above it. Load passes root's uid: a file
// that the user owns is one the user may weaken. Tests that do not run
// as root pass theirs.
func load(path string, uid int, userPath string, required bool) (*config.Effective, error) {
	mgd, err := read(path, uid)
	if err != nil {
		return nil, err
	}
	user := config.Layer{Name: userPath}
	if userPath != "" {
		data, err := os.ReadFile(userPath)
		switch {
		case errors.Is(err, fs.ErrNotExist) && !required:
			user.Name = ""
		case err != nil:
			return nil, fmt.Errorf("read config: %w", err)
		default:
			user.Data = data
		}
	}
	return config.Merge(user, config.Layer{Name: path, Data: mgd})
}

// read returns the managed file's contents, nil when there is none. A
// file is missing only where nobody but root could have removed it, or
// where its directory was never made.
func read(path string, uid int) ([]byte, error) {
	real, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		if _, lerr := os.Lstat(path); lerr == nil {
			return nil, fmt.Errorf("the machine's managed policy %s is a link to nothing: refusing to run without it (the administrator must fix or remove it)", path)
		}
		// No directory for the policy: none was installed. (Windows lets
		// every user create folders in %ProgramData% but not delete an
		// administrator's, so the writable parent says nothing here.) A
		// directory without its file must be one only root could have
		// emptied.
		if _, derr := os.Stat(filepath.Dir(path)); errors.Is(derr, fs.ErrNotExist) {
			return nil, nil
		}
		if err := checkDirs(filepath.Dir(path), uid, true); err != nil {
			return nil, err
		}
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("the machine's managed policy %s cannot be read: %w", path, err)
	}
	f, err := os.Open(real)
	if err != nil {
		return nil, fmt.Errorf("the machine's managed policy %s cannot be read (%w): it must be readable by every user (the administrator: chmod 644 %s)", path, err, real)
	}
	defer f.Close()
	// The file checked is the one opened, so it cannot be swapped between
	// the check and the read.
	if err := checkFile(f, real, uid); err != nil {
		return nil, err
	}
	if err := checkDirs(filepath.Dir(real), uid, false); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSize+1))
	if err != nil {
		return nil, fmt.Errorf("the machine's managed policy %s cannot be read: %w", path, err)
	}
	if len(data) > maxSize {
		return nil, fmt.Errorf("the machine's managed policy %s is larger than %d bytes: refusing it", path, maxSize)
	}
	return data, nil
}

// refused is the error for a managed file that is there but that someone
// other than the administrator could have written.
func refused(path, problem, fix string) error {
	return fmt.Errorf("the machine's managed policy %s %s, so someone other than the administrator could have written it: refusing to run without a policy I can trust (the administrator: %s)",
		path, problem, fix)
}

// Lowers is what the config file at path lowers from the one at own (a
// missing own file is the defaults), each bounded by the managed policy:
// what a shim or hook ignores a FLOWD_CONFIG for (paths.SteerEnv). A file
// that cannot be read lowers everything, so the caller keeps to own.
func Lowers(path, own string) []string {
	named, err := Load(path, true)
	if err != nil && named == nil {
		return []string{"it cannot be read: " + err.Error()}
	}
	mine, err := Load(own, false)
	if err != nil && mine == nil {
		return nil // own cannot be read either: flowd reports it, and callers fall back to the closed side
	}
	return config.Weakened(mine.Config, named.Config)
}
