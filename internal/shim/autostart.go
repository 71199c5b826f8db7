package shim

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/flowd-dev/flowd/internal/ondemand"
)

// startFlowd starts flowd in the background and waits until its socket
// answers (see ondemand.Start).
func startFlowd(socket string) error {
	bin, err := flowdBinary()
	if err != nil {
		return err
	}
	return ondemand.Start(bin, socket)
}

// flowdBinary prefers the flowd installed next to this shim, so one install
// directory is one version.
func flowdBinary() (string, error) {
	if self, err := os.Executable(); err == nil {
		// LookPath adds the executable suffix (flowd.exe on Windows).
		if p, err := exec.LookPath(filepath.Join(filepath.Dir(self), "flowd")); err == nil {
			return p, nil
		}
	}
	p, err := exec.LookPath("flowd")
	if err != nil {
		return "", errors.New("no flowd binary next to the shim or on PATH")
	}
	return p, nil
}
