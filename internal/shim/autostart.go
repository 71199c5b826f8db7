package shim

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/paths"
)

// startFlowd starts `flowd run` in its own session, detached from the
// client's pipes, and waits until its socket answers. Several shims may do
// this at once: flowd's lock file lets one win, and the others exit 0 and
// leave the waiting shims to find the winner's socket.
func startFlowd(socket string) error {
	bin, err := flowdBinary()
	if err != nil {
		return err
	}
	dir := paths.DataDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create data dir %s: %w", dir, err)
	}
	logPath := filepath.Join(dir, "flowd.log")
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("open flowd log %s: %w", logPath, err)
	}
	defer logf.Close()
	cmd := exec.Command(bin, "run", "--socket", socket)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = detachAttr()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", bin, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := localsock.Dial(socket, time.Second); err == nil {
			c.Close()
			return nil
		}
		select {
		case err := <-exited:
			if err != nil {
				return fmt.Errorf("flowd exited: %v (see %s)", err, logPath)
			}
			exited = nil // lost the race to another flowd: keep waiting for its socket
		case <-time.After(20 * time.Millisecond): // polling another process's socket: there is no signal to wait on
		}
	}
	return fmt.Errorf("flowd did not answer on %s within 10s (see %s)", socket, logPath)
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
