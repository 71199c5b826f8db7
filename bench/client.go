package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// stallTimeout is how long one round trip may take before the benchmark
// gives up on the process: far beyond any figure worth reporting, short
// enough that a hung shim fails the run instead of hanging it.
const stallTimeout = 30 * time.Second

// rpcClient speaks newline-delimited JSON-RPC to one stdio MCP server
// process the way an MCP host does, with one request in flight.
type rpcClient struct {
	name     string
	cmd      *exec.Cmd
	in       io.WriteCloser
	out      *bufio.Reader
	stderr   *tailBuffer
	line     []byte // the last response; reused so reading allocates nothing
	watchdog *time.Timer
	nextID   int64
	stall    time.Duration // how long a round trip may take; zero: stallTimeout
}

func startClient(name string, argv, env []string) (*rpcClient, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	c := &rpcClient{name: name, cmd: cmd, stderr: &tailBuffer{}}
	cmd.Stderr = c.stderr
	var err error
	if c.in, err = cmd.StdinPipe(); err != nil {
		return nil, fmt.Errorf("%s: stdin pipe: %w", name, err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("%s: stdout pipe: %w", name, err)
	}
	c.out = bufio.NewReaderSize(out, 64<<10)
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s (%s): %w", name, strings.Join(argv, " "), err)
	}
	// A killed process closes its stdout, so a blocked read returns.
	c.watchdog = time.AfterFunc(time.Hour, func() { cmd.Process.Kill() })
	c.watchdog.Stop()
	return c, nil
}

func (c *rpcClient) pid() int { return c.cmd.Process.Pid }

// handshake does what a host does before its first tool call.
func (c *rpcClient) handshake() error {
	id := c.id()
	req := `{"jsonrpc":"2.0","id":` + strconv.FormatInt(id, 10) + `,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"flowd-bench","version":"0"}}}` + "\n"
	line, _, err := c.roundTrip([]byte(req))
	if err != nil {
		return fmt.Errorf("%s: initialize: %w", c.name, err)
	}
	var resp struct {
		ID     int64           `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(line, &resp); err != nil || resp.ID != id || resp.Result == nil {
		return fmt.Errorf("%s: unexpected answer to initialize: %.300s", c.name, line)
	}
	if _, err := c.in.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")); err != nil {
		return fmt.Errorf("%s: send initialized: %w", c.name, err)
	}
	return nil
}

func (c *rpcClient) id() int64 {
	c.nextID++
	return c.nextID
}

// echoRequest is a tools/call of echo whose message is msg.
func echoRequest(id int64, msg string) []byte {
	return []byte(`{"jsonrpc":"2.0","id":` + strconv.FormatInt(id, 10) +
		`,"method":"tools/call","params":{"name":"echo","arguments":{"message":"` + msg + `"}}}` + "\n")
}

// echo makes one echo call and returns how long the round trip took.
func (c *rpcClient) echo(msg string) (time.Duration, error) {
	id := c.id()
	line, d, err := c.roundTrip(echoRequest(id, msg))
	if err != nil {
		return 0, fmt.Errorf("%s: echo call %d: %w", c.name, id, err)
	}
	if !echoed(line, id, msg) {
		return 0, fmt.Errorf("%s: echo call %d: unexpected answer: %.300s", c.name, id, line)
	}
	return d, nil
}

// echoed reports whether line is the answer to echo call id of msg.
func echoed(line []byte, id int64, msg string) bool {
	var resp struct {
		ID     int64 `json:"id"`
		Result struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	if json.Unmarshal(line, &resp) != nil || resp.ID != id || resp.Result.IsError {
		return false
	}
	c := resp.Result.Content
	// Text that reads like instructions to a model comes back with flowd's
	// notice in front (the preload corpus has some): still an echo.
	if len(c) == 2 && strings.HasPrefix(c[0].Text, "flowd notice:") {
		c = c[1:]
	}
	return len(c) == 1 && c[0].Text == msg
}

// remember makes an echo call whose result is text, so that flowd records
// text as an origin of the session, and checks that the call came back.
func (c *rpcClient) remember(text string) error {
	id := c.id()
	req := mustJSON(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call",
		"params": map[string]any{"name": "echo", "arguments": map[string]string{"message": text}}})
	line, _, err := c.roundTrip(append(req, '\n'))
	if err != nil {
		return fmt.Errorf("%s: echo call %d: %w", c.name, id, err)
	}
	if !echoed(line, id, text) {
		return fmt.Errorf("%s: echo call %d of %d bytes: unexpected answer: %.300s", c.name, id, len(text), line)
	}
	return nil
}

// fetch calls the bytes tool for n bytes and returns the size of the
// response line and how long it took to arrive whole.
func (c *rpcClient) fetch(n int) (int, time.Duration, error) {
	id := c.id()
	req := `{"jsonrpc":"2.0","id":` + strconv.FormatInt(id, 10) +
		`,"method":"tools/call","params":{"name":"bytes","arguments":{"n":` + strconv.Itoa(n) + `}}}` + "\n"
	line, d, err := c.roundTrip([]byte(req))
	if err != nil {
		return 0, 0, fmt.Errorf("%s: bytes call %d: %w", c.name, id, err)
	}
	// Decoding 10 MB of JSON would dominate the run; finding the string of
	// n 'x's checks that the payload arrived whole.
	if !hasXString(line, n) || !bytes.Contains(line, []byte(`"id":`+strconv.FormatInt(id, 10)+`,`)) ||
		bytes.Contains(line, []byte(`"isError":true`)) {
		return 0, 0, fmt.Errorf("%s: bytes call %d: unexpected answer of %d bytes: %.300s", c.name, id, len(line), line)
	}
	return len(line), d, nil
}

// hasXString reports whether line holds the JSON string of exactly n 'x's.
func hasXString(line []byte, n int) bool {
	i := bytes.Index(line, []byte(`"x`))
	if i < 0 || i+1+n >= len(line) {
		return false
	}
	s := line[i+1 : i+1+n]
	return bytes.Count(s, []byte{'x'}) == n && line[i+1+n] == '"'
}

// roundTrip writes one request line and reads one response line. The
// returned line is valid until the next call.
func (c *rpcClient) roundTrip(req []byte) ([]byte, time.Duration, error) {
	stall := c.stall
	if stall == 0 {
		stall = stallTimeout
	}
	c.watchdog.Reset(stall)
	defer c.watchdog.Stop()
	start := time.Now()
	if _, err := c.in.Write(req); err != nil {
		return nil, 0, fmt.Errorf("write request: %w%s", err, c.said())
	}
	c.line = c.line[:0]
	for {
		frag, err := c.out.ReadSlice('\n')
		c.line = append(c.line, frag...)
		if err == nil {
			return c.line, time.Since(start), nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return nil, 0, fmt.Errorf("read response (no answer within %v kills the process): %w%s", stall, err, c.said())
		}
	}
}

// said is what the process wrote to stderr, for error messages.
func (c *rpcClient) said() string {
	if s := strings.TrimSpace(c.stderr.String()); s != "" {
		return "; its stderr: " + s
	}
	return ""
}

// close ends the stream as a host does, by closing stdin, and waits for the
// process to exit.
func (c *rpcClient) close() error {
	c.in.Close()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("%s exited badly after stdin closed: %w%s", c.name, err, c.said())
		}
		return nil
	case <-time.After(10 * time.Second):
		c.cmd.Process.Kill()
		<-done
		return fmt.Errorf("%s did not exit within 10s of stdin closing; killed%s", c.name, c.said())
	}
}

// tailBuffer keeps the last stderr output of a process for diagnostics;
// it is written by os/exec's copying goroutine and read by the benchmark.
// The runtime's GC trace lines (GODEBUG=gctrace=1, bench -gc) are counted
// and left out, so that they do not pass for trouble the process reports.
type tailBuffer struct {
	mu      sync.Mutex
	buf     []byte
	partial []byte // a line not ended yet
	gcs     int
	gcMax   float64 // the longest GC cycle's wall time in ms (its three phases)
	gcLive  float64 // the live heap in MB after the last cycle
}

const tailMax = 16 << 10

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.partial = append(t.partial, p...)
	for {
		i := bytes.IndexByte(t.partial, '\n')
		if i < 0 {
			break
		}
		line := t.partial[:i+1]
		if ms, live, ok := gcTraceLine(line); ok {
			t.gcs++
			t.gcMax, t.gcLive = max(t.gcMax, ms), live
		} else {
			t.buf = append(t.buf, line...)
		}
		t.partial = t.partial[i+1:]
	}
	t.partial = append([]byte(nil), t.partial...)
	if len(t.buf) > tailMax {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailMax:]...)
	}
	return len(p), nil
}

// gcTraceLine reads a line of the runtime's GC trace, "gc 12 @0.5s 1%:
// 0.01+0.8+0.003 ms clock, … 4->4->1 MB, …": the cycle's wall time in ms
// and the live heap after it in MB.
func gcTraceLine(line []byte) (ms, live float64, ok bool) {
	f := strings.Fields(string(line))
	if len(f) < 6 || f[0] != "gc" || !strings.HasPrefix(f[2], "@") || !strings.HasSuffix(f[3], "%:") {
		return 0, 0, false
	}
	for _, p := range strings.Split(f[4], "+") {
		v, _ := strconv.ParseFloat(p, 64)
		ms += v
	}
	for i, w := range f {
		if w == "MB," && i > 0 && strings.Count(f[i-1], "->") == 2 {
			live, _ = strconv.ParseFloat(f[i-1][strings.LastIndex(f[i-1], "->")+2:], 64)
		}
	}
	return ms, live, true
}

// collections is how many GC cycles the process has traced so far, the
// longest one's wall time and the live heap after the last.
func (t *tailBuffer) collections() (n int, maxMs, liveMB float64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.gcs, t.gcMax, t.gcLive
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf) + string(t.partial)
}
