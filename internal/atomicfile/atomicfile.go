// Package atomicfile replaces a file whole: the new bytes go to a
// temporary file beside it, which is synced and renamed over it, so a
// reader sees the old file or the new one, never half of one.
package atomicfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces path with data, with mode.
func Write(path string, data []byte, mode fs.FileMode) error {
	return WriteIf(path, data, mode, nil)
}

// WriteIf is Write that runs check, when not nil, just before the rename
// and leaves path as it was if check fails: a caller can make sure
// nobody changed the file meanwhile.
func WriteIf(path string, data []byte, mode fs.FileMode, check func() error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && check != nil {
		err = check()
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
