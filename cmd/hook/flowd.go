package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/ondemand"
)

// flowdBinary is the flowd the hook expects on the socket: the one it
// would start. "" (none installed) matches no listener that runs as this
// user. Tests, whose stand-ins for flowd are the test binary, replace it.
var flowdBinary = func() string {
	bin, _ := ondemand.Binary()
	return bin
}

// maxResponse bounds what the hook reads back from flowd.
const maxResponse = 4 << 20

// call sends one HTTP/1.1 request to flowd over its socket and returns the
// status code and body. It speaks just enough HTTP by hand: net/http would
// double the binary and its start-up time, and the hook runs for every
// tool call.
func call(socket, method, path string, body []byte, timeout time.Duration) (int, []byte, error) {
	c, err := localsock.DialFlowd(socket, timeout, flowdBinary())
	if err != nil {
		return 0, nil, dialFailed(socket, err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(timeout))
	head := method + " " + path + " HTTP/1.1\r\nHost: flowd\r\nConnection: close\r\n"
	if body != nil {
		head += "Content-Type: application/json\r\nContent-Length: " + strconv.Itoa(len(body)) + "\r\n"
	}
	w := bufio.NewWriterSize(c, 64<<10)
	w.WriteString(head + "\r\n")
	w.Write(body)
	if err := w.Flush(); err != nil {
		return 0, nil, fmt.Errorf("send %s %s to flowd: %w", method, path, silence(err))
	}
	status, resp, err := readResponse(bufio.NewReader(c))
	if err != nil {
		return 0, nil, fmt.Errorf("read flowd's answer to %s %s: %w", method, path, silence(err))
	}
	return status, resp, nil
}

func readResponse(br *bufio.Reader) (int, []byte, error) {
	tp := textproto.NewReader(br)
	line, err := tp.ReadLine()
	if err != nil {
		return 0, nil, err
	}
	proto, rest, _ := strings.Cut(line, " ")
	code, _, _ := strings.Cut(rest, " ")
	status, err := strconv.Atoi(code)
	if !strings.HasPrefix(proto, "HTTP/1.") || err != nil || status < 100 || status > 999 {
		return 0, nil, fmt.Errorf("not an HTTP response: %q", line)
	}
	hdr, err := tp.ReadMIMEHeader()
	if err != nil {
		return 0, nil, fmt.Errorf("headers: %w", err)
	}
	var body []byte
	switch {
	case strings.EqualFold(hdr.Get("Transfer-Encoding"), "chunked"):
		body, err = readChunked(tp)
	case hdr.Get("Content-Length") != "":
		n, perr := strconv.Atoi(hdr.Get("Content-Length"))
		if perr != nil || n < 0 || n > maxResponse {
			return 0, nil, fmt.Errorf("bad Content-Length %q", hdr.Get("Content-Length"))
		}
		body = make([]byte, n)
		_, err = io.ReadFull(br, body)
	default: // Connection: close delimits the body
		body, err = io.ReadAll(io.LimitReader(br, maxResponse+1))
		if err == nil && len(body) > maxResponse {
			err = errors.New("response too large")
		}
	}
	if err != nil {
		return 0, nil, fmt.Errorf("body: %w", err)
	}
	return status, body, nil
}

func readChunked(tp *textproto.Reader) ([]byte, error) {
	var body []byte
	for {
		line, err := tp.ReadLine()
		if err != nil {
			return nil, err
		}
		sizeHex, _, _ := strings.Cut(line, ";")
		size, err := strconv.ParseUint(strings.TrimSpace(sizeHex), 16, 32)
		if err != nil || len(body)+int(size) > maxResponse {
			return nil, fmt.Errorf("bad chunk size %q", line)
		}
		if size == 0 {
			for { // trailer
				if l, err := tp.ReadLine(); err != nil || l == "" {
					return body, err
				}
			}
		}
		chunk := make([]byte, size+2)
		if _, err := io.ReadFull(tp.R, chunk); err != nil {
			return nil, err
		}
		if string(chunk[size:]) != "\r\n" {
			return nil, errors.New("chunk not followed by CRLF")
		}
		body = append(body, chunk[:size]...)
	}
}

// dialFailed reads a failed connect to flowd's socket as the shim does: a
// socket left behind is a flowd killed (errDead); one this user may not
// connect to was made so (chmod of the socket while flowd runs keeps its
// inode, so flowd does not see it at once) and is not a flowd that is
// absent (errLocked). Only a missing socket, or a system with no Unix
// sockets, is for the caller to read as unreachable; any other failure
// (the socket's directory replaced by a file or a link, a directory
// another user made, a connect that timed out) is a flowd that cannot be
// reached although it may run, and an agent able to cause it must not get
// its tools unchecked (found in review: a moved directory made every hook
// fail open, and flowd, which will not bind in a directory it does not
// trust, could not take it back).
func dialFailed(socket string, err error) error {
	var se *os.SyscallError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return fmt.Errorf("%w: connect to flowd at %s: %w", errDead, socket, err)
	case errors.Is(err, os.ErrPermission):
		return fmt.Errorf("%w: connect to flowd at %s: %w", errLocked, socket, err)
	case errors.Is(err, localsock.ErrNotFlowd):
		return fmt.Errorf("%w: %w", errImpostor, err)
	case errors.Is(err, syscall.ENOENT), errors.As(err, &se) && se.Syscall == "socket":
		return fmt.Errorf("connect to flowd at %s: %w", socket, err)
	}
	return fmt.Errorf("%w: connect to flowd at %s: %w", errBlocked, socket, err)
}

// errBlocked is errSilent for a socket path that leads nowhere flowd can
// be reached, for a reason other than a missing socket.
var errBlocked = fmt.Errorf("%w: its socket cannot be reached", errSilent)

// errLocked is errSilent for a socket that is there but refuses this
// user: found by a red team (RT4-2), a chmod of the socket made the hook
// read flowd as absent and fail open while flowd ran on.
var errLocked = fmt.Errorf("%w: its socket is there but refuses this user (permissions changed)", errSilent)

// errImpostor is errSilent for a socket on which a process of this user
// that is not flowd listens (red team RT4-3): one that answers "allow" to
// everything must get the agent no more than a flowd that is stuck.
var errImpostor = fmt.Errorf("%w: something other than flowd listens on its socket", errSilent)

// errDead marks a socket that is there with nobody behind it: a flowd
// that stops as asked removes its socket, so this one was killed or
// crashed. The hook starts it again; an agent able to kill flowd, and to
// keep it from starting, must not get its tools unchecked by it.
var errDead = errors.New("flowd's socket is there but flowd is not (killed or crashed)")

// errGone marks a flowd whose socket is missing and that the hook could
// not start although one is installed: a flowd killed and its socket
// removed by someone who also keeps a new one from serving (its lock
// held) looks so. It is not a flowd the user switched off: that one
// starts again.
var errGone = errors.New("flowd is not running and could not be started")

// errSilent marks a flowd that took the connection and then gave no
// answer: it said nothing for the whole timeout (stopped by SIGSTOP, or
// stuck), or it closed the connection or answered something that is not
// HTTP. Whatever took the connection is there, so it is not a flowd that
// is absent: a same-user process that floods flowd's socket until it
// sheds connections, or listens in its place, must not get the agent's
// tools unchecked (the shim reads such a first contact the same way).
var errSilent = errors.New("flowd is connected but not answering (stopped or stuck)")

// errDropped is errSilent for a connection closed or answered in a way
// no working flowd answers.
var errDropped = fmt.Errorf("%w: it took the connection and gave no answer", errSilent)

func silence(err error) error {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return fmt.Errorf("%w: %w", errSilent, err)
	}
	return fmt.Errorf("%w: %w", errDropped, err)
}
