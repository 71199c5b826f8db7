//go:build windows

package paths

// privateDir: the user's socket on Windows does not depend on it.
func privateDir(string) bool { return false }
