// Package ondemand starts and stops a flowd that no service manager
// looks after: the one the first shim that finds no flowd starts in the
// background (the way gpg-agent is started), and the one `flowd start`
// starts on a machine without a flowd service. It stays small: the shim
// links it.
package ondemand

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/paths"
)

// LogFile is where a flowd started on demand writes its log.
func LogFile() string { return filepath.Join(paths.DataDir(), "flowd.log") }

// Start runs `bin run --socket socket` in its own session, detached from
// the caller's pipes and terminal so that it outlives the caller, and
// waits up to wait until its socket answers. Several callers may do this
// at once: flowd's lock file lets one win, and the others exit 0 and
// leave the waiting callers to find the winner's socket.
func Start(bin, socket string, wait time.Duration) error {
	logPath := LogFile()
	if err := os.MkdirAll(filepath.Dir(logPath), 0o700); err != nil {
		return fmt.Errorf("create data dir %s: %w", filepath.Dir(logPath), err)
	}
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("open flowd log %s: %w", logPath, err)
	}
	defer logf.Close()
	cmd := exec.Command(bin, runArgs(socket, paths.DataDir(), paths.ConfigFile(), os.Getenv(paths.EnvConfig) != "")...)
	// flowd status says how this flowd runs: nothing in its environment
	// would tell it otherwise.
	cmd.Env = startEnv(os.Environ(), runtime.GOOS == "windows", paths.EnvStartedBy+"="+paths.StartedOnDemand)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = detachAttr()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", bin, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.Now().Add(wait)
	for time.Now().Before(deadline) {
		if answers(socket) {
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
	return fmt.Errorf("flowd did not answer on %s within %v (see %s)", socket, wait, logPath)
}

// runArgs is the command line of a flowd started on demand: the paths
// the caller found, which the flowd's own environment (startEnv) no
// longer gives. A config file that is not there is left to flowd's
// default, which is the defaults, unless it was named (FLOWD_CONFIG),
// where flowd refuses to start without it.
func runArgs(socket, dataDir, configFile string, configNamed bool) []string {
	args := []string{"run", "--socket", socket, "--data-dir", dataDir}
	if _, err := os.Stat(configFile); err == nil || configNamed {
		args = append(args, "--config", configFile)
	}
	return args
}

// StartNextToMe starts the flowd installed beside the running program (a
// shim or a hook), as Start does. One install directory is one version.
func StartNextToMe(socket string, wait time.Duration) error {
	bin, err := Binary()
	if err != nil {
		return err
	}
	return Start(bin, socket, wait)
}

// Wait is how long a caller with time to spare (a shim, `flowd start`)
// waits for the flowd it starts to answer.
const Wait = 10 * time.Second

// Binary is the flowd a shim or a hook starts, and so the one it expects
// on flowd's socket (localsock.DialFlowd): the one installed beside the
// running program, the program's links resolved first. PATH is never
// searched: it is the agent's to set (an MCP server's env, an agent's
// settings), and a program of its own named flowd, first on PATH, would
// be started as flowd and then trusted as flowd on the socket.
func Binary() (string, error) {
	return binaryBeside(os.Executable)
}

func binaryBeside(executable func() (string, error)) (string, error) {
	self, err := executable()
	if err != nil {
		return "", fmt.Errorf("find this program, beside which flowd is installed: %w", err)
	}
	dirs := []string{filepath.Dir(self)}
	if real, err := filepath.EvalSymlinks(self); err == nil && filepath.Dir(real) != dirs[0] {
		dirs = []string{filepath.Dir(real), dirs[0]}
	}
	for _, dir := range dirs {
		// LookPath of a path adds the executable suffix (flowd.exe on
		// Windows) and checks it can run; it searches nothing.
		if p, err := exec.LookPath(filepath.Join(dir, "flowd")); err == nil {
			return p, nil
		}
	}
	// A flowd that has run here and whose binary is now gone, or cannot
	// be run, was removed or disabled by someone who would gain by shims
	// and hooks reading it as never installed, where they fail open
	// (found in review: chmod a-x of the binary, after a kill and the
	// socket's removal, opened the way again).
	store := filepath.Join(paths.DataDir(), paths.ActivityStore)
	if _, err := os.Stat(store); err == nil {
		return "", fmt.Errorf("no flowd binary in %s, beside this program, though flowd has run here (%s): moved, removed or made unrunnable", strings.Join(dirs, " or "), store)
	}
	return "", fmt.Errorf("%w (%s)", ErrNotInstalled, strings.Join(dirs, " or "))
}

// ErrNotInstalled is StartNextToMe's error when there is no flowd to
// start, and none has run for this user (no activity store in the data
// dir).
var ErrNotInstalled = errors.New("no flowd binary next to this program")

// answers reports whether something accepts connections on socket.
func answers(socket string) bool {
	c, err := localsock.Dial(socket, time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

// Terminate asks flowd, process pid, to shut down as its service manager
// would (SIGTERM: it finishes what it has in hand and records it), and
// waits, up to timeout, until the process is gone, so that a flowd started
// next can take its socket and store.
func Terminate(pid int, timeout time.Duration) error {
	if err := terminate(pid); err != nil {
		return fmt.Errorf("stop flowd pid %d: %w", pid, err)
	}
	// It is not our child: all there is to watch is whether it still is.
	for deadline := time.Now().Add(timeout); alive(pid); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			return fmt.Errorf("flowd pid %d still runs %v after SIGTERM (see %s)", pid, timeout, LogFile())
		}
	}
	return nil
}
