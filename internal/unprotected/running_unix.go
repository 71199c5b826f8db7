//go:build unix

package unprotected

import (
	"errors"
	"syscall"
)

// running reports whether a process with pid exists. EPERM means it does,
// as another user's.
func running(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
