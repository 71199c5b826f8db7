package shim

import (
	"os"
	"os/exec"
	"syscall"
)

// Windows cannot deliver a signal to another process: on an interrupt
// the shim ends the child (Run falls back to Kill when Signal fails).
var forwardedSignals = []os.Signal{os.Interrupt}

func startChild(cmd *exec.Cmd) error { return cmd.Start() }

// childAttr: the child is closed with the shim's job when the shim exits
// through stdin EOF; Windows has no parent-death signal.
func childAttr() *syscall.SysProcAttr { return nil }

// detachAttr starts flowd in its own process group, away from the
// client's console signals.
func detachAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}
