package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/paths"
)

// stallTimeout bounds every wait on a process: far beyond any verdict,
// short enough that a hung shim makes the case an error, not a hung run.
const stallTimeout = 30 * time.Second

// binaries are the real programs the cases run through.
type binaries struct{ shim, flowd, hook string }

func binariesIn(dir string) (binaries, error) {
	b := binaries{shim: filepath.Join(dir, "shim"), flowd: filepath.Join(dir, "flowd"), hook: filepath.Join(dir, "hook")}
	for _, p := range []string{b.shim, b.flowd, b.hook} {
		if _, err := os.Stat(p); err != nil {
			return b, fmt.Errorf("binary %s: %w (build with: go build -o DIR/ ./cmd/shim ./cmd/flowd ./cmd/hook)", p, err)
		}
	}
	return b, nil
}

// build compiles shim, flowd and hook from the module of the working
// directory into dir.
func build(dir string) (binaries, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	mod := strings.TrimSpace(string(out))
	if err != nil || mod == "" || mod == os.DevNull {
		return binaries{}, errors.New("not inside the flowd module: run from the repository, or pass prebuilt binaries with -bin DIR")
	}
	cmd := exec.Command("go", "build", "-o", dir+string(filepath.Separator), "./cmd/shim", "./cmd/flowd", "./cmd/hook")
	cmd.Dir = filepath.Dir(mod)
	if out, err := cmd.CombinedOutput(); err != nil {
		return binaries{}, fmt.Errorf("go build: %w\n%s", err, out)
	}
	return binariesIn(dir)
}

// daemon is a flowd run in the foreground with the default config (its
// blocklist seeded, seedBlocklist), in files of its own, for one category
// of cases.
type daemon struct {
	cmd    *exec.Cmd
	log    *logWatch
	exited chan error
	socket string
	env    []string // for every process that talks to it

	shimBin, hookBin string
}

// logWatch keeps flowd's log and signals the line that says it serves.
type logWatch struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	ready chan struct{}
	seen  bool
}

func (l *logWatch) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.buf.Len() < 1<<20 {
		l.buf.Write(p)
	}
	if !l.seen && bytes.Contains(p, []byte("flowd ready")) { // slog writes one record per Write
		l.seen = true
		close(l.ready)
	}
	return len(p), nil
}

func (l *logWatch) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// startDaemon starts flowd in dir (a fresh temp dir only this user can
// enter, as flowd requires of its socket's directory).
func startDaemon(bins binaries, dir string) (*daemon, error) {
	// flowd's places are where a user's own are (paths.OwnUnder): a shim
	// or hook takes flowd's variables pointing anywhere else for a
	// project config steering it off the user's flowd, and says so.
	own, err := paths.OwnUnder(dir)
	if err != nil {
		return nil, err
	}
	cfgFile := own.ConfigFile
	cfg, err := seedBlocklist(config.DefaultTOML())
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(cfgFile, cfg, 0o600); err != nil {
		return nil, fmt.Errorf("write flowd config: %w", err)
	}
	d := &daemon{socket: own.Socket, log: &logWatch{ready: make(chan struct{})}, exited: make(chan error, 1),
		shimBin: bins.shim, hookBin: bins.hook}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "FLOWD_") && !strings.HasPrefix(kv, "XDG_") && !strings.HasPrefix(kv, "CLAUDE_CODE_SESSION_ID=") {
			d.env = append(d.env, kv)
		}
	}
	d.env = append(d.env, own.Env...)
	dataDir := own.DataDir
	d.cmd = exec.Command(bins.flowd, "run", "--socket", d.socket, "--data-dir", dataDir, "--config", cfgFile)
	d.cmd.Env = d.env
	d.cmd.Stderr = d.log
	if err := d.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start flowd: %w", err)
	}
	go func() { d.exited <- d.cmd.Wait() }()
	select {
	case <-d.log.ready:
		return d, nil
	case err := <-d.exited:
		return nil, fmt.Errorf("flowd exited before it was ready (%v): %s", err, d.log.String())
	case <-time.After(stallTimeout):
		d.cmd.Process.Kill()
		<-d.exited
		return nil, fmt.Errorf("flowd not ready within %v; killed: %s", stallTimeout, d.log.String())
	}
}

// blocklisted are the hosts RUNNER.md ("Domain blocklist seeding") asks a
// runner to put on the tool's blocklist: flowd's is
// policy.suspicious_endpoints.
var blocklisted = []string{"exfil-collector.example.net"}

// seedBlocklist adds the benchmark's hosts to the default config's
// suspicious_endpoints, which keeps its own; the rest is unchanged.
func seedBlocklist(cfg []byte) ([]byte, error) {
	const key = "\nsuspicious_endpoints = ["
	if bytes.Count(cfg, []byte(key)) != 1 {
		return nil, errors.New("seed the domain blocklist: the default config has no single suspicious_endpoints list")
	}
	var add strings.Builder
	for _, h := range blocklisted {
		add.WriteString("\n  " + strconv.Quote(h) + ",")
	}
	return bytes.Replace(cfg, []byte(key), []byte(key+add.String()), 1), nil
}

func (d *daemon) stop() error {
	d.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-d.exited:
		if err != nil {
			return fmt.Errorf("flowd stopped badly (%v): %s", err, d.log.String())
		}
		return nil
	case <-time.After(stallTimeout):
		d.cmd.Process.Kill()
		<-d.exited
		return fmt.Errorf("flowd did not stop within %v of SIGTERM; killed", stallTimeout)
	}
}

// client is an MCP host's side of one shim: it sends requests one at a
// time and refuses every question flowd puts to the user (elicitation).
type client struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan []byte
	stderr *logWatch
	nextID int
	asked  bool // an elicitation came since the last request
}

// startShim runs `shim --name NAME -- SELF serve SCRIPT` in session and
// shakes hands with it, declaring form elicitation so that an "ask" is
// put to this client (and refused) rather than turned into a warning.
func (d *daemon) startShim(name, session, self, scriptFile string) (*client, error) {
	cmd := exec.Command(d.shimBin, "--no-autostart", "--socket", d.socket, "--name", name, "--", self, "serve", scriptFile)
	cmd.Env = append(append([]string{}, d.env...), "FLOWD_SESSION="+session)
	c := &client{cmd: cmd, lines: make(chan []byte, 16), stderr: &logWatch{ready: make(chan struct{})}}
	cmd.Stderr = c.stderr
	var err error
	if c.in, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start shim: %w", err)
	}
	go func() {
		r := bufio.NewReaderSize(out, 64<<10)
		for {
			line, err := r.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				c.lines <- line
			}
			if err != nil {
				close(c.lines)
				return
			}
		}
	}()
	if _, err := c.request("initialize", map[string]any{"protocolVersion": "2025-06-18",
		"capabilities": map[string]any{"elicitation": map[string]any{}},
		"clientInfo":   map[string]any{"name": "agent-egress-bench", "version": "1"}}); err != nil {
		c.close()
		return nil, fmt.Errorf("initialize through shim: %w", err)
	}
	if err := c.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}); err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

func (c *client) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = c.in.Write(append(b, '\n'))
	return err
}

// request sends one request and returns its response, answering flowd's
// questions on the way with "decline".
func (c *client) request(method string, params any) (json.RawMessage, error) {
	c.nextID++
	id := c.nextID
	c.asked = false
	if err := c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return nil, fmt.Errorf("send %s: %w", method, err)
	}
	timeout := time.After(stallTimeout)
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				return nil, fmt.Errorf("shim closed its output before answering %s: %s", method, c.stderr.String())
			}
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			if json.Unmarshal(line, &m) != nil {
				return nil, fmt.Errorf("shim wrote a line that is not JSON: %.200s", line)
			}
			switch {
			case m.Method == "elicitation/create" && len(m.ID) > 0:
				c.asked = true
				if err := c.send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"action": "decline"}}); err != nil {
					return nil, err
				}
			case m.Method != "":
				// notifications (list_changed, logging) and other requests: not the answer
			case string(m.ID) == strconv.Itoa(id):
				return line, nil
			}
		case <-timeout:
			return nil, fmt.Errorf("no answer to %s within %v: %s", method, stallTimeout, c.stderr.String())
		}
	}
}

// close ends the shim as a host does (stdin EOF), and says what the shim
// reported on stderr: a shim that could not reach flowd says so there, and
// what it passed then was not judged.
func (c *client) close() string {
	c.in.Close()
	done := make(chan struct{})
	go func() { c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(stallTimeout):
		c.cmd.Process.Kill()
		<-done
	}
	return strings.TrimSpace(c.stderr.String())
}

// evaluateHook runs the real `hook evaluate` for one Claude Code event of
// session and returns what it printed. The hook fails open, so trouble
// shows only on its stderr: any stderr is an error.
func (d *daemon) evaluateHook(event, session string, payload []byte, scanOutput bool) ([]byte, error) {
	args := []string{"evaluate", "--event", event, "--socket", d.socket, "--timeout", "20s"}
	if scanOutput {
		args = append(args, "--scan-output")
	}
	cmd := exec.Command(d.hookBin, args...)
	cmd.Env = append(append([]string{}, d.env...), "CLAUDE_CODE_SESSION_ID="+session)
	cmd.Stdin = bytes.NewReader(payload)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		return nil, fmt.Errorf("hook evaluate %s: %v: %s", event, err, bytes.TrimSpace(stderr.Bytes()))
	}
	return stdout.Bytes(), nil
}
