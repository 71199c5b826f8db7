package jsonedit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/flowd-dev/flowd/internal/atomicfile"
)

// BackupSuffix names the copy of a settings file taken before flowd
// rewrites it.
const BackupSuffix = ".bak-flowd"

// Change is what a Rewrite did to a settings file.
type Change struct {
	Path    string // the file written (a symlink's target)
	Changed bool   // false: the file already was as wanted and was not touched
	Backup  string // the previous content's copy; "" when none was needed
	Removed int    // entries the edit removed
}

// Rewrite applies edit to the file at path and writes the result only if
// it differs: first a backup of the old content, then the new content
// through a temporary file and a rename, so the agent never reads half a
// file. A symlinked settings file (dotfile managers do that) is written
// through the link, not replaced. what names the file in errors
// ("Claude Code settings").
func Rewrite(path, what string, edit func([]byte) ([]byte, int, error)) (Change, error) {
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	}
	ch := Change{Path: path}
	old, err := os.ReadFile(path)
	existed := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return ch, fmt.Errorf("read %s %s: %w", what, path, err)
	}
	out, removed, err := edit(old)
	if err != nil {
		return ch, fmt.Errorf("edit %s %s: %w (the file was not changed)", what, path, err)
	}
	ch.Removed = removed
	if string(out) == string(old) { // also a missing file that stays missing
		return ch, nil
	}
	mode := fs.FileMode(0o644)
	if existed {
		st, err := os.Stat(path)
		if err != nil {
			return ch, fmt.Errorf("stat %s %s: %w", what, path, err)
		}
		mode = st.Mode().Perm()
		ch.Backup = path + BackupSuffix
		if err := atomicfile.Write(ch.Backup, old, mode); err != nil {
			return ch, fmt.Errorf("back up %s: %w (the file was not changed)", what, err)
		}
	} else if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return ch, fmt.Errorf("create %s directory: %w", what, err)
	}
	if err := atomicfile.Write(path, out, mode); err != nil {
		return ch, fmt.Errorf("write %s: %w", what, err)
	}
	ch.Changed = true
	return ch, nil
}

// AgentFile is an agent's settings file in its dot-directory: under the
// user's home for scope "user", under the project directory dir for
// "project" (agent names the agent in errors).
func AgentFile(agent, dotDir, file, scope, dir string) (string, error) {
	switch scope {
	case "user":
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("find the user's %s settings: %w", agent, err)
		}
		return filepath.Join(home, dotDir, file), nil
	case "project":
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", fmt.Errorf("project directory %q: %w", dir, err)
		}
		return filepath.Join(abs, dotDir, file), nil
	}
	return "", fmt.Errorf("unknown scope %q: %s has user and project settings", scope, agent)
}
