package managed

import (
	"path/filepath"

	"golang.org/x/sys/windows"
)

// Path is where the machine's managed policy is: %ProgramData%, asked of
// the system rather than read from the environment, which the user sets.
func Path() string {
	dir, err := windows.KnownFolderPath(windows.FOLDERID_ProgramData, 0)
	if err != nil {
		dir = `C:\ProgramData`
	}
	return filepath.Join(dir, "flowd", "managed.toml")
}
