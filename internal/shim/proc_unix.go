//go:build unix

package shim

import (
	"os"
	"os/exec"
	"runtime"
	"syscall"
)

var forwardedSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// startChild starts cmd from a thread that never exits: Linux delivers the
// parent-death signal when the creating thread dies, not the process.
func startChild(cmd *exec.Cmd) error {
	errc := make(chan error)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread lives as long as the shim
		errc <- cmd.Start()
		select {}
	}()
	return <-errc
}
