//go:build !unix

package main

import "errors"

// faultRun needs SIGSTOP and SIGCONT.
func faultRun(binaries, string, string, int) (Faults, error) {
	return Faults{}, errors.New("the fault run stops and continues flowd with SIGSTOP and SIGCONT: it needs a Unix system")
}
