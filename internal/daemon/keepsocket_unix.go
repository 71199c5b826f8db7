//go:build unix

package daemon

import "os"

// modeChanged reports whether flowd's socket has lost a permission that
// listen gives it, so that its clients cannot connect: the user's own
// read and write, and its group's for a system flowd. It is compared
// with that mode rather than with the mode first seen there, which a
// chmod made before the first look would have set. Permissions added are
// not a change that matters here: who connects is checked on every
// connection by the peer's uid, not by the socket's mode.
func modeChanged(fi os.FileInfo, o Options) bool {
	want := os.FileMode(0o600)
	if o.System {
		want = 0o660
	}
	return fi.Mode().Perm()&want != want
}
