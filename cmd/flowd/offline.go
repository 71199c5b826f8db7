package main

import (
	"errors"
	"fmt"

	"github.com/flowd-dev/flowd/internal/boltfile"
)

// offline explains an error from reading a store directly, without flowd:
// a damaged file is flowd's to move aside, not the reader's.
func offline(err error) error {
	if errors.Is(err, boltfile.ErrDamaged) {
		return fmt.Errorf("%w\nflowd moves it aside and starts a fresh one when it next starts (flowd run, or any shim); flowd doctor says more", err)
	}
	return err
}
