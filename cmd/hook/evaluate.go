package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/flowd-dev/flowd/internal/hookproto"
	"github.com/flowd-dev/flowd/internal/ondemand"
	"github.com/flowd-dev/flowd/internal/paths"
	"github.com/flowd-dev/flowd/internal/sessionid"
)

// maxPayload bounds the hook's stdin; a bigger payload (a huge file read)
// is not evaluated.
const maxPayload = 16 << 20

// Exit codes of evaluate. Agents read 2 as "block this tool call", so
// evaluate exits 2 only when it was told to fail closed.
const (
	exitOK         = 0
	exitFailedOpen = 1 // agents carry on after a hook error
	exitBlock      = 2
)

// evaluate asks flowd about one hook event and prints the answer in the
// agent's protocol. Whatever goes wrong, it fails open (prints nothing,
// so the agent goes on as if flowd were absent) unless --fail-closed,
// where an event that gates a tool call is denied instead.
func evaluate(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	// Until the flags are parsed, a plain --fail-closed among the
	// arguments decides how a failure to run ends.
	failClosed := slices.Contains(args, "--fail-closed") || slices.Contains(args, "-fail-closed")
	// A Go panic exits 2, which an agent reads as "block": keep the
	// promise of failing open even then.
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "flowd hook: internal error: %v\n", r)
			code = failedExit(failClosed)
		}
	}()
	fs := flag.NewFlagSet("hook evaluate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	event := fs.String("event", "", "hook event (Claude Code: PreToolUse, PostToolUse, PostToolUseFailure; Gemini CLI: BeforeTool, AfterTool; Cursor: beforeMCPExecution, …)")
	agentName := fs.String("agent", defaultAgent, "agent whose hook protocol to speak")
	failClosedFlag := fs.Bool("fail-closed", false, "deny tool calls when flowd cannot answer")
	socket := fs.String("socket", "", "flowd socket (default: $FLOWD_SOCKET, else the per-user default)")
	timeout := fs.Duration("timeout", defaultTimeout(stderr), "how long to wait for flowd (default from $"+envTimeout+")")
	scanOutput := fs.Bool("scan-output", false, "this hook runs synchronously and may replace a tool's output (hook install --scan-output)")
	noAutostart := fs.Bool("no-autostart", false, "never start flowd: while none runs, tool calls go on unchecked (denied with --fail-closed)")
	if err := fs.Parse(args); err != nil {
		return failedExit(failClosed)
	}
	failClosed = *failClosedFlag
	a, err := lookupAgent(*agentName)
	if err == nil && !slices.Contains(a.events(), *event) {
		err = fmt.Errorf("--event must be one of %v, not %q", a.events(), *event)
	}
	if err == nil && fs.NArg() > 0 {
		err = fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if err != nil {
		fmt.Fprintf(stderr, "flowd hook: %v\n", err)
		return failedExit(failClosed)
	}
	// flowd's variables in the agent's environment (a project's settings
	// can set it) keep to the user's own flowd, as a shim's do
	// (ondemand.Steer). Taken elsewhere while no flowd of the user's
	// answers, the hook keeps the fail mode it was installed with: its
	// command names no socket, so a user's own FLOWD_SOCKET reaches it
	// the same way, and a flowd it cannot start there is denied anyway
	// (errGone) unless none is installed or autostart is off.
	*socket, _ = ondemand.Steer(*socket, func(m string) { fmt.Fprintln(stderr, "flowd hook: "+m) })

	// The system flowd is the service manager's to start, as another user.
	autostart := !*noAutostart && *socket != paths.SystemSocket
	v, err := ask(a, *agentName, *event, *socket, *timeout, *scanOutput, autostart, stdin)
	if err != nil {
		// A flowd that listens but does not answer was paused or is stuck,
		// one whose socket is left behind was killed: an agent able to
		// pause or kill it must not get its tools unchecked by it, so only
		// reads go on; so does one that takes the connection and drops it
		// (a flood, or another program on its socket). A flowd that is
		// not there, and that the hook may not or cannot start because
		// none is installed, fails open.
		if tool := toolOf(err); (errors.Is(err, errSilent) || errors.Is(err, errDead) || errors.Is(err, errGone)) && a.gates(*event) && !readOnly[tool] {
			fmt.Fprintf(stderr, "flowd hook: %v; %s denied until flowd answers\n", err, tool)
			state, fix := "running but not answering (stopped or stuck)", "restart it with `flowd restart`"
			switch {
			case errors.Is(err, errGone):
				state, fix = "not running, and could not be started", "start it with `flowd start`"
			case errors.Is(err, errDead):
				state, fix = "gone but its socket is still there (killed or crashed), and could not be started again", "start it with `flowd start`"
			case errors.Is(err, errDropped):
				state = "taking connections but closing them unanswered (overloaded, or something else listens on its socket)"
			case errors.Is(err, errLocked):
				state, fix = "there but its socket refuses this user (its permissions were changed)", "restart it with `flowd restart`"
			case errors.Is(err, errImpostor):
				state, fix = "not what listens on its socket (another program took its place)", "restart it with `flowd restart` and run `flowd doctor`"
			case errors.Is(err, errBlocked):
				state, fix = "not reachable through its socket, whose path was changed (moved, replaced, or made by someone else)", "run `flowd doctor`"
			}
			v = hookproto.Verdict{Decision: "deny", Reason: "flowd is " + state + ", so " + tool +
				" is denied until it answers; reads go on. Tell the user: they can check it with `flowd status` and " + fix + "."}
			stdout.Write(a.output(*event, v))
			return exitOK
		}
		if !failClosed || !a.gates(*event) {
			fmt.Fprintf(stderr, "flowd hook: %v; not checked (fail-open)\n", err)
			stdout.Write(a.failedOpen(*event, err))
			return exitOK
		}
		fmt.Fprintf(stderr, "flowd hook: %v; denied (--fail-closed)\n", err)
		v = hookproto.Verdict{Decision: "deny", Reason: failClosedReason(err)}
	}
	stdout.Write(a.output(*event, v))
	return exitOK
}

// restartFlowd starts flowd on socket and waits until it answers; tests
// replace it.
var restartFlowd = func(socket string) error { return ondemand.StartNextToMe(socket, startWait) }

// startWait bounds the wait for a flowd the hook starts. The agent gives
// the hook 10 s (hook install's timeout) and, past it, runs the call as if
// the hook had allowed it: a start that a same-user process holds back
// (flowd's lock held) must end in the hook's own answer well before,
// with the time to ask the flowd it started (--timeout, 2 s) after it.
const startWait = 5 * time.Second

// failedExit ends an evaluate that could not even ask flowd (bad flags,
// a bug): a non-blocking hook error, or a block when failing closed.
func failedExit(failClosed bool) int {
	if failClosed {
		return exitBlock
	}
	return exitFailedOpen
}

// errUnreachable marks the failures that mean flowd is not there, for the
// reason the model and the user see.
var errUnreachable = errors.New("flowd is unreachable")

// errSystemDown marks a missing socket of the machine's flowd: installed
// as a service (paths.SystemUnit), and stopped. It is the service
// manager's to start, as root, not the hook's: a flowd of the user's own
// started in its place would shadow it for good.
var errSystemDown = errors.New("the machine's flowd is installed but not running (start it with `sudo systemctl start flowd.socket flowd.service`)")

func failClosedReason(err error) string {
	if errors.Is(err, errSystemDown) {
		return "the machine's flowd is installed but not running, and this hook is set to fail closed, so tool calls are denied until it runs " +
			"(start it with `sudo systemctl start flowd.socket flowd.service`; `flowd status` says more)"
	}
	if errors.Is(err, errUnreachable) {
		return "flowd is unreachable, and this hook is set to fail closed, so tool calls are denied until it runs " +
			"(start it with `flowd run`; " + strings.TrimPrefix(err.Error(), errUnreachable.Error()+": ") + ")"
	}
	return "flowd could not check this tool call, and this hook is set to fail closed (" + err.Error() + ")"
}

func ask(a agent, agentName, event, socket string, timeout time.Duration, replaceOutput, autostart bool, stdin io.Reader) (hookproto.Verdict, error) {
	payload, err := io.ReadAll(io.LimitReader(stdin, maxPayload+1))
	if err != nil {
		return hookproto.Verdict{}, fmt.Errorf("read the hook payload: %w", err)
	}
	if len(payload) > maxPayload {
		return hookproto.Verdict{}, fmt.Errorf("hook payload is larger than %d MiB", maxPayload>>20)
	}
	payload = bytes.TrimSpace(payload)
	hints := sessionid.Collect()
	if err := a.parse(payload, &hints); err != nil {
		return hookproto.Verdict{}, err
	}
	body, err := json.Marshal(hookproto.Request{Agent: agentName, Event: event, Session: hints, Payload: payload,
		ReplaceOutput: replaceOutput})
	if err != nil {
		return hookproto.Verdict{}, fmt.Errorf("encode the request to flowd: %w", err)
	}
	status, resp, err := call(socket, "POST", hookproto.Path, body, timeout)
	switch {
	case errors.Is(err, syscall.ENOENT) && socket == paths.SystemSocket:
		err = fmt.Errorf("%w: %w", errSystemDown, err)
	case errors.Is(err, errDead) && autostart:
		// Killed or crashed: started again, as the next shim would start
		// it, and asked. The agent that killed it gains nothing by it.
		if serr := restartFlowd(socket); serr != nil {
			err = fmt.Errorf("%w; starting it again failed: %v", err, serr)
		} else {
			status, resp, err = callStarted(socket, body, timeout)
		}
	case errors.Is(err, syscall.ENOENT) && autostart:
		// No socket: a flowd stopped as asked, or one killed whose socket
		// was removed too (red team RT4-1), which look the same. Started,
		// as a shim starts it, both are asked; only a flowd that is not
		// installed is absent. One that cannot be started was kept down by
		// whoever removed its socket, and the agent gets only reads.
		switch serr := restartFlowd(socket); {
		case serr == nil:
			status, resp, err = callStarted(socket, body, timeout)
		case errors.Is(serr, ondemand.ErrNotInstalled):
			err = fmt.Errorf("%w (%v)", err, serr)
		default:
			err = fmt.Errorf("%w: %w; starting it failed: %v", errGone, err, serr)
		}
	}
	if errors.Is(err, errSilent) || errors.Is(err, errDead) || errors.Is(err, errGone) {
		var p struct {
			Tool string `json:"tool_name"`
		}
		json.Unmarshal(payload, &p)
		return hookproto.Verdict{}, &toolError{tool: p.Tool, err: err}
	}
	if err != nil {
		return hookproto.Verdict{}, fmt.Errorf("%w: %w", errUnreachable, err)
	}
	if status != 200 {
		return hookproto.Verdict{}, fmt.Errorf("flowd answered %s with status %d: %s", hookproto.Path, status, bytes.TrimSpace(resp))
	}
	var v hookproto.Verdict
	if err := json.Unmarshal(resp, &v); err != nil {
		return hookproto.Verdict{}, fmt.Errorf("flowd's answer is not JSON: %w", err)
	}
	switch v.Decision {
	case "allow", "warn", "ask", "deny":
		return v, nil
	}
	return hookproto.Verdict{}, fmt.Errorf("flowd answered with unknown decision %q", v.Decision)
}

// callStarted asks the flowd the hook has just started. Its socket gone
// again already was removed by someone racing the start: a flowd gone,
// not one absent.
func callStarted(socket string, body []byte, timeout time.Duration) (int, []byte, error) {
	status, resp, err := call(socket, "POST", hookproto.Path, body, timeout)
	if errors.Is(err, syscall.ENOENT) {
		err = fmt.Errorf("%w: %w", errGone, err)
	}
	return status, resp, err
}

// envTimeout sets the default of --timeout. The hook's command line is
// written into the agent's settings once; a machine slower than usual
// (a test run under the race detector on a busy one) can give flowd more
// time without rewriting it.
const envTimeout = "FLOWD_HOOK_TIMEOUT"

func defaultTimeout(stderr io.Writer) time.Duration {
	const def = 2 * time.Second
	v := os.Getenv(envTimeout)
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		fmt.Fprintf(stderr, "flowd hook: ignoring %s=%q: not a positive duration such as 5s\n", envTimeout, v)
		return def
	}
	return d
}

// readOnly are the agent's tools that only read local files: they go on
// while flowd is silent, as they cannot send anything anywhere.
var readOnly = map[string]bool{"Read": true, "Glob": true, "Grep": true, "LS": true, "NotebookRead": true,
	"TodoRead": true, "TodoWrite": true}

// toolError is a failure to ask flowd about the call to tool.
type toolError struct {
	tool string
	err  error
}

func (e *toolError) Error() string { return e.err.Error() }
func (e *toolError) Unwrap() error { return e.err }

// toolOf is the tool of the call whose check failed with err, or "".
func toolOf(err error) string {
	var te *toolError
	if errors.As(err, &te) {
		return te.tool
	}
	return ""
}
