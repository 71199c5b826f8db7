package localsock

import (
	"errors"
	"fmt"
	"net"
	"os"
	"time"
)

// ErrNotFlowd marks a listener on flowd's socket that runs as this user
// but is not flowd: any program of the user's (an agent's shell among
// them) can listen on the socket of a flowd it killed and answer "allow"
// (red team RT4-3, RT5-4). Clients that ask flowd for verdicts read it as
// a flowd that is there but not answering, never as one that is absent.
var ErrNotFlowd = errors.New("the process on flowd's socket is not flowd")

// ErrLocked is Lock's error when another process holds the lock.
var ErrLocked = errors.New("another process holds the lock")

// LockPath is the lock file beside socket that flowd takes before it
// listens (Lock).
func LockPath(socket string) string { return socket + ".lock" }

// DialFlowd is Dial for a client that asks flowd for verdicts (the hook,
// the shim): where the platform tells (Linux), a listener running as
// this user must be the flowd binary flowd names, the one the client
// would start (the same file), holding flowd's lock beside the socket
// (<socket>.lock, taken before flowd listens), and the socket must be
// that process's or its parent's (a service manager that listens for
// the flowd it starts). A listener running as root or as a system
// flowd's account cannot be a same-user impostor; Dial's rules cover it.
// flowd is "" when no flowd binary was found, which no listener matches.
func DialFlowd(path string, timeout time.Duration, flowd string) (*net.UnixConn, error) {
	c, err := Dial(path, timeout)
	if err != nil {
		return nil, err
	}
	if err := checkFlowd(c, path, flowd); err != nil {
		c.Close()
		return nil, fmt.Errorf("flowd socket %s: %w", path, err)
	}
	return c, nil
}

// exeMatch is how a process's program compares with the flowd binary.
type exeMatch int

const (
	exeUnread   exeMatch = iota // its program could not be read
	exeFlowd                    // the same file as the flowd binary
	exeReplaced                 // its program was deleted or replaced since it started
	exeOther                    // another program
)

// listenerProc is what the kernel says about the process behind a
// connection and about who holds flowd's lock.
type listenerProc struct {
	uid       int      // the listener's uid
	pid       int      // the process that made the listening socket; 0: not told
	lock      string   // flowd's lock file
	holder    int      // the process holding lock; 0: none
	holderExe exeMatch // holder's program against flowd
	exe       string   // holder's program, as /proc names it
	parent    int      // holder's parent
	manager   bool     // parent is a service manager: pid 1, or a root-owned systemd
	flowd     string   // the flowd binary expected
}

// judgeListener decides whether a listener that runs as me is flowd.
// Listeners running as another uid are not judged here (see DialFlowd).
func judgeListener(me int, p listenerProc) error {
	if p.uid != me {
		return nil
	}
	if p.flowd == "" {
		return fmt.Errorf("%w: no flowd binary was found beside this program to compare it with", ErrNotFlowd)
	}
	if p.pid <= 0 {
		return fmt.Errorf("%w: the kernel did not say which process listens", ErrNotFlowd)
	}
	if p.holder <= 0 {
		return fmt.Errorf("%w: process %d listens, but no process holds flowd's lock %s, which flowd takes before it listens", ErrNotFlowd, p.pid, p.lock)
	}
	switch p.holderExe {
	case exeUnread:
		return fmt.Errorf("%w: the program of process %d, which holds flowd's lock %s, cannot be read", ErrNotFlowd, p.holder, p.lock)
	case exeReplaced:
		return fmt.Errorf("%w: process %d runs a program that was replaced since it started (%s): if you upgraded flowd, restart it (flowd restart)", ErrNotFlowd, p.holder, p.exe)
	case exeOther:
		return fmt.Errorf("%w: process %d holds flowd's lock %s but runs %s, not %s", ErrNotFlowd, p.holder, p.lock, p.exe, p.flowd)
	}
	// Any program of the user's can start the real flowd under it, hand
	// it a socket, then listen on the path itself: only a service
	// manager may have made the socket flowd serves.
	if p.pid != p.holder && (p.pid != p.parent || !p.manager) {
		return fmt.Errorf("%w: the socket was made by process %d, neither flowd (process %d) nor a service manager that started it", ErrNotFlowd, p.pid, p.holder)
	}
	return nil
}

// sameExe compares a process's program, read through path (/proc/PID/exe),
// with the flowd binary. link is what path names; the kernel adds
// " (deleted)" to a program removed or replaced after it started.
func sameExe(exe os.FileInfo, exeErr error, link string, flowd os.FileInfo) exeMatch {
	switch {
	case exeErr != nil || flowd == nil:
		return exeUnread
	case os.SameFile(exe, flowd):
		return exeFlowd
	case len(link) > len(" (deleted)") && link[len(link)-len(" (deleted)"):] == " (deleted)":
		return exeReplaced
	}
	return exeOther
}
