package shim

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/ondemand"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

// startRespondingWith runs a shim whose upstream is respond, with
// flowd's liveness told by working (see link.working).
func startRespondingWith(t *testing.T, socket string, timeout time.Duration, working bool) *running {
	self, err := os.Executable()
	require.NoError(t, err)
	t.Setenv(responderEnv, "1") // inherited by the upstream only: this process read it at start
	return startShimWith(t, Options{Socket: socket, FailMode: "open", Command: []string{self}, VerdictTimeout: timeout,
		working: func(net.Conn) func() bool { return func() bool { return working } }})
}

// A flowd that accepts the shim's connection and says nothing is there,
// stopped or stuck: with fail_mode open, a tool call to a server it never
// classed internal is blocked, never passed unchecked, and within the
// verdict timeout.
func TestFirstContactWithheldBlocksCalls(t *testing.T) {
	sock := socketPath(t)
	const timeout = 300 * time.Millisecond
	f := startFake(t, sock, passAll)
	f.hung.Store(true) // accepted by the kernel, never answered
	r := startRespondingWith(t, sock, timeout, false)
	line, took := r.call(t, 1, bigCall(1, 10))
	assert.Contains(t, line, "flowd blocked: flowd is not answering and this server's class is not known")
	assert.NotContains(t, line, strings.Repeat("m", 10), "the call must not reach the server")
	assert.Less(t, took, timeout+slack)
	assert.Equal(t, 0, r.finish(t))
	assert.NotContains(t, r.stderr.String(), "unreachable")
	assert.Zero(t, f.seenCount())
}

// A flowd that accepts and closes the connection without a word, as one
// shedding connections under a flood does, is not an absent flowd: the
// call is blocked, not passed unchecked as fail_mode open passes calls
// while no flowd runs. An agent able to load the machine or flood the
// socket must not open the way out by it.
func TestFirstContactClosedUnansweredBlocksCalls(t *testing.T) {
	sock := socketPath(t)
	f := startFake(t, sock, passAll)
	f.mute.Store(true)
	r := startRespondingWith(t, sock, time.Second, false)
	line, _ := r.call(t, 1, bigCall(1, 10))
	assert.Contains(t, line, "flowd blocked: flowd is not answering")
	assert.NotContains(t, line, strings.Repeat("m", 10), "the call must not reach the server")
	assert.Equal(t, 0, r.finish(t))
	assert.NotContains(t, r.stderr.String(), "unreachable")
	assert.NotContains(t, r.stderr.String(), "messages pass unchecked")
}

// A connection made while flowd is being killed is taken by the kernel
// and then closed with flowd, which leaves its socket behind: a flowd
// killed or crashed, not one that stopped as asked, so with fail_mode
// open a call to a server not classed internal is blocked, not passed.
// An agent able to kill flowd must not open the way out by it.
func TestFirstContactWithDyingFlowdBlocksCalls(t *testing.T) {
	sock := socketPath(t)
	f := startFake(t, sock, passAll)
	f.dying.Store(true)
	r := startRespondingWith(t, sock, time.Second, false)
	line, _ := r.call(t, 1, bigCall(1, 10))
	assert.Contains(t, line, "flowd blocked: flowd is gone but its socket is still there (killed or crashed)")
	assert.Contains(t, line, "flowd start")
	assert.NotContains(t, line, strings.Repeat("m", 10), "the call must not reach the server")
	assert.Equal(t, 0, r.finish(t))
	assert.NotContains(t, r.stderr.String(), "messages pass unchecked")
	_, err := os.Stat(sock)
	assert.NoError(t, err, "the socket file was left behind, as a killed flowd leaves it")
}

// A flowd that stopped as asked removed its socket: no flowd runs, and
// fail_mode open passes the call unchecked, saying so.
func TestNoFlowdPassesUnderOpen(t *testing.T) {
	sock := socketPath(t)
	r := startRespondingWith(t, sock, time.Second, false)
	line, _ := r.call(t, 1, bigCall(1, 10))
	assert.Contains(t, line, strings.Repeat("m", 10), "passed unchecked under fail_mode open")
	assert.Equal(t, 0, r.finish(t))
	assert.Contains(t, r.stderr.String(), "is unreachable: messages pass unchecked (fail_mode=open)")
}

// A flowd that is working (busy with other shims on a loaded machine) is
// waited for past the verdict timeout at first contact: the call is
// judged once it answers, not blocked for want of an answer in time.
func TestFirstContactWaitsForWorkingFlowd(t *testing.T) {
	sock := socketPath(t)
	const timeout = 200 * time.Millisecond
	f := startFake(t, sock, passAll, func(f *fakeFlowd) { f.answerAfter = 3 * timeout })
	r := startRespondingWith(t, sock, timeout, true)
	line, took := r.call(t, 1, bigCall(1, 10))
	assert.Contains(t, line, strings.Repeat("m", 10), "judged and passed by flowd")
	assert.GreaterOrEqual(t, took, 3*timeout, "waited past the verdict timeout")
	assert.Equal(t, 0, r.finish(t))
	assert.NotContains(t, r.stderr.String(), "not answering")
	assert.Equal(t, 2, f.seenCount(), "flowd judged the call and its answer")
}

// A working flowd that never answers is given up at last, after
// contactPatience verdict timeouts, and the call is blocked.
func TestFirstContactPatienceEnds(t *testing.T) {
	sock := socketPath(t)
	const timeout = 100 * time.Millisecond
	f := startFake(t, sock, passAll)
	f.hung.Store(true)
	r := startRespondingWith(t, sock, timeout, true)
	line, took := r.call(t, 1, bigCall(1, 10))
	assert.Contains(t, line, "flowd blocked: flowd is not answering")
	assert.GreaterOrEqual(t, took, contactPatience*timeout-timeout)
	assert.Less(t, took, contactPatience*timeout+slack)
	assert.Equal(t, 0, r.finish(t))
}

// A connected flowd that works on a call without a keep-alive in time
// (starved of CPU, its keep-alives wait like everything else) is waited
// for while it is working, and its verdict applies.
func TestSilentWorkingFlowdIsWaitedFor(t *testing.T) {
	sock := socketPath(t)
	const timeout = 200 * time.Millisecond
	startFake(t, sock, func(m shimproto.Message) []shimproto.Verdict {
		if bytes.Contains(m.Data, []byte("slow-call")) {
			time.Sleep(3 * timeout) // flowd busy without a word: what the test is about
		}
		return passAll(m)
	}, func(f *fakeFlowd) { f.welcome.VerdictTimeout = timeout.Milliseconds() })
	r := startRespondingWith(t, sock, timeout, true)
	line, took := r.call(t, 1, echoCall(1, "echo", `{"message":"slow-call"}`))
	assert.Contains(t, line, "slow-call", "judged and passed by flowd")
	assert.GreaterOrEqual(t, took, 3*timeout)
	assert.Equal(t, 0, r.finish(t))
	assert.NotContains(t, r.stderr.String(), "not answering")
}

// Found by a red team (RT4-2): a socket whose mode was changed while
// flowd ran refused the connect with EACCES, read as "no flowd" (fail_mode
// open for every server). It is a flowd made unreachable: silent. (Tests
// run as root here, where a mode refuses nothing: read on the error.)
func TestRefusedSocketIsNotAbsent(t *testing.T) {
	opErr := func(errno syscall.Errno) error {
		return &net.OpError{Op: "dial", Net: "unix", Err: os.NewSyscallError("connect", errno)}
	}
	assert.Equal(t, silent, reachOf(opErr(syscall.EACCES)))
	assert.Equal(t, silent, reachOf(opErr(syscall.EPERM)))
	assert.Equal(t, dead, reachOf(opErr(syscall.ECONNREFUSED)))
	assert.Equal(t, unreachable, reachOf(opErr(syscall.ENOENT)))
}

// Found by a red team (RT4-1): flowd killed, its socket removed and its
// lock held (so each flowd the shim starts gives way and no socket
// comes): the shim read the missing socket as "no flowd" and, once its
// start failed, opened fail_mode for every server. A shim that may start
// flowd and cannot is facing a flowd kept down: gone, as if killed. Only
// where no flowd is installed, or the shim may not start one, is a
// missing socket an absent flowd.
func TestMissingSocketThatCannotBeStartedIsGone(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "flowd.sock")
	for _, tt := range []struct {
		name  string
		start func() error
		want  string
	}{
		{"start fails", func() error { return errors.New("flowd did not answer within 10s") }, stateGone},
		{"no flowd installed", func() error { return fmt.Errorf("start: %w", ondemand.ErrNotInstalled) }, stateUnreachable},
		{"may not start flowd", nil, stateUnreachable},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := newLink(sock, shimproto.Hello{}, tt.start, func(string, ...any) {})
			require.Error(t, l.connect())
			assert.Equal(t, tt.want, l.state())
			if tt.start != nil {
				// The next try comes within 10 s of the start: not tried
				// again, and still not read as absent.
				require.Error(t, l.connect())
				assert.Equal(t, tt.want, l.state())
			}
		})
	}
}

// Found by red teams (RT4-3, RT5-4): with flowd killed, any program of
// the user's listening on its socket could speak shimproto and pass every
// call. The shim connects only to flowd (the program it would start,
// holding flowd's lock; here the test binary plays flowd), and reads
// anything else as a flowd that is there and not answering, never absent.
func TestImpostorOnTheSocketIsNotFlowd(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux tells the client which process listens")
	}
	dir, err := os.MkdirTemp("", "sh")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "s")
	f := startFake(t, sock, passAll)
	f.unlock() // listening, but not holding flowd's lock
	l := newLink(sock, shimproto.Hello{}, nil, func(string, ...any) {})
	err = l.connect()
	assert.ErrorIs(t, err, localsock.ErrNotFlowd)
	assert.Equal(t, stateSilent, l.state())
	select {
	case h := <-f.hello:
		t.Errorf("the shim said hello to a listener that is not flowd: %+v", h)
	default:
	}
}
