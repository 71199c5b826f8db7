//go:build unix

package main

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// lock takes flowd's lock beside the socket, as flowd does before it
// listens: a shim asks only a listener that holds it
// (localsock.DialFlowd). The file stays open, and locked, until exit.
func lock(path string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("open lock file %s: %w", path, err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		return fmt.Errorf("lock %s: %w", path, err)
	}
	return nil
}
