package shim

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/jsonrpc"
	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/paths"
	"github.com/flowd-dev/flowd/internal/shimproto"
	"github.com/flowd-dev/flowd/internal/unprotected"
)

// fakeFlowd speaks the flowd side of shimproto with a scripted judge, so
// the shim's ordering, fail_mode and reconnect logic can be driven into
// the cases a real flowd rarely produces: late, reordered or missing
// verdicts.
type fakeFlowd struct {
	t       *testing.T
	l       *localsock.Listener
	unlock  func() // lets go of flowd's lock, held until the fake stops or dies
	welcome shimproto.Welcome
	// judge answers messages; it may hold some back and release them later
	// by returning them in a later call. It runs on the connection's goroutine.
	judge func(m shimproto.Message) []shimproto.Verdict
	// grant, when set, may answer a message with Grant frames, sent before
	// the message's verdicts.
	grant func(m shimproto.Message) []shimproto.Grant
	// slow, when set, is how long flowd works on a message before judging
	// it, sending Alive frames every welcome.AliveMS meanwhile.
	slow func(m shimproto.Message) time.Duration
	// hung, once set, makes the fake behave like a stopped flowd: each
	// connection reads at most one more frame, and no connection is
	// answered, until the test ends.
	hung atomic.Bool
	// mute, while set, makes the fake close each new connection without
	// a word, as a flowd shedding connections under a flood does.
	mute atomic.Bool
	// dying, while set, makes the fake behave like a flowd being killed
	// when a connection reaches it: the listener goes, leaving its socket
	// file behind, and then the connection it had taken.
	dying atomic.Bool
	// answerAfter delays the answer to each upgrade: a flowd too busy to
	// reach the connection at once.
	answerAfter time.Duration
	released    chan struct{}
	stopOnce    sync.Once

	mu      sync.Mutex
	seen    [][]byte
	frames  []string // "answer", or a message's direction and data, in arrival order
	conns   []net.Conn
	hello   chan shimproto.Hello
	answers chan shimproto.Answer
}

// startFake listens on socket; setup, if any, runs before the first
// connection is served (a reconnecting shim may be waiting already).
func startFake(t *testing.T, socket string, judge func(shimproto.Message) []shimproto.Verdict, setup ...func(*fakeFlowd)) *fakeFlowd {
	unlock, err := localsock.Lock(socket)
	require.NoError(t, err, "flowd's lock: the shim asks only the flowd that holds it")
	l, err := localsock.Listen(socket)
	require.NoError(t, err)
	f := &fakeFlowd{t: t, l: l, unlock: unlock, judge: judge, hello: make(chan shimproto.Hello, 16), answers: make(chan shimproto.Answer, 16),
		welcome:  shimproto.Welcome{FailMode: "open", VerdictTimeout: 5000, MaxInspectBytes: 1 << 20},
		released: make(chan struct{})}
	for _, s := range setup {
		s(f)
	}
	go f.serve()
	t.Cleanup(f.stop)
	return f
}

func passAll(m shimproto.Message) []shimproto.Verdict {
	return []shimproto.Verdict{{Seq: m.Seq}}
}

func (f *fakeFlowd) serve() {
	for {
		c, err := f.l.Accept()
		if err != nil {
			return
		}
		f.mu.Lock()
		f.conns = append(f.conns, c)
		f.mu.Unlock()
		go f.handle(c)
	}
}

func (f *fakeFlowd) handle(c net.Conn) {
	defer c.Close()
	if f.mute.Load() {
		return
	}
	if f.dying.Load() {
		// The lock goes with the process, and the kernel may let go of
		// it before or after the connection: kept until the fake stops,
		// so that the shim's check of who listens has been made (a lock
		// gone first reads as a listener that is not flowd, blocked too:
		// TestImpostorOnTheSocketIsNotFlowd).
		f.l.SetUnlinkOnClose(false)
		f.l.Close()
		return
	}
	if f.hung.Load() {
		<-f.released // accepted by the kernel, never answered
		return
	}
	time.Sleep(f.answerAfter) // flowd busy elsewhere; the shim's wait is what the test measures
	br := bufio.NewReader(gated{c, f})
	req, err := http.ReadRequest(br)
	if err != nil || req.Header.Get("Upgrade") != shimproto.Version {
		return
	}
	io.WriteString(c, shimproto.SwitchingProtocols)
	r, w := shimproto.NewReader(br), shimproto.NewWriter(c)
	_, p, err := r.Next()
	if err != nil {
		return
	}
	var h shimproto.Hello
	json.Unmarshal(p, &h)
	if w.WriteJSON(shimproto.TypeWelcome, f.welcome) != nil {
		return
	}
	f.hello <- h
	for {
		t, p, err := r.Next()
		if err != nil {
			return
		}
		if f.hung.Load() {
			// A read begun before the fake was hung returned this frame;
			// a stopped flowd would not answer it.
			<-f.released
			return
		}
		if t == shimproto.TypeAnswer {
			var a shimproto.Answer
			json.Unmarshal(p, &a)
			f.mu.Lock()
			f.frames = append(f.frames, "answer")
			f.mu.Unlock()
			f.answers <- a
		}
		if t != shimproto.TypeMessage {
			continue
		}
		m, _ := shimproto.DecodeMessage(p)
		f.mu.Lock()
		f.seen = append(f.seen, bytes.Clone(m.Data))
		frame := m.Dir.String() + " " + string(m.Data)
		if m.Forwarded {
			frame = "forwarded " + frame
		}
		f.frames = append(f.frames, frame)
		f.mu.Unlock()
		if f.slow != nil {
			if err := f.work(w, f.slow(m)); err != nil {
				return
			}
		}
		if f.grant != nil {
			for _, g := range f.grant(m) {
				if w.WriteJSON(shimproto.TypeGrant, g) != nil {
					return
				}
			}
		}
		for _, v := range f.judge(m) {
			if w.WriteVerdict(v) != nil {
				return
			}
		}
	}
}

// gated reads c until the fake is hung, then blocks like a stopped
// process: what the shim writes stays in the socket, and a large frame
// stays half read.
type gated struct {
	c net.Conn
	f *fakeFlowd
}

func (g gated) Read(p []byte) (int, error) {
	if g.f.hung.Load() {
		<-g.f.released
		return 0, io.EOF
	}
	return g.c.Read(p)
}

// work spends d on a message the way flowd does, saying Alive every
// welcome.AliveMS meanwhile. The ticker models flowd's own timing, not
// a wait for the shim.
func (f *fakeFlowd) work(w *shimproto.Writer, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	tick := time.NewTicker(time.Duration(f.welcome.AliveMS) * time.Millisecond)
	defer tick.Stop()
	done := time.After(d)
	for {
		select {
		case <-done:
			return nil
		case <-tick.C:
			if err := w.WriteAlive(); err != nil {
				return err
			}
		}
	}
}

func (f *fakeFlowd) seenCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.seen)
}

// stop closes the listener and every connection: flowd crashing.
// kill ends the fake as SIGKILL ends flowd: its listener and connections
// close, and its socket file stays.
func (f *fakeFlowd) kill() {
	f.l.SetUnlinkOnClose(false)
	f.stop()
}

func (f *fakeFlowd) stop() {
	f.stopOnce.Do(func() { close(f.released) })
	f.l.Close()
	f.unlock()
	f.mu.Lock()
	for _, c := range f.conns {
		c.Close()
	}
	f.mu.Unlock()
}

// running is a shim relaying `cat` in this process, driven through pipes.
type running struct {
	in     *io.PipeWriter
	out    *bufio.Reader
	stderr *syncBuffer
	code   chan int
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func startShim(t *testing.T, socket, failMode string, command ...string) *running {
	return startShimWith(t, Options{Socket: socket, FailMode: failMode, Command: command})
}

// startShimWith runs a shim with o, its client's ends and stderr set here.
func startShimWith(t *testing.T, o Options) *running {
	if len(o.Command) == 0 {
		o.Command = []string{"cat"}
	}
	if o.working == nil {
		// The fake flowd is this process, busy with the test: whether it
		// counts as working is for each test to say, never by chance.
		o.working = func(net.Conn) func() bool { return nil }
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	r := &running{in: inW, out: bufio.NewReaderSize(outR, 1<<20), stderr: &syncBuffer{}, code: make(chan int, 1)}
	go func() {
		o.Stdin, o.Stdout, o.Stderr = inR, outW, r.stderr
		r.code <- Run(o)
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close() })
	return r
}

func (r *running) send(t *testing.T, lines ...string) {
	for _, l := range lines {
		_, err := io.WriteString(r.in, l)
		require.NoError(t, err)
	}
}

func (r *running) readLine(t *testing.T) string {
	s, err := r.out.ReadString('\n')
	require.NoError(t, err)
	return s
}

// finish closes the client's end and waits for the shim to exit. Like a
// client that has stopped writing, it reads whatever the shim still has
// for it: the shim delivers all of the upstream's output before it exits.
func (r *running) finish(t *testing.T) int {
	r.in.Close()
	go io.Copy(io.Discard, r.out)
	select {
	case c := <-r.code:
		return c
	case <-time.After(10 * time.Second):
		t.Fatal("shim did not exit after stdin EOF")
		return -1
	}
}

func socketPath(t *testing.T) string {
	dir, err := os.MkdirTemp("", "shimtest")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	return filepath.Join(dir, "f.sock")
}

func lines(n int) []string {
	var out []string
	for i := range n {
		out = append(out, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"i":%d}}}`+"\n", i, i))
	}
	return out
}

// Verdicts come back in reverse order in groups of 7; the output must still
// be the input, in order.
func TestOrderKeptWhenVerdictsComeOutOfOrder(t *testing.T) {
	sock := socketPath(t)
	var held []shimproto.Verdict
	startFake(t, sock, func(m shimproto.Message) []shimproto.Verdict {
		held = append(held, shimproto.Verdict{Seq: m.Seq})
		if len(held) < 7 && !bytes.Contains(m.Data, []byte(`"last"`)) {
			return nil
		}
		out := make([]shimproto.Verdict, 0, len(held))
		for i := len(held) - 1; i >= 0; i-- {
			out = append(out, held[i])
		}
		held = nil
		return out
	})
	r := startShim(t, sock, "open")
	in := append(lines(500), `{"jsonrpc":"2.0","method":"last"}`+"\n")
	go r.send(t, in...)
	for i, want := range in {
		require.Equal(t, want, r.readLine(t), "line %d", i)
	}
	assert.Equal(t, 0, r.finish(t))
	assert.NotContains(t, r.stderr.String(), "unreachable")
}

func TestVerdictActions(t *testing.T) {
	sock := socketPath(t)
	startFake(t, sock, func(m shimproto.Message) []shimproto.Verdict {
		v := shimproto.Verdict{Seq: m.Seq}
		switch {
		case bytes.Contains(m.Data, []byte("drop-me")):
			v.Action = shimproto.Drop
		case bytes.Contains(m.Data, []byte("replace-me")):
			v.Action, v.Data = shimproto.Replace, []byte("{\"replaced\":true}\n")
		case bytes.Contains(m.Data, []byte("refuse-me")):
			v.Action, v.Data = shimproto.Respond, []byte("{\"refused\":true}\n")
		}
		return []shimproto.Verdict{v}
	})
	r := startShim(t, sock, "open")
	r.send(t, "{\"a\":\"drop-me\"}\n", "{\"a\":\"replace-me\"}\n")
	assert.Equal(t, "{\"replaced\":true}\n", r.readLine(t), "dropped line never arrives; replacement goes on to cat")
	// A Respond verdict answers the sender: cat never sees the line, the
	// client gets the reply directly.
	r.send(t, "{\"a\":\"refuse-me\"}\n")
	assert.Equal(t, "{\"refused\":true}\n", r.readLine(t))
	r.send(t, "{\"a\":\"keep\"}\n")
	assert.Equal(t, "{\"a\":\"keep\"}\n", r.readLine(t))
	assert.Equal(t, 0, r.finish(t))
}

func TestFailOpenWarnsOnce(t *testing.T) {
	r := startShim(t, socketPath(t), "open") // nobody listens, no autostart
	in := lines(20)
	go r.send(t, in...)
	for _, want := range in {
		require.Equal(t, want, r.readLine(t))
	}
	assert.Equal(t, 0, r.finish(t))
	assert.Equal(t, 1, strings.Count(r.stderr.String(), "messages pass unchecked"), r.stderr.String())
}

func TestFailClosedBlocksToolCalls(t *testing.T) {
	r := startShim(t, socketPath(t), "closed")
	r.send(t, `{"jsonrpc":"2.0","id":"a","method":"ping"}`+"\n")
	assert.Equal(t, `{"jsonrpc":"2.0","id":"a","method":"ping"}`+"\n", r.readLine(t), "a ping passes, there and back")
	r.send(t, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`+"\n")
	reply := r.readLine(t)
	e, err := jsonrpc.Parse([]byte(reply))
	require.NoError(t, err)
	assert.Equal(t, "7", string(e.ID))
	assert.Contains(t, reply, `"isError":true`)
	assert.Contains(t, reply, `"resultType":"complete"`)
	assert.Contains(t, reply, "flowd blocked: flowd is unreachable")
	assert.Equal(t, 0, r.finish(t))
}

// While fail_mode acts as closed, only what a client needs to start and
// list tools reaches the server: every other message could carry data out
// unchecked (found by a red team: prompts/get, resources/read,
// completions and notifications carried a key past a stopped flowd).
// The server is tee: what it is sent comes back to the client, and stays
// in a file to look at.
func TestFailClosedPassesOnlyWhatCarriesNoData(t *testing.T) {
	const secret = "Hq8vN2xTz5Lk9RmW3pYc7Jf1Gd4Sb6Ua0EeXoIiV"
	got := filepath.Join(t.TempDir(), "server-got")
	r := startShim(t, socketPath(t), "closed", "tee", got)
	refused := map[string]string{
		"prompts/get":               `{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"s","arguments":{"text":"` + secret + `"}}}`,
		"resources/read":            `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"x://` + secret + `"}}`,
		"completion/complete":       `{"jsonrpc":"2.0","id":3,"method":"completion/complete","params":{"argument":{"name":"a","value":"` + secret + `"}}}`,
		"a custom method":           `{"jsonrpc":"2.0","id":4,"method":"acme/upload","params":{"v":"` + secret + `"}}`,
		"a list with data in _meta": `{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":{"note":"` + secret + `"}}}`,
	}
	for what, line := range refused {
		r.send(t, line+"\n")
		reply := r.readLine(t)
		assert.Contains(t, reply, `"error"`, what)
		assert.Contains(t, reply, "flowd blocked", what)
	}
	// Each dropped message is followed by a ping: the ping coming back
	// first shows the message went nowhere (one direction keeps order).
	ping := `{"jsonrpc":"2.0","id":"p","method":"ping"}` + "\n"
	for what, line := range map[string]string{
		"a custom notification":          `{"jsonrpc":"2.0","method":"notifications/acme","params":{"v":"` + secret + `"}}`,
		"initialized with data in _meta": `{"jsonrpc":"2.0","method":"notifications/initialized","params":{"_meta":{"note":"` + secret + `"}}}`,
		"a batch":                        `[{"jsonrpc":"2.0","id":9,"method":"prompts/get","params":{"name":"` + secret + `"}}]`,
		"a line that is not JSON-RPC":    `aws_secret_access_key=` + secret,
	} {
		r.send(t, line+"\n", ping)
		assert.Equal(t, ping, r.readLine(t), what)
	}
	// The client's answer to a request of the server's (a sampling result
	// is the model's text) reaches the server as an error; tee sends that
	// back, and it is no answer to anything the client asked.
	r.send(t, `{"jsonrpc":"2.0","id":"s1","result":{"content":{"type":"text","text":"`+secret+`"}}}`+"\n")
	assert.Contains(t, r.readLine(t), "flowd blocked")

	// What passes: a modern list (its version in _meta) and a cancellation;
	// tee's copy of the list comes back as a request from the server,
	// which the shim refuses to it, and tee's copy of that refusal answers
	// the client's list.
	r.send(t, `{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`+"\n")
	reply := r.readLine(t)
	assert.Contains(t, reply, `"id":6`)
	assert.Contains(t, reply, "flowd blocked", "tools/list from the server is refused to it")
	cancel := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":6}}` + "\n"
	r.send(t, cancel)
	assert.Equal(t, cancel, r.readLine(t), "a cancellation passes both ways")
	// notifications/initialized reaches the server; tee's copy, a server
	// notification the shim does not keep, is dropped on the way back.
	r.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n", ping)
	assert.Equal(t, ping, r.readLine(t))
	assert.Equal(t, 0, r.finish(t))

	b, err := os.ReadFile(got)
	require.NoError(t, err)
	assert.NotContains(t, string(b), secret, "nothing with the key reached the server")
	for _, want := range []string{`"method":"tools/list"`, `"method":"notifications/initialized"`, `"method":"notifications/cancelled"`, `"method":"ping"`} {
		assert.Contains(t, string(b), want)
	}
}

// flowd dies mid-stream and comes back: every line arrives exactly once
// and in order, and the new flowd sees the messages sent after it is back.
func TestReconnectLosesNothing(t *testing.T) {
	sock := socketPath(t)
	first := startFake(t, sock, passAll)
	r := startShim(t, sock, "open")
	<-first.hello
	in := lines(30)
	r.send(t, in[:10]...)
	for _, want := range in[:10] {
		require.Equal(t, want, r.readLine(t))
	}
	first.stop()
	r.send(t, in[10:20]...)
	for _, want := range in[10:20] {
		require.Equal(t, want, r.readLine(t))
	}
	second := startFake(t, sock, passAll)
	select {
	case <-second.hello:
	case <-time.After(10 * time.Second):
		t.Fatal("shim did not reconnect")
	}
	// The hello reaches the fake before the shim has read the welcome, so
	// probe until the new link carries messages; probes come back like any
	// line. A probe is a ping: until the link is back, messages meet
	// fail_mode, which acts as closed while flowd's socket is held by a
	// flowd that does not answer, and closed drops a notification.
	probe := `{"jsonrpc":"2.0","id":"probe","method":"ping"}` + "\n"
	for i := 0; second.seenCount() == 0; i++ {
		require.Less(t, i, 1000, "the new flowd never saw a message")
		r.send(t, probe)
		require.Equal(t, probe, r.readLine(t))
	}
	before := second.seenCount()
	r.send(t, in[20:]...)
	for _, want := range in[20:] {
		require.Equal(t, want, r.readLine(t))
	}
	assert.Equal(t, 20, second.seenCount()-before, "the new flowd judges everything after it is back: 10 lines, each seen going to cat and coming back")
	assert.Equal(t, 0, r.finish(t))
	assert.Contains(t, r.stderr.String(), "lost connection to flowd")
}

// flowd killed mid-session: its socket stays, so fail_mode open does not
// pass a tool call (to a server flowd never classed internal) unchecked,
// while other messages go on; a flowd back on the socket judges again.
func TestKilledFlowdBlocksCallsUnderOpen(t *testing.T) {
	sock := socketPath(t)
	first := startFake(t, sock, passAll)
	r := startShim(t, sock, "open")
	<-first.hello
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"send","arguments":{"to":"x"}}}` + "\n"
	r.send(t, call)
	require.Equal(t, call, r.readLine(t), "judged and passed while flowd runs")
	first.kill()
	r.send(t, strings.Replace(call, `"id":1`, `"id":2`, 1))
	reply := r.readLine(t)
	assert.Contains(t, reply, "flowd blocked: flowd is gone but its socket is still there (killed or crashed)")
	assert.Contains(t, reply, `"id":2`)
	ping := `{"jsonrpc":"2.0","id":3,"method":"ping"}` + "\n"
	r.send(t, ping)
	assert.Equal(t, ping, r.readLine(t), "only tool calls are held back")
	second := startFake(t, sock, passAll)
	select {
	case <-second.hello:
	case <-time.After(time.Minute):
		t.Fatal("shim did not reconnect")
	}
	for i := 4; second.seenCount() == 0; i++ { // the hello arrives before the shim reads the welcome
		require.Less(t, i, 1000, "the new flowd never saw a message")
		c := strings.Replace(call, `"id":1`, fmt.Sprintf(`"id":%d`, i), 1)
		r.send(t, c)
		r.readLine(t)
	}
	assert.Equal(t, 0, r.finish(t))
	assert.NotContains(t, r.stderr.String(), "messages pass unchecked")
}

func TestVerdictTimeoutAppliesFailMode(t *testing.T) {
	sock := socketPath(t)
	f := startFake(t, sock, func(m shimproto.Message) []shimproto.Verdict {
		if bytes.Contains(m.Data, []byte("stuck")) {
			return nil // never answered
		}
		return passAll(m)
	})
	f.welcome.VerdictTimeout = 100
	f.welcome.FailMode = "closed"
	r := startShim(t, sock, "open")
	<-f.hello
	r.send(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"stuck"}}`+"\n", `{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\n")
	assert.Contains(t, r.readLine(t), "flowd blocked", "flowd's fail_mode (closed) wins over the local one")
	assert.Contains(t, r.stderr.String(), "flowd is not answering", "logged before the message it explains goes on")
	assert.Equal(t, `{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\n", r.readLine(t))
	assert.Equal(t, 0, r.finish(t))
}

// Lines flowd cannot or need not judge pass byte for byte: garbage, a line
// far over max_inspect_bytes (flowd sees only its start), a last line
// without a newline.
func TestOddInputPassesExactly(t *testing.T) {
	sock := socketPath(t)
	var sizes []int
	var mu sync.Mutex
	f := startFake(t, sock, func(m shimproto.Message) []shimproto.Verdict {
		mu.Lock()
		sizes = append(sizes, len(m.Data))
		mu.Unlock()
		return passAll(m)
	})
	r := startShim(t, sock, "open")
	<-f.hello
	huge := `{"jsonrpc":"2.0","id":1,"result":"` + strings.Repeat("y", 50<<20) + `"}` + "\n"
	in := []string{"\x00\xff\xfe binary garbage\n", "\n", huge, "[1,2,3]\n", "no newline at the end"}
	go func() {
		r.send(t, in...)
		r.in.Close()
	}()
	got, err := io.ReadAll(r.out)
	require.NoError(t, err)
	require.Equal(t, len(strings.Join(in, "")), len(got))
	assert.True(t, bytes.Equal([]byte(strings.Join(in, "")), got))
	assert.Equal(t, 0, <-r.code)
	mu.Lock()
	defer mu.Unlock()
	assert.Contains(t, sizes, 1<<20, "the 50 MB line was inspected only up to max_inspect_bytes")
}

func TestUpstreamExitCodeAndReport(t *testing.T) {
	r := startShim(t, socketPath(t), "open", "sh", "-c", "exit 3")
	select {
	case code := <-r.code:
		assert.Equal(t, 3, code)
	case <-time.After(10 * time.Second):
		t.Fatal("shim did not exit with its upstream")
	}
	assert.Contains(t, r.stderr.String(), "exited with code 3 before sending anything")

	r = startShim(t, socketPath(t), "open", "no-such-command-flowd")
	assert.Equal(t, 127, <-r.code)
	assert.Contains(t, r.stderr.String(), "give its absolute path")

	r = startShim(t, socketPath(t), "open", "/no/such/command-flowd")
	assert.Equal(t, 127, <-r.code)
	assert.Contains(t, r.stderr.String(), "cannot run upstream command /no/such/command-flowd")
	assert.NotContains(t, r.stderr.String(), "PATH", "an absolute path has nothing to do with PATH")
}

// runShim is startShim with whatever Options the test sets; Stdin, Stdout
// and Stderr are the test's.
func runShim(t *testing.T, o Options) *running {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	r := &running{in: inW, out: bufio.NewReaderSize(outR, 1<<20), stderr: &syncBuffer{}, code: make(chan int, 1)}
	o.Stdin, o.Stdout, o.Stderr = inR, outW, r.stderr
	go func() {
		r.code <- Run(o)
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close() })
	return r
}

// A shim passing messages unchecked says so where flowd status and doctor
// look, and takes it back when it exits.
func TestUnprotectedShimIsRecorded(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "unprotected")
	r := runShim(t, Options{Name: "slack", Socket: socketPath(t), FailMode: "open", Command: []string{"cat"}, UnprotectedDir: dir})
	r.send(t, "{\"a\":1}\n")
	assert.Equal(t, "{\"a\":1}\n", r.readLine(t))
	list, err := unprotected.List(dir)
	require.NoError(t, err)
	require.Len(t, list, 1, "recorded before the unchecked message went on")
	assert.Equal(t, "slack", list[0].Server)
	assert.Equal(t, os.Getpid(), list[0].PID)
	assert.Contains(t, list[0].Reason, "messages pass unchecked")
	assert.Equal(t, 0, r.finish(t))
	list, err = unprotected.List(dir)
	require.NoError(t, err)
	assert.Empty(t, list, "an exited shim is no longer unprotected")
}

// Someone else could listen in a socket directory the user does not own
// alone (another user who made /tmp/flowd-UID first): tool calls are
// blocked there, whatever fail_mode says, with the directory and the fix.
func TestUntrustedSocketDirFailsClosed(t *testing.T) {
	sock := socketPath(t)
	dir := filepath.Dir(sock)
	r := runShim(t, Options{Socket: sock, FailMode: "open", Command: []string{"cat"}})
	call := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"send","arguments":{"text":"key"}}}` + "\n"
	r.send(t, call)
	assert.Equal(t, call, r.readLine(t), "flowd is merely absent: fail_mode open passes it")

	// Another user's doing, after the shim started: checked again.
	require.NoError(t, os.Chmod(dir, 0o777))
	r.send(t, call)
	reply := r.readLine(t)
	assert.Contains(t, reply, `"isError":true`)
	assert.Contains(t, reply, "socket directory cannot be trusted")
	assert.Contains(t, reply, dir)
	assert.Contains(t, reply, "chmod 700 "+dir, "the fix")
	assert.Equal(t, 0, r.finish(t))

	r = runShim(t, Options{Socket: sock, FailMode: "open", Command: []string{"cat"}})
	r.send(t, call)
	assert.Contains(t, r.readLine(t), "socket directory cannot be trusted", "untrusted from the start")
	assert.Equal(t, 0, r.finish(t))
}

// The machine's flowd, installed and stopped, is the service manager's
// to start: a shim does not start a flowd of the user's own in its
// place (which would shadow it for good), and says what is wrong and the
// fix under fail_mode, as for a flowd that is not running.
func TestStoppedSystemFlowdIsReportedNotReplaced(t *testing.T) {
	if _, err := os.Lstat(paths.SystemSocket); err == nil {
		t.Skip("a system flowd's socket is on this machine: " + paths.SystemSocket)
	}
	call := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"send","arguments":{"text":"hi"}}}` + "\n"
	r := runShim(t, Options{Socket: paths.SystemSocket, FailMode: "closed", Autostart: true, Command: []string{"cat"}})
	r.send(t, call)
	reply := r.readLine(t)
	assert.Contains(t, reply, `"isError":true`)
	assert.Contains(t, reply, "the machine's, installed but not running")
	assert.Contains(t, reply, "sudo systemctl start flowd.socket flowd.service")
	assert.Equal(t, 0, r.finish(t))

	r = runShim(t, Options{Socket: paths.SystemSocket, FailMode: "open", Autostart: true, Command: []string{"cat"}})
	r.send(t, call)
	assert.Equal(t, call, r.readLine(t), "fail_mode open: a stopped service is a flowd not running")
	assert.Equal(t, 0, r.finish(t))
	assert.Contains(t, r.stderr.String(), "installed but not running")
}

// A shim whose server's environment moved it off the user's flowd
// (FLOWD_SOCKET from a project's .mcp.json) passes no tool call
// unchecked: not while nobody answers there, and not after a flowd there
// said fail_mode open and went away.
func TestSteeredShimNeverFailsOpen(t *testing.T) {
	call := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"send","arguments":{"text":"key"}}}` + "\n"
	steered := "this server's environment sets FLOWD_SOCKET=/x, which moves its shim off your own flowd"
	r := runShim(t, Options{Socket: socketPath(t), FailMode: "open", Steered: steered, Command: []string{"cat"}})
	r.send(t, call)
	reply := r.readLine(t)
	assert.Contains(t, reply, `"isError":true`)
	assert.Contains(t, reply, steered, "says why and the fix")
	assert.Equal(t, 0, r.finish(t))
	assert.NotContains(t, r.stderr.String(), "messages pass unchecked")

	sock := socketPath(t)
	f := startFake(t, sock, passAll)
	r = runShim(t, Options{Socket: sock, FailMode: "open", Steered: steered, Command: []string{"cat"}})
	<-f.hello
	r.send(t, call)
	assert.Equal(t, call, r.readLine(t), "judged and passed by the flowd there")
	f.stop() // its socket removed: a flowd not running, which open would pass
	r.send(t, call)
	assert.Contains(t, r.readLine(t), steered)
	assert.Equal(t, 0, r.finish(t))
}
