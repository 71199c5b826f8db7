//go:build !windows

package managed

import "runtime"

// Path is where the machine's managed policy is.
func Path() string {
	if runtime.GOOS == "darwin" {
		// A configuration profile's preference domain would suit MDM
		// better; a file is what every platform shares.
		return "/Library/Application Support/flowd/managed.toml"
	}
	return "/etc/flowd/managed.toml"
}
