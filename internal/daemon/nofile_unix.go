//go:build unix

package daemon

import "golang.org/x/sys/unix"

// raiseOpenFiles lifts the soft limit on open descriptors to the hard one
// (Go's runtime does so at start on most systems; this makes sure) and
// returns the limit now in force: every shim and client holds one.
func raiseOpenFiles() (uint64, error) {
	var l unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &l); err != nil {
		return 0, err
	}
	if l.Cur < l.Max {
		want := l
		want.Cur = l.Max
		if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &want); err != nil {
			return uint64(l.Cur), err
		}
		l = want
	}
	return uint64(l.Cur), nil
}
