//go:build unix

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// toolsDir is where .ci/install-tools installed testdata/npm; a test that
// needs the npm servers, clients or the conformance suite skips without a
// complete install there.
func toolsDir(t *testing.T) string {
	t.Helper()
	dir := cacheDir(t, "FLOWD_TOOLS_DIR", "flowd-test-tools")
	// Reading the stamp also tells go test's result cache when the tools
	// changed: every install rewrites it.
	if why := installed(dir, ".flowd-npm-stamp", filepath.Join("..", "..", "testdata", "npm")); why != "" {
		missingTool(t, "npm", "npm test tools in %s: %s; %s installs them (FLOWD_TOOLS_DIR picks another dir)", dir, why, installCmd)
	}
	return dir
}

// nodeBin is the Node.js on PATH (Node 20 in CI), which runs the servers
// and clients; the conformance suite brings its own Node 22.
func nodeBin(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		missingTool(t, "npm", "node is not on PATH (%v): install Node.js 20", err)
	}
	return p
}

func everythingJS(tools string) string {
	return filepath.Join(tools, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
}

func filesystemJS(tools string) string {
	return filepath.Join(tools, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js")
}

func memoryJS(tools string) string {
	return filepath.Join(tools, "node_modules", "@modelcontextprotocol", "server-memory", "dist", "index.js")
}

// flowd is one `flowd run` owned by a test.
type flowd struct {
	socket, dataDir, config string
	log                     *syncBuffer
	cmd                     *exec.Cmd // flowd run; tests stop and continue it
}

// baseConfig starts every test's config file. Under the race detector on
// two cores flowd can take longer than the default 5s verdict timeout to
// inspect a 10 MB message; the shim would then pass it unjudged (fail
// open), and the tests want every message judged.
const baseConfig = "[shim]\nverdict_timeout = \"60s\"\n"

// bigCheckBudget continues a flowd config for transparency tests whose
// messages are megabytes long: their checks take seconds of CPU under
// the race detector, and a 10 MB call waited for the CPU past the 30 s
// flow.wait_budget beside four busy processes (.ci/run under the load
// #13 names), which denied it, as designed; and their results are
// longer than the injection scan reads (on_incomplete would put a
// notice before them). Those behaviours have tests of their own; these
// tests are about bytes.
const bigCheckBudget = "\n[flow]\ncheck_budget = \"120s\"\nwait_budget = \"300s\"\n[injection]\non_incomplete = \"pass\"\n"

// localWeb is the config of a test whose web is the mock's page server
// on this machine: fetching it is no server-side request forgery there.
const localWeb = "[policy]\nprivate_addresses = \"allow\"\n"

// startFlowd runs a flowd with baseConfig plus extra as its config file and
// stops it (SIGTERM, then waits) when the test ends. extra continues the
// [shim] table, so it can set shim keys before it opens other tables.
func startFlowd(t *testing.T, extra string) *flowd {
	t.Helper()
	return startFlowdConfig(t, baseConfig+extra)
}

// startFlowdConfig runs a flowd with config as its whole config file, for
// tests that need another verdict timeout than baseConfig's, and stops it
// when the test ends, continuing it first if the test stopped it
// (SIGSTOP).
func startFlowdConfig(t *testing.T, config string) *flowd {
	t.Helper()
	declareSources() // every test runs a flowd
	// sun_path holds about 108 bytes, too few for t.TempDir() under a long
	// test name, so the socket gets a short private (0700) dir of its own.
	sockDir, err := os.MkdirTemp("", "fe2e-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(sockDir) })
	dir := t.TempDir()
	f := &flowd{
		socket:  filepath.Join(sockDir, "flowd.sock"),
		dataDir: filepath.Join(dir, "data"),
		config:  filepath.Join(dir, "flowd.toml"),
		log:     &syncBuffer{},
	}
	require.NoError(t, os.WriteFile(f.config, []byte(config), 0o600))
	cmd := exec.Command(bins.flowd, "run", "--config", f.config, "--socket", f.socket, "--data-dir", f.dataDir)
	f.cmd = cmd
	cmd.Stdout, cmd.Stderr = f.log, f.log
	ready := notifyReady(t, cmd)
	require.NoError(t, cmd.Start(), "start flowd")
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGCONT) // a stopped process takes SIGTERM only once continued
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("flowd did not stop cleanly on SIGTERM: %v", err)
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
			t.Errorf("flowd still ran 10s after SIGTERM; killed it")
		}
		if t.Failed() {
			t.Logf("flowd log:\n%s", f.log)
		}
	})
	select {
	case <-ready:
		return f
	case err := <-exited:
		exited <- err // for the cleanup
		t.Fatalf("flowd exited before it was ready: %v\n%s", err, f.log)
	case <-time.After(hangBound):
		t.Fatalf("flowd did not say it was ready within %v\n%s", hangBound, f.log)
	}
	return nil
}

// flowdPlace is a socket, config file and data dir for a test that kills
// its flowd and starts one again (startFlowd's flowd is stopped at the
// test's end, and must still be running then).
type flowdPlace struct{ socket, config, dataDir string }

func newFlowdPlace(t *testing.T, config string) flowdPlace {
	t.Helper()
	// sun_path holds about 108 bytes: a short private dir of its own.
	sockDir, err := os.MkdirTemp("", "fe2e-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(sockDir) })
	p := flowdPlace{socket: filepath.Join(sockDir, "flowd.sock"), config: filepath.Join(t.TempDir(), "flowd.toml"), dataDir: t.TempDir()}
	require.NoError(t, os.WriteFile(p.config, []byte(config), 0o600))
	return p
}

// run starts `flowd run` there, its output to out (nil: discarded), and
// waits until it is ready. The caller ends it.
func (p flowdPlace) run(t *testing.T, out io.Writer) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(bins.flowd, "run", "--config", p.config, "--socket", p.socket, "--data-dir", p.dataDir)
	cmd.Stdout, cmd.Stderr = out, out
	ready := notifyReady(t, cmd)
	require.NoError(t, cmd.Start())
	select {
	case <-ready:
	case <-time.After(hangBound):
		t.Fatalf("flowd did not say it was ready within %v", hangBound)
	}
	return cmd
}

// hangBound ends a wait for what only a hung or broken process would not
// do. The tests wait on signals (a line, an exit, a record); this bound is
// there so that a failure ends, and is far beyond what anything takes on
// a busy 2-core machine under the race detector.
const hangBound = 2 * time.Minute

// notifyReady makes the `flowd run` in cmd, not started yet, say when it
// is ready the way it tells systemd (READY=1 on NOTIFY_SOCKET, sent once
// its socket accepts); the channel closes then.
func notifyReady(t *testing.T, cmd *exec.Cmd) <-chan struct{} {
	t.Helper()
	// sun_path holds about 108 bytes: a short dir of its own.
	dir, err := os.MkdirTemp("", "fnotify-")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	addr := &net.UnixAddr{Name: filepath.Join(dir, "notify"), Net: "unixgram"}
	conn, err := net.ListenUnixgram("unixgram", addr)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, "NOTIFY_SOCKET="+addr.Name)
	ready := make(chan struct{})
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := conn.Read(buf)
			if err != nil {
				return
			}
			if slices.Contains(strings.Split(string(buf[:n]), "\n"), "READY=1") {
				close(ready)
				return
			}
		}
	}()
	return ready
}

// shim returns the command line that runs argv behind a shim talking to f.
// --no-autostart: a shim that cannot reach f must not start a daemon of its
// own in $HOME; tests check f's activity log to prove the shim reached f.
//
// A test server's --name (its serverInfo.name) is given to the shim too,
// as the client's name for it, the way shim wrap names servers: flowd does
// not let a server's own name make it look local.
func (f *flowd) shim(argv ...string) []string {
	pre := []string{bins.shim, "--socket", f.socket, "--no-autostart"}
	for i := 0; i+1 < len(argv); i++ {
		if argv[i] == "--name" {
			pre = append(pre, "--name", argv[i+1])
			break
		}
	}
	return append(append(pre, "--"), argv...)
}

// record is the part of an activity record the tests look at.
type record struct {
	Time        time.Time       `json:"time"`
	Type        string          `json:"type"`
	Session     string          `json:"session"`
	Server      string          `json:"server"`
	Tool        string          `json:"tool"`
	Method      string          `json:"method"`
	ArgsBytes   int             `json:"args_bytes"`
	ResultBytes int             `json:"result_bytes"`
	Verdict     string          `json:"verdict"`
	Decision    string          `json:"decision"`
	Reason      string          `json:"reason"`
	Details     json.RawMessage `json:"details"`
}

func (f *flowd) activity(t *testing.T, typ string) []record {
	t.Helper()
	cmd := exec.Command(bins.flowd, "activity", "--json", "--type", typ, "--limit", "10000",
		"--socket", f.socket, "--data-dir", f.dataDir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "flowd activity: %s", stderr.String())
	var recs []record
	require.NoError(t, json.Unmarshal(out, &recs), "flowd activity --json printed %q", out)
	return recs
}

// waitToolCalls waits until flowd's activity log holds a passed tool_call
// record for each tool, which proves the calls went through flowd (a shim
// that cannot reach flowd passes everything unchecked), and returns the
// tool_call records.
func (f *flowd) waitToolCalls(t *testing.T, tools ...string) []record {
	t.Helper()
	// flowd writes a record after it answered the shim, so the client can
	// hold its result a moment before the record exists, and nothing tells
	// when it is written: poll, bounded.
	deadline := time.Now().Add(hangBound)
	for {
		recs := f.activity(t, "tool_call")
		var missing []string
		for _, tool := range tools {
			if !slices.ContainsFunc(recs, func(r record) bool { return r.Tool == tool && r.Verdict == "pass" }) {
				missing = append(missing, tool)
			}
		}
		if len(missing) == 0 {
			return recs
		}
		if time.Now().After(deadline) {
			t.Fatalf("flowd recorded no passed tool_call for %v; it has %+v", missing, recs)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// noShimComplaints fails the test when the shim wrote diagnostics: through
// a healthy flowd it has nothing to say (no lost connection, no verdict
// timeout, no fail-open warning).
func noShimComplaints(t *testing.T, stderr string) {
	t.Helper()
	for _, line := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(line, "shim: ") {
			t.Errorf("the shim complained: %s", line)
		}
	}
}

// syncBuffer collects a process's output written from another goroutine
// and lets a test wait for a piece of it.
type syncBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	changed chan struct{} // closed on the next Write; nil until someone waits
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.changed != nil {
		close(b.changed)
		b.changed = nil
	}
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor waits until the buffer contains s, failing the test after timeout.
func (b *syncBuffer) waitFor(t *testing.T, s string, timeout time.Duration) {
	t.Helper()
	b.waitForCount(t, s, 1, timeout)
}

// waitForCount waits until the buffer contains s n times, failing the
// test after timeout.
func (b *syncBuffer) waitForCount(t *testing.T, s string, n int, timeout time.Duration) {
	t.Helper()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		b.mu.Lock()
		if strings.Count(b.buf.String(), s) >= n {
			b.mu.Unlock()
			return
		}
		if b.changed == nil {
			b.changed = make(chan struct{})
		}
		changed := b.changed
		b.mu.Unlock()
		select {
		case <-changed:
		case <-timer.C:
			t.Fatalf("%q did not appear within %v; got %q", s, timeout, b.String())
		}
	}
}

// proc is a process a test talks to through pipes.
type proc struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *syncBuffer
	exited chan struct{} // closed when Wait returned
	err    error         // Wait's result, set before exited is closed
}

// startProc starts argv with env added to the test's environment. Unless
// the test waits for it, the process is killed when the test ends.
func startProc(t *testing.T, argv []string, env ...string) *proc {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	p := &proc{cmd: cmd, stderr: &syncBuffer{}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	// A child left holding stderr must not keep Wait from returning.
	cmd.WaitDelay = 5 * time.Second
	var err error
	p.stdin, err = cmd.StdinPipe()
	require.NoError(t, err)
	// stdout is a plain pipe rather than StdoutPipe, which Wait would close
	// under a reader that has not drained it yet.
	outR, outW, err := os.Pipe()
	require.NoError(t, err)
	t.Cleanup(func() { outR.Close() })
	cmd.Stdout = outW
	err = cmd.Start()
	outW.Close()
	require.NoError(t, err, "start %v", argv)
	p.stdout = bufio.NewReaderSize(outR, 1<<20)
	go func() {
		p.err = cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-p.exited:
		default:
			cmd.Process.Kill()
			<-p.exited
		}
		if t.Failed() {
			t.Logf("stderr of %v:\n%s", argv, p.stderr)
		}
	})
	return p
}

// wait waits (bounded) for the process to exit and returns its exit code,
// 128+n for death by signal n as a shell reports it.
func (p *proc) wait(t *testing.T, timeout time.Duration) int {
	t.Helper()
	select {
	case <-p.exited:
	case <-time.After(timeout):
		t.Fatalf("%v still runs after %v", p.cmd.Args, timeout)
	}
	return exitCode(t, p.err)
}

func exitCode(t *testing.T, err error) int {
	t.Helper()
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee, "wait")
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ee.ExitCode()
}

// readLine reads one line from the process's stdout, failing the test when
// none comes within timeout.
func (p *proc) readLine(t *testing.T, timeout time.Duration) string {
	t.Helper()
	type result struct {
		line string
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		l, err := p.stdout.ReadString('\n')
		ch <- result{l, err}
	}()
	select {
	case r := <-ch:
		require.NoError(t, r.err, "read a line from %v (got %q)", p.cmd.Args, r.line)
		return r.line
	case <-time.After(timeout):
		t.Fatalf("no line from %v within %v", p.cmd.Args, timeout)
		return ""
	}
}

// runTool runs a one-shot command in dir, bounded by timeout, and returns
// its stdout, stderr and exit code.
func runTool(t *testing.T, dir string, timeout time.Duration, argv []string, env ...string) (stdout, stderr []byte, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	// Kill the whole group on timeout: npx and node tools start children
	// that would otherwise outlive the test holding the pipes open.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%v did not finish within %v\nstdout: %s\nstderr: %s", argv, timeout, clip(out.Bytes()), clip(errb.Bytes()))
	}
	if err != nil && !errors.As(err, new(*exec.ExitError)) {
		t.Fatalf("run %v: %v", argv, err)
	}
	return out.Bytes(), errb.Bytes(), exitCode(t, err)
}

// clip shortens output for a failure message.
func clip(b []byte) string {
	const max = 4000
	if len(b) <= max {
		return string(b)
	}
	return fmt.Sprintf("%s… (%d more bytes)", b[:max], len(b)-max)
}

// diffAt describes where two byte strings first differ.
func diffAt(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	around := func(s []byte) string {
		lo, hi := max(0, i-80), min(len(s), i+80)
		return fmt.Sprintf("%q", s[lo:hi])
	}
	return fmt.Sprintf("lengths %d and %d, first difference at byte %d:\n  %s\n  %s", len(a), len(b), i, around(a), around(b))
}

// agentDirs makes what an agent's session starts from: a private home
// and a project holding .env.local (dotenv), under a temporary directory.
func agentDirs(t *testing.T, dotenv []byte) (tmp, home, proj string) {
	t.Helper()
	tmp = t.TempDir()
	home, proj = filepath.Join(tmp, "home"), filepath.Join(tmp, "proj")
	for _, d := range []string{home, proj} {
		require.NoError(t, os.MkdirAll(d, 0o700))
	}
	require.NoError(t, os.WriteFile(filepath.Join(proj, ".env.local"), dotenv, 0o600))
	return tmp, home, proj
}

// protectAgent does what a user does to put flowd in front of agent: with
// wrap, `shim wrap --client client` of the MCP servers in config; then
// `hook install --agent agent` in user scope. env is the user's.
func protectAgent(t *testing.T, dir, agent, client, config string, wrap, noAutostart bool, env ...string) {
	t.Helper()
	if wrap {
		_, stderr, code := runTool(t, dir, hangBound, []string{bins.shim, "wrap", "--client", client, "--config", config}, env...)
		require.Equal(t, 0, code, "shim wrap: %s", stderr)
	}
	install := []string{bins.hook, "install", "--agent", agent, "--scope", "user"}
	if noAutostart {
		install = append(install, "--no-autostart")
	}
	_, stderr, code := runTool(t, dir, hangBound, install, env...)
	require.Equal(t, 0, code, "hook install: %s", stderr)
}
