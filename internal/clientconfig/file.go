package clientconfig

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/flowd-dev/flowd/internal/atomicfile"
	"github.com/flowd-dev/flowd/internal/shellnorm"
)

// BackupSuffix names the copy of a config file taken before flowd
// rewrites it.
const BackupSuffix = ".bak-flowd"

// File is what WrapFile or UnwrapFile did to one config file.
type File struct {
	Path string // the file edited: a symlink's target
	Result
	Written bool   // false for a dry run or when nothing changed
	Backup  string // the previous content's copy, when Written
}

// WrapFile applies Wrap to the config file at path, written in format f.
// A dry run reads and reports but writes nothing.
func WrapFile(path string, f Format, shim string, dryRun bool) (File, error) {
	return rewrite(path, func(b []byte) (Result, error) { return f.Wrap(b, shim) }, dryRun)
}

// UnwrapFile applies Unwrap to the config file at path.
func UnwrapFile(path string, f Format, dryRun bool) (File, error) {
	return rewrite(path, f.Unwrap, dryRun)
}

func rewrite(path string, change func([]byte) (Result, error), dryRun bool) (File, error) {
	// Edit a symlink's target, so a config kept in a dotfiles repository
	// stays linked.
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return File{}, fmt.Errorf("open %s: %w", path, err)
	}
	info, err := os.Stat(real)
	if err != nil {
		return File{}, fmt.Errorf("open %s: %w", path, err)
	}
	old, err := os.ReadFile(real)
	if err != nil {
		return File{}, fmt.Errorf("read %s: %w", path, err)
	}
	res, err := change(old)
	if err != nil {
		return File{}, fmt.Errorf("%s: %w", path, err)
	}
	f := File{Path: real, Result: res}
	if dryRun || !res.Changed() {
		return f, nil
	}
	mode := info.Mode().Perm() // env blocks hold tokens: the backup is as private as the file
	backup := real + BackupSuffix
	if err := writeAtomic(backup, old, mode, nil); err != nil {
		return File{}, fmt.Errorf("back up %s: %w", path, err)
	}
	if err := writeAtomic(real, res.Out, mode, old); err != nil {
		return File{}, fmt.Errorf("write %s (unchanged; backup in %s): %w", path, backup, err)
	}
	f.Written, f.Backup = true, backup
	return f, nil
}

// writeAtomic replaces path with b (atomicfile). When was is not nil,
// path must still hold it: clients rewrite their own files while they run
// (Claude Code its ~/.claude.json), and their change must not be lost.
func writeAtomic(path string, b []byte, mode fs.FileMode, was []byte) error {
	var check func() error
	if was != nil {
		check = func() error {
			now, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if !bytes.Equal(now, was) {
				return fmt.Errorf("the file changed while flowd edited it (is the client running?); run the command again")
			}
			return nil
		}
	}
	return atomicfile.WriteIf(path, b, mode, check)
}

// Report prints what happened to each server of f: old and new command
// lines for a changed one, the reason for one skipped.
func (f File) Report(w io.Writer) {
	for _, s := range f.Servers {
		name := s.Name
		if s.Project != "" {
			name += " (project " + s.Project + ")"
		}
		if s.Action == Skipped {
			fmt.Fprintf(w, "  %s: skipped, %s\n", name, s.Note)
			continue
		}
		action := string(s.Action)
		if !f.Written {
			action = "would be " + action // a dry run says what it would do
		}
		fmt.Fprintf(w, "  %s: %s\n    - %s\n    + %s\n", name, action, commandLine(s.Old), commandLine(s.New))
	}
	switch {
	case len(f.Servers) == 0:
		fmt.Fprintln(w, "  no MCP servers")
	case !f.Changed():
		fmt.Fprintln(w, "  nothing to change")
	case f.Written:
		fmt.Fprintf(w, "  written; the previous version is in %s\n", f.Backup)
	default:
		fmt.Fprintln(w, "  dry run: nothing written")
	}
}

// commandLine shows a command line as a POSIX shell would read it, so an
// argument with a space is visibly one argument.
func commandLine(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = shellnorm.QuoteForDisplay(a)
	}
	return strings.Join(quoted, " ")
}

// WrapCommand is the command line that wraps the servers of the config
// file at path, to show a user (doctor's fixes).
func WrapCommand(c Client, path string) string {
	return commandLine([]string{"shim", "wrap", "--client", string(c), "--config", path})
}
