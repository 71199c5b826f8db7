package shim

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/ondemand"
	"github.com/flowd-dev/flowd/internal/paths"
	"github.com/flowd-dev/flowd/internal/rawio"
	"github.com/flowd-dev/flowd/internal/sessionid"
	"github.com/flowd-dev/flowd/internal/shimproto"
	"github.com/flowd-dev/flowd/internal/unprotected"
)

// Options configure one shim run.
type Options struct {
	Name      string // --name; empty lets flowd name the server
	Socket    string // flowd's socket
	Autostart bool   // start flowd when nobody listens on Socket
	FailMode  string // used until flowd says otherwise
	// VerdictTimeout bounds the wait for flowd's welcome, and applies
	// until flowd says otherwise; zero means the default.
	VerdictTimeout time.Duration
	Command        []string // the upstream server
	Stdin          io.Reader
	Stdout         io.Writer
	Stderr         io.Writer // the shim's own diagnostics; the upstream's stderr goes to os.Stderr
	// UnprotectedDir is where the shim records itself while it passes
	// messages unchecked (package unprotected); empty records nothing.
	UnprotectedDir string
	// Steered is paths.EnvSteer.Steered: why flowd's socket or data directory
	// came from the server's environment rather than the user's own
	// places. Such a shim passes nothing unchecked, whatever fail_mode
	// says; "" for one on the user's own flowd.
	Steered string

	// working replaces listenerWorking in tests.
	working func(net.Conn) func() bool
}

// untrustedSocket says why the directory of flowd's socket cannot be
// trusted, or "" when it can, or does not exist yet (flowd makes it).
// Someone else could be listening in an untrusted place (another user who
// made /tmp/flowd-UID first), so the shim must not pass tool calls there
// as if flowd were merely down.
func untrustedSocket(socket string) string {
	if _, err := os.Lstat(filepath.Dir(socket)); err != nil {
		return ""
	}
	_, err := localsock.CheckSocketDir(socket)
	var notMember *localsock.GroupError
	if err == nil || errors.As(err, &notMember) {
		return "" // a system flowd this user may not use: merely unreachable
	}
	return fmt.Sprintf("flowd's socket directory cannot be trusted, so tool calls are blocked whatever fail_mode says: %v (flowd doctor)", err)
}

// Run relays one upstream server until it exits and returns the exit code
// the shim should exit with: the upstream's own.
func Run(o Options) int {
	logf := func(format string, args ...any) {
		fmt.Fprintf(o.Stderr, "shim: "+format+"\n", args...)
	}
	path, err := lookPath(o.Command[0])
	if err != nil {
		logf("%v", err)
		return 127
	}
	// The upstream writes straight into a pipe we own, so no copying
	// goroutine in os/exec can outlive the process and delay Wait.
	outR, outW, err := os.Pipe()
	if err != nil {
		logf("create pipe: %v", err)
		return 1
	}
	cmd := exec.Command(path, o.Command[1:]...)
	cmd.Stdout = outW
	cmd.Stderr = os.Stderr // live and untouched: hosts log it
	cmd.SysProcAttr = childAttr()
	stdin, err := cmd.StdinPipe()
	if err != nil {
		logf("create pipe: %v", err)
		return 1
	}
	// Catch signals before the child exists, so none is lost in between.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, forwardedSignals...)
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE) // a vanished client is an EPIPE, not death
	upstreamExited, err := startChild(cmd)
	if err != nil {
		outW.Close()
		logf("start upstream %s: %v", strings.Join(o.Command, " "), err)
		return 127
	}
	outW.Close()

	hello := shimproto.Hello{PID: os.Getpid(), Name: o.Name, Command: o.Command, Session: sessionid.Collect()}
	var start func() error
	// The system flowd is the service manager's to start, as another user.
	if o.Autostart && o.Socket != paths.SystemSocket {
		start = func() error { return ondemand.StartNextToMe(o.Socket, ondemand.Wait) }
	}
	clientIn, clientOut := o.Stdin, o.Stdout
	if f, ok := clientIn.(*os.File); ok {
		if g := pollable(f, os.O_RDONLY); g != f {
			defer g.Close() // Run may return into a process that lives on
			clientIn = g
		}
	}
	if f, ok := clientOut.(*os.File); ok {
		if g := pollable(f, os.O_WRONLY); g != f {
			defer g.Close()
			clientOut = g
		}
	}
	toClient := &lockedWriter{w: rawio.Writer(clientOut)}
	l := newLink(o.Socket, hello, start, logf)
	l.timeout, l.working = o.VerdictTimeout, o.working
	l.toClient = func(line []byte) { toClient.Write(line) }
	r := &relay{link: l, failMode: o.FailMode, logf: logf, trust: newSocketTrust(o.Socket), steered: o.Steered}
	if why := r.trust.untrusted(); why != "" {
		logf("%s", why)
	}
	if dir := o.UnprotectedDir; dir != "" {
		rec := unprotected.Shim{PID: os.Getpid(), Server: o.Name, Socket: o.Socket}
		if rec.Server == "" {
			rec.Server = strings.Join(o.Command, " ")
		}
		r.unprotected = func(reason string) {
			if reason == "" {
				unprotected.Clear(dir, rec.PID)
				return
			}
			rec.Reason, rec.Since = reason, time.Now()
			if err := unprotected.Mark(dir, rec); err != nil {
				logf("%v", err)
			}
		}
		defer unprotected.Clear(dir, rec.PID)
	}
	if err := l.connect(); err != nil {
		logf("flowd at %s %s: %v", o.Socket, l.state(), err)
		l.reconnect()
	}

	toServer := &lockedWriter{w: rawio.Writer(stdin)}
	clientDone := make(chan struct{})
	go func() {
		r.pipe(shimproto.ClientToServer, rawio.Reader(clientIn), toServer, toClient)
		stdin.Close() // the client's EOF, passed on once everything before it is written
		close(clientDone)
	}()
	serverDone := make(chan struct{})
	out := &upstreamOut{f: outR, r: rawio.Reader(outR)}
	go func() {
		r.pipe(shimproto.ServerToClient, out, toClient, toServer)
		close(serverDone)
	}()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	var waitErr error
	for waiting := true; waiting; {
		select {
		case s := <-sigs:
			if !r.serverSpoke.Load() && r.sawInitialize.Load() {
				logf("upstream never answered initialize; passing %v on", s)
			}
			if err := cmd.Process.Signal(s); err != nil {
				cmd.Process.Kill() // a platform that cannot pass the signal on
			}
		case waitErr = <-exited:
			waiting = false
		}
	}
	// Everything the upstream wrote is in the pipe now, and all of it goes
	// to the client, however long that takes (a client that has gone makes
	// the writes fail at once). Output from processes the upstream left
	// behind is not its MCP stream: reading stops when the pipe is empty.
	upstreamExited()
	outR.SetReadDeadline(time.Now())
	<-serverDone
	code := exitCode(cmd, waitErr)
	if !r.serverSpoke.Load() {
		logf("upstream %s exited with code %d before sending anything", strings.Join(o.Command, " "), code)
	} else if code != 0 {
		logf("upstream exited with code %d", code)
	}
	l.report(shimproto.TypeUpstream, shimproto.UpstreamEvent{Exited: true, ExitCode: code})
	l.close()
	return code
}

// upstreamOut reads the upstream's stdout. Once the upstream has exited,
// Run sets the pipe's read deadline: from then on a read returns what the
// pipe holds and io.EOF when it is empty, rather than waiting for writers
// the upstream left behind (a child holding the pipe open).
type upstreamOut struct {
	f *os.File
	r io.Reader // f, through rawio
}

func (u *upstreamOut) Read(p []byte) (int, error) {
	n, err := u.r.Read(p)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		if n > 0 {
			return n, nil
		}
		return readNow(u.f, p)
	}
	return n, err
}

func exitCode(cmd *exec.Cmd, err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	}
	return 1
}

// lookPath resolves the upstream command. Claude Desktop starts servers
// with a reduced environment, so a PATH miss gets a message that says what
// to do rather than a bare ENOENT.
func lookPath(name string) (string, error) {
	p, err := exec.LookPath(name)
	switch {
	case err != nil && strings.ContainsRune(name, filepath.Separator):
		// A path was given: PATH has nothing to do with it.
		return "", fmt.Errorf("cannot run upstream command %s: %w", name, err)
	case err != nil:
		return "", fmt.Errorf("cannot find upstream command %q on PATH (%s); give its absolute path", name, os.Getenv("PATH"))
	}
	return p, nil
}
