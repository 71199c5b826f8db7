package shim

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/jsonrpc"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

// responderEnv makes the test binary an MCP-like upstream (respond).
const responderEnv = "FLOWD_SHIM_TEST_RESPONDER"

func TestMain(m *testing.M) {
	if os.Getenv(responderEnv) != "" {
		respond()
		return
	}
	// The stand-ins for flowd here are the test binary.
	self, err := os.Executable()
	if err != nil {
		panic(err)
	}
	flowdBinary = func() string { return self }
	os.Exit(m.Run())
}

// respond answers each request on stdin with a result whose text is the
// request's arguments, so a large call has a large answer; any other line
// comes back as it is.
func respond() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			e, perr := jsonrpc.Parse(line)
			if perr == nil && e.Kind == jsonrpc.Request {
				_, args, _ := jsonrpc.ToolCall(e.Params)
				text, _ := json.Marshal(string(args))
				fmt.Fprintf(out, `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":%s}]}}`+"\n", e.ID, text)
			} else {
				out.Write(line)
			}
			out.Flush()
		}
		if err != nil {
			return
		}
	}
}

// startResponding runs a shim whose upstream is respond, in a process of
// its own.
func startResponding(t *testing.T, socket, failMode string) *running {
	self, err := os.Executable()
	require.NoError(t, err)
	t.Setenv(responderEnv, "1") // inherited by the upstream only: this process read it at start
	return startShim(t, socket, failMode, self)
}

func bigCall(id int, size int) string {
	return echoCall(id, "echo", `{"message":"`+strings.Repeat("m", size)+`"}`)
}

// call sends request id and returns the client's next line, which must
// answer it, and how long that took.
func (r *running) call(t *testing.T, id int, request string) (line string, took time.Duration) {
	t.Helper()
	start := time.Now()
	r.send(t, request)
	return r.answerTo(t, id), time.Since(start)
}

// answerTo reads the client's next line and checks that it answers id.
func (r *running) answerTo(t *testing.T, id int) string {
	t.Helper()
	line := r.readLine(t)
	e, err := jsonrpc.Parse([]byte(line))
	require.NoError(t, err, clip(line))
	require.Equal(t, fmt.Sprint(id), string(e.ID), clip(line))
	return line
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + fmt.Sprintf("… (%d bytes)", len(s))
	}
	return s
}

// slack is what a busy two-core machine under the race detector may add
// to the verdict timeout before the shim acts on it.
const slack = 2 * time.Second

// flowd stops (as under SIGSTOP: it reads and says nothing, and takes no
// new connection) while 1 MB calls and results flow. With fail_mode open
// every call to a server flowd classed internal is answered by the server
// within the verdict timeout, and the shim says once that flowd is not
// answering and messages pass.
func TestStoppedFlowdFailsOpenWithinTheTimeout(t *testing.T) {
	sock := socketPath(t)
	const timeout = time.Second
	f := startFake(t, sock, passAll, func(f *fakeFlowd) {
		f.welcome.VerdictTimeout, f.welcome.AliveMS = timeout.Milliseconds(), 50
		f.welcome.ServerClass = shimproto.KeepsDataIn
	})
	r := startResponding(t, sock, "closed") // flowd's fail_mode (open) wins
	<-f.hello
	const size = 1 << 20
	line, _ := r.call(t, 0, bigCall(0, size))
	require.Contains(t, line, strings.Repeat("m", size))

	f.hung.Store(true)
	for id := 1; id <= 4; id++ {
		line, took := r.call(t, id, bigCall(id, size))
		t.Logf("call %d answered after %v", id, took.Round(time.Millisecond))
		assert.Contains(t, line, strings.Repeat("m", size), "the server's answer, passed unchecked")
		assert.Less(t, took, timeout+slack, "call %d", id)
	}
	assert.Equal(t, 0, r.finish(t))
	stderr := r.stderr.String()
	assert.Contains(t, stderr, "flowd is not answering")
	assert.Equal(t, 1, strings.Count(stderr, "is not answering: messages pass unchecked (fail_mode=open)"), stderr)
	assert.NotContains(t, stderr, "unreachable")
}

// With fail_mode open, a stopped flowd still lets no tool call through to
// a server it did not class internal, nor to one whose class it never
// said: pausing flowd must not open the way out.
func TestStoppedFlowdBlocksCallsToServersNotInternal(t *testing.T) {
	for _, class := range []string{"external", "unknown", "hybrid", ""} {
		t.Run("class="+class, func(t *testing.T) {
			sock := socketPath(t)
			const timeout = time.Second
			f := startFake(t, sock, passAll, func(f *fakeFlowd) {
				f.welcome.VerdictTimeout, f.welcome.AliveMS, f.welcome.ServerClass = timeout.Milliseconds(), 50, class
			})
			r := startResponding(t, sock, "open")
			<-f.hello
			line, _ := r.call(t, 0, bigCall(0, 10))
			require.Contains(t, line, strings.Repeat("m", 10))

			f.hung.Store(true)
			for id := 1; id <= 3; id++ {
				line, took := r.call(t, id, bigCall(id, 10))
				assert.Contains(t, line, "flowd blocked: flowd is not answering and this server's class is", "call %d", id)
				assert.NotContains(t, line, strings.Repeat("m", 10), "call %d must not reach the server", id)
				assert.Less(t, took, timeout+slack, "call %d", id)
			}
			assert.Equal(t, 0, r.finish(t))
			stderr := r.stderr.String()
			assert.Equal(t, 1, strings.Count(stderr, "are blocked until it answers"), stderr)
			assert.NotContains(t, stderr, "messages pass unchecked")
		})
	}
}

// With fail_mode closed, a stopped flowd lets nothing through unchecked:
// a granted call whose answer flowd cannot see gets an error instead of
// the answer, and once flowd is given up, granted calls are refused and
// never reach the server. Requests other than tools/call still pass.
func TestStoppedFlowdClosedBlocksGrantedCalls(t *testing.T) {
	sock := socketPath(t)
	const timeout = time.Second
	f := grantingFlowd(t, sock)
	f.welcome.FailMode, f.welcome.VerdictTimeout, f.welcome.AliveMS = "closed", timeout.Milliseconds(), 50
	f.judge = passAll
	r := startResponding(t, sock, "open")
	<-f.hello
	r.say(t, "grant-now")
	line, _ := r.call(t, 1, echoCall(1, "echo", `{"message":"before"}`))
	assert.Contains(t, line, "before", "a granted call's answer, judged")

	f.hung.Store(true)
	// flowd owes the shim nothing, so nothing shows yet that it stopped:
	// the call goes at once, and its answer waits for a verdict that never
	// comes.
	line, took := r.call(t, 2, echoCall(2, "echo", `{"message":"during"}`))
	t.Logf("granted call answered after %v", took.Round(time.Millisecond))
	assert.Contains(t, line, `"error"`)
	assert.Contains(t, line, "flowd blocked: flowd is not answering and fail_mode is closed, so the server's answer could not be checked")
	assert.NotContains(t, line, "during")
	assert.Less(t, took, timeout+slack)

	// Given up now: the grant is gone with the connection.
	line, took = r.call(t, 3, bigCall(3, 1<<20))
	assert.Contains(t, line, `"isError":true`)
	assert.Contains(t, line, "flowd blocked: flowd is not answering and fail_mode is closed, so tool calls are not allowed")
	assert.Less(t, took, timeout+slack)
	// The server answers this request next: it never saw call 3.
	r.send(t, `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`+"\n")
	line = r.answerTo(t, 4)
	assert.Contains(t, line, `"result"`, "an answer to a request that passed unjudged passes too")
	assert.Equal(t, 0, r.finish(t))
	assert.NotContains(t, r.stderr.String(), "unreachable")
}

// A flowd that takes three verdict timeouts over a message but says it is
// working is waited for: its verdict applies, to that message and to the
// one queued behind it, and nothing passes unchecked.
func TestSlowFlowdIsWaitedFor(t *testing.T) {
	sock := socketPath(t)
	const timeout = 300 * time.Millisecond
	denied := `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"flowd blocked: denied"}],"isError":true}}` + "\n"
	f := startFake(t, sock, func(m shimproto.Message) []shimproto.Verdict {
		if bytes.Contains(m.Data, []byte("slow-call")) {
			return []shimproto.Verdict{{Seq: m.Seq, Action: shimproto.Respond, Data: []byte(denied)}}
		}
		return passAll(m)
	}, func(f *fakeFlowd) {
		f.welcome.VerdictTimeout, f.welcome.AliveMS = timeout.Milliseconds(), 20
		f.slow = func(m shimproto.Message) time.Duration {
			if bytes.Contains(m.Data, []byte("slow-call")) {
				return 3 * timeout
			}
			return 0
		}
	})
	r := startResponding(t, sock, "open")
	<-f.hello
	start := time.Now()
	r.send(t, echoCall(1, "echo", `{"message":"slow-call"}`), echoCall(2, "echo", `{"message":"behind"}`))
	assert.Equal(t, denied, r.readLine(t), "flowd's verdict, not the server's answer")
	took := time.Since(start)
	assert.Contains(t, r.answerTo(t, 2), "behind")
	assert.GreaterOrEqual(t, took, 3*timeout, "the call waited past the verdict timeout")
	assert.Equal(t, 0, r.finish(t))
	assert.NotContains(t, r.stderr.String(), "not answering")
	assert.NotContains(t, r.stderr.String(), "unchecked")
}

// A grant is used only while flowd keeps up with what it owes the shim.
func TestGrantsWaitWhileFlowdIsSilent(t *testing.T) {
	now := time.Now()
	tests := []struct {
		name    string
		owed    time.Time // when flowd began to owe a verdict; zero: it owes none
		heard   time.Time
		forward bool
	}{
		{"nothing owed", time.Time{}, now.Add(-time.Hour), true},
		{"owed briefly", now.Add(-10 * time.Millisecond), now.Add(-time.Hour), true},
		{"owed in silence", now.Add(-time.Second), now.Add(-time.Hour), false},
		{"owed, flowd says it works", now.Add(-time.Second), now.Add(-10 * time.Millisecond), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := net.Pipe()
			defer a.Close()
			defer b.Close()
			go func() { // flowd's end reads whatever the shim reports
				buf := make([]byte, 4096)
				for {
					if _, err := b.Read(buf); err != nil {
						return
					}
				}
			}()
			l := newLink("", shimproto.Hello{}, nil, func(string, ...any) {})
			l.conn, l.w = a, shimproto.NewWriter(a)
			l.welcome = shimproto.Welcome{VerdictTimeout: 5000, AliveMS: 100}
			l.grant = newGrant(shimproto.Grant{Seq: 1, Tools: []string{"echo"}})
			l.owedSince = tt.owed
			l.heard.Store(tt.heard.UnixNano())
			p := &pending{seq: 1, line: []byte(echoCall(1, "echo", `{}`))}
			assert.Equal(t, tt.forward, l.forward(p))
		})
	}
}
