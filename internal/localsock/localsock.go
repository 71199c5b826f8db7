package localsock

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"sync/atomic"
	"time"

	"github.com/flowd-dev/flowd/internal/paths"
)

// Listener accepts only the connections its access admits.
type Listener struct {
	*net.UnixListener
	Logf   func(format string, args ...any)
	access access
	// refusing counts the refused connections being told why, which
	// bounds them: past maxRefusing, one is closed without a word.
	refusing atomic.Int32
}

// maxRefusing bounds the refused connections told why at once, and
// refuseWait how long one may take to send its request.
const (
	maxRefusing = 32
	refuseWait  = 2 * time.Second
)

// refuse tells a peer the listener does not admit why, as the HTTP answer
// every client of the socket (the CLI, hooks, shims upgrading) reads:
// otherwise a user of a system flowd they may not use is told flowd is not
// running. The request is read first, so that the client's write does not
// fail on a closed socket before it reads the answer.
func (l *Listener) refuse(c *net.UnixConn, why error) {
	if l.refusing.Add(1) > maxRefusing {
		l.refusing.Add(-1)
		c.Close()
		return
	}
	go func() {
		defer l.refusing.Add(-1)
		defer c.Close()
		c.SetDeadline(time.Now().Add(refuseWait))
		br := bufio.NewReaderSize(io.LimitReader(c, 8<<10), 8<<10)
		for {
			line, err := br.ReadSlice('\n')
			if err != nil || len(bytes.TrimSpace(line)) == 0 {
				break
			}
		}
		msg := fmt.Sprintf("flowd refused this connection: %v\n", why)
		fmt.Fprintf(c, "HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", len(msg), msg)
	}()
}

// Conn is an accepted connection and who is at its other end.
type Conn struct {
	*net.UnixConn
	Peer Cred
}

// Listen creates a user's private socket at path. The caller has made sure
// no other daemon owns it (flowd holds a lock file), so a stale socket is
// removed.
func Listen(path string) (*Listener, error) {
	return listen(path, 0o600)
}

// ListenShared creates a system flowd's socket at path: mode 0660, shared
// with the socket's group (the group flowd runs as, or the directory's if
// that is setgid), whose members it admits besides its own user and root.
func ListenShared(path string) (*Listener, error) {
	l, err := listen(path, 0o660)
	if err != nil {
		return nil, err
	}
	if err := l.share(path); err != nil {
		l.Close()
		return nil, err
	}
	return l, nil
}

func listen(path string, mode fs.FileMode) (*Listener, error) {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("remove stale socket %s: %w", path, err)
	}
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	// Between bind and chmod the directory keeps others out (a user's is
	// 0700); in a system flowd's 0755 directory the umask does, and
	// Accept admits no one the final mode would not.
	if err := os.Chmod(path, mode); err != nil {
		l.Close()
		return nil, fmt.Errorf("chmod socket %s: %w", path, err)
	}
	l.SetUnlinkOnClose(true)
	return &Listener{UnixListener: l, access: access{owner: os.Getuid(), group: noGroup}}, nil
}

// FromListener wraps a listener handed over by a service manager. A shared
// one is a system flowd's, shared with the group the manager gave the
// socket (systemd's SocketGroup= and SocketMode=).
func FromListener(ul *net.UnixListener, shared bool) (*Listener, error) {
	l := &Listener{UnixListener: ul, access: access{owner: os.Getuid(), group: noGroup}}
	if shared {
		if err := l.share(ul.Addr().String()); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// share admits the socket's group too.
func (l *Listener) share(path string) error {
	mode, gid, err := socketGroup(path)
	if err != nil {
		return fmt.Errorf("read the group of socket %s: %w", path, err)
	}
	if l.access.group = sharedGroup(mode, gid); l.access.group == noGroup {
		return fmt.Errorf("socket %s has mode %#o, so its group (gid %d) cannot connect and a system flowd would serve no one: give it mode 0660 (SocketMode=0660 in flowd.socket)",
			path, mode.Perm(), gid)
	}
	return nil
}

// Accept returns the next connection whose peer the listener admits, as a
// *Conn; others are closed and logged.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		c, err := l.AcceptUnix()
		if err != nil {
			return nil, err
		}
		cred, err := PeerCred(c)
		if err == nil {
			err = l.access.admit(cred)
		} else {
			err = fmt.Errorf("read peer credentials: %w", err)
		}
		if err != nil {
			if l.Logf != nil {
				l.Logf("refused connection: %v", err)
			}
			l.refuse(c, err)
			continue
		}
		return &Conn{UnixConn: c, Peer: cred}, nil
	}
}

// Dial connects to the socket at path and checks that the listener is a
// flowd this user may trust: one running as this user or root, or a system
// flowd whose socket only root could have placed (see the package doc).
// When nobody listens, the error matches syscall.ENOENT or
// syscall.ECONNREFUSED on every platform, Windows included.
func Dial(path string, timeout time.Duration) (*net.UnixConn, error) {
	d := net.Dialer{Timeout: timeout}
	c, err := d.Dial("unix", path)
	if err != nil {
		return nil, dialError(err)
	}
	uc := c.(*net.UnixConn)
	if err := checkListener(uc, path); err != nil {
		uc.Close()
		return nil, fmt.Errorf("flowd socket %s: %w", path, err)
	}
	return uc, nil
}

func checkListener(c *net.UnixConn, path string) error {
	cred, err := PeerCred(c)
	if err != nil {
		return fmt.Errorf("read peer credentials: %w", err)
	}
	return trustListener(os.Getuid(), cred.UID, func() error { return CheckSocketTrust(path, cred.UID) })
}

// trustListener decides whether a client running as me may talk to a
// listener running as uid. The path check, the only I/O, runs only for a
// listener that is neither.
func trustListener(me, uid int, pathTrusted func() error) error {
	if uid == me || uid == 0 {
		return nil
	}
	if err := pathTrusted(); err != nil {
		return fmt.Errorf("the listener runs as uid %d, not as you (uid %d) or root, and %w", uid, me, err)
	}
	return nil
}

// Locate is the socket this user's clients (shims, hooks, the flowd CLI)
// should use: the first of paths.Sockets where a flowd this user may trust
// answers, so every client finds the same flowd whatever environment its
// parent gave it; when none answers, paths.Socket, where a shim starts one.
func Locate() string {
	if s, ok := Find(paths.Sockets(), time.Second); ok {
		return s
	}
	return paths.Socket()
}

// Find returns the first of sockets where a flowd this user may trust
// accepts a connection.
func Find(sockets []string, timeout time.Duration) (string, bool) {
	for _, s := range sockets {
		if answers(s, timeout) {
			return s, true
		}
	}
	return "", false
}

// Answering lists every one of sockets where a flowd this user may trust
// accepts a connection: more than one means this user's clients may be
// split between flowds.
func Answering(sockets []string, timeout time.Duration) []string {
	var out []string
	for _, s := range sockets {
		if answers(s, timeout) {
			out = append(out, s)
		}
	}
	return out
}

// UserFlowds lists the sockets of paths.Sockets where a flowd of this user
// answers, leaving out the machine's flowd, which a user's own may stand
// beside: more than one splits the user's shims and hooks between them.
func UserFlowds() []string {
	var out []string
	for _, s := range Answering(paths.Sockets(), time.Second) {
		if s != paths.SystemSocket {
			out = append(out, s)
		}
	}
	return out
}

// answers costs one lstat for a missing socket and one failed connect for
// a file nobody listens on.
func answers(socket string, timeout time.Duration) bool {
	if _, err := os.Lstat(socket); err != nil {
		return false
	}
	c, err := Dial(socket, timeout)
	if err != nil {
		return false
	}
	c.Close()
	return true
}
