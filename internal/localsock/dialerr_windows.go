package localsock

import (
	"errors"
	"syscall"

	"golang.org/x/sys/windows"
)

// dialError makes Winsock's "nobody listens" match syscall.ECONNREFUSED,
// so callers that start flowd when none runs (the shim) work here too.
// Windows' syscall.ECONNREFUSED is a made-up number that Winsock never
// returns: it says WSAECONNREFUSED, which errors.Is does not equate.
func dialError(err error) error {
	if errors.Is(err, windows.WSAECONNREFUSED) {
		return refusedError{err}
	}
	return err
}

// refusedError keeps Winsock's error and message and also is
// syscall.ECONNREFUSED.
type refusedError struct{ error }

func (e refusedError) Unwrap() error { return e.error }

func (refusedError) Is(target error) bool { return target == syscall.ECONNREFUSED }
