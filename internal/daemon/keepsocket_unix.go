//go:build unix

package daemon

import "os"

// modeChanged reports whether flowd's socket no longer has the mode
// listen gives it: the user's own, or shared with its group for a system
// flowd. It is compared with that mode rather than with the mode first
// seen there, which a chmod made before the first look would have set.
func modeChanged(fi os.FileInfo, o Options) bool {
	want := os.FileMode(0o600)
	if o.System {
		want = 0o660
	}
	return fi.Mode().Perm() != want
}
