package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/flowd-dev/flowd/internal/hookproto"
	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/sessionid"
)

// Hook is `hook evaluate` measured end to end, as Claude Code runs it for
// every tool call: process start, the payload on stdin, the request to
// flowd over its socket, flowd's decision, the answer on stdout.
type Hook struct {
	Origins     int         `json:"origins"`      // recorded in the session before the timed runs
	LoadSeconds float64     `json:"load_seconds"` // to record them through flowd's hook endpoint
	BinaryBytes int64       `json:"binary_bytes"`
	Runs        int         `json:"runs"` // one at a time
	Latency     Percentiles `json:"latency"`
	// Start is `hook version` run as often, interleaved: process start and
	// exit alone, the floor under Latency on this machine.
	Start Percentiles `json:"start"`
	// Decisions counts flowd's answers to the timed runs by decision.
	Decisions map[string]int `json:"decisions"`
	Planted   HookPlanted    `json:"planted"`
	Load      HookLoad       `json:"load"`
}

// HookPlanted says whether the timed runs were judged against the
// session's origins: calls carrying origin data must not be allowed.
type HookPlanted struct {
	Fresh        int `json:"fresh"`         // nothing from any origin
	FreshFlagged int `json:"fresh_flagged"` // … yet asked about or denied
	Carrying     int `json:"carrying"`      // a piece or a secret of an origin
	CarryFlagged int `json:"carry_flagged"` // … asked about or denied
}

// HookLoad is many agents' hooks at once against one flowd.
type HookLoad struct {
	Callers    int     `json:"callers"`
	Seconds    float64 `json:"seconds"`
	Evals      int     `json:"evals"` // answered without error
	PerSecond  float64 `json:"evals_per_s"`
	Errors     int     `json:"errors"`
	FirstError string  `json:"first_error,omitempty"`
}

// hookSession is the Claude Code session the hook figures run in.
const hookSession = "flowd-bench-hook"

// hookCall is one PreToolUse payload and what it carries.
type hookCall struct {
	payload  []byte
	carrying bool
}

// measureHook loads origins into a Claude Code session through flowd's
// hook endpoint, then runs the hook binary against it: one at a time for
// latency, then from many callers at once for throughput.
func measureHook(cfg Config, bin, socket string, env []string) (Hook, error) {
	h := Hook{Origins: cfg.HookOrigins, Runs: cfg.HookRuns, Decisions: map[string]int{}}
	c := newCorpus(2)
	docs := make([]doc, cfg.HookOrigins)
	for i := range docs {
		docs[i] = c.result()
	}
	start := time.Now()
	if err := loadHookOrigins(socket, docs); err != nil {
		return h, err
	}
	h.LoadSeconds = time.Since(start).Seconds()

	calls := make([]hookCall, 256)
	withSecrets := secretDocs(docs)
	for i := range calls {
		p, d := plantNothing, doc{}
		switch r := c.rng.IntN(10); {
		case r < 2:
			p, d = plantCopy, docs[c.rng.IntN(len(docs))]
		case r < 3 && len(withSecrets) > 0:
			p, d = plantSecret, docs[withSecrets[c.rng.IntN(len(withSecrets))]]
		}
		calls[i] = hookCall{carrying: p != plantNothing, payload: mustJSON(map[string]any{
			"session_id": hookSession, "transcript_path": "/home/user/.claude/projects/bench/" + hookSession + ".jsonl",
			"cwd": "/home/user/src/app", "permission_mode": "default", "hook_event_name": "PreToolUse",
			"tool_name": "WebFetch", "tool_use_id": fmt.Sprintf("toolu_bench_pre_%d", i),
			"tool_input": map[string]string{"url": fmt.Sprintf("https://docs.example.com/guide/%d", i),
				"prompt": c.outgoing(1000, p, d)},
		})}
	}

	hookEnv := hookEnvironment(env)
	for i := range min(20, len(calls)) { // warm the page cache and flowd's paths
		if _, _, err := evaluateHook(bin, socket, hookEnv, calls[i].payload); err != nil {
			return h, err
		}
	}
	samples := make([]time.Duration, cfg.HookRuns)
	starts := make([]time.Duration, cfg.HookRuns)
	for i := range samples {
		floor, err := startHook(bin, hookEnv)
		if err != nil {
			return h, err
		}
		starts[i] = floor
		call := calls[i%len(calls)]
		d, decision, err := evaluateHook(bin, socket, hookEnv, call.payload)
		if err != nil {
			return h, fmt.Errorf("hook run %d: %w", i, err)
		}
		samples[i] = d
		h.Decisions[decision]++
		// Stopped, not only noted: the preload holds key-shaped strings,
		// so every call after it carries read_then_send's warning (a
		// result that held a secret, then the network), which stops
		// nothing.
		flagged := decision == "ask" || decision == "deny"
		if call.carrying {
			h.Planted.Carrying++
			if flagged {
				h.Planted.CarryFlagged++
			}
		} else {
			h.Planted.Fresh++
			if flagged {
				h.Planted.FreshFlagged++
			}
		}
	}
	h.Start = percentiles(starts)
	h.Latency = percentiles(samples)
	h.Load = hookLoad(cfg.HookCallers, cfg.HookFor, bin, socket, hookEnv, calls)
	return h, nil
}

// hookEnvironment is what Claude Code gives its hooks: the session in
// CLAUDE_CODE_SESSION_ID, and no FLOWD_SESSION to override it.
func hookEnvironment(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "FLOWD_SESSION=") && !strings.HasPrefix(kv, "CLAUDE_CODE_SESSION_ID=") {
			out = append(out, kv)
		}
	}
	return append(out, "CLAUDE_CODE_SESSION_ID="+hookSession)
}

// loadHookOrigins records docs as the agent's own Read results, posting
// PostToolUse events to flowd the way `hook evaluate` does, from a few
// connections at once.
func loadHookOrigins(socket string, docs []doc) error {
	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		MaxIdleConnsPerHost: 4,
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return localsock.Dial(socket, 5*time.Second)
		}}}
	defer hc.CloseIdleConnections()
	work := make(chan int)
	errs := make(chan error, 4)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for i := range work {
				if err := postOrigin(hc, i, docs[i]); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	var err error
feed:
	for i := range docs {
		select {
		case work <- i:
		case err = <-errs:
			break feed
		}
	}
	close(work)
	wg.Wait()
	close(errs)
	return errors.Join(err, <-errs)
}

func postOrigin(hc *http.Client, i int, d doc) error {
	path := fmt.Sprintf("/home/user/src/app/internal/file%05d.go", i)
	payload := mustJSON(map[string]any{
		"session_id": hookSession, "cwd": "/home/user/src/app", "hook_event_name": "PostToolUse",
		"tool_name": "Read", "tool_use_id": fmt.Sprintf("toolu_bench_read_%d", i),
		"tool_input": map[string]string{"file_path": path},
		"tool_response": map[string]any{"type": "text", "file": map[string]any{"filePath": path, "content": d.text,
			"numLines": strings.Count(d.text, "\n") + 1, "startLine": 1, "totalLines": strings.Count(d.text, "\n") + 1}},
	})
	body := mustJSON(hookproto.Request{Agent: "claude-code", Event: "PostToolUse",
		Session: sessionid.Hints{ClaudeCode: hookSession}, Payload: payload})
	resp, err := hc.Post("http://flowd"+hookproto.Path, "application/json", bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("record hook origin %d through flowd: %w", i, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("record hook origin %d: flowd answered %s: %s", i, resp.Status, b)
	}
	return nil
}

// evaluateHook runs `hook evaluate --event PreToolUse` once and returns how
// long it took and flowd's decision as the hook printed it. The hook fails
// open, so trouble shows only on its stderr: any stderr is an error here.
func evaluateHook(bin, socket string, env []string, payload []byte) (time.Duration, string, error) {
	cmd := exec.Command(bin, "evaluate", "--event", "PreToolUse", "--socket", socket)
	cmd.Env = env
	cmd.Stdin = bytes.NewReader(payload)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	if err != nil || stderr.Len() > 0 {
		return d, "", fmt.Errorf("hook evaluate: %v: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
	decision, err := hookDecision(stdout.Bytes())
	return d, decision, err
}

// startHook runs `hook version` and returns how long it took.
func startHook(bin string, env []string) (time.Duration, error) {
	cmd := exec.Command(bin, "version")
	cmd.Env = env
	start := time.Now()
	out, err := cmd.CombinedOutput()
	d := time.Since(start)
	if err != nil {
		return d, fmt.Errorf("hook version: %w: %s", err, out)
	}
	return d, nil
}

// hookDecision reads Claude Code's hook protocol back: no output allows,
// a permission decision denies or asks, a system message alone warns.
func hookDecision(out []byte) (string, error) {
	if len(bytes.TrimSpace(out)) == 0 {
		return "allow", nil
	}
	var o struct {
		SystemMessage string `json:"systemMessage"`
		Specific      struct {
			PermissionDecision string `json:"permissionDecision"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &o); err != nil {
		return "", fmt.Errorf("hook evaluate printed something that is not JSON (%w): %.300s", err, out)
	}
	switch {
	case o.Specific.PermissionDecision != "":
		return o.Specific.PermissionDecision, nil
	case o.SystemMessage != "":
		return "warn", nil
	}
	return "", fmt.Errorf("hook evaluate printed JSON with no decision: %.300s", out)
}

// hookLoad runs the hook from callers goroutines at once for about d and
// counts what was answered. Errors are counted, not fatal: how many there
// are under load is a figure.
func hookLoad(callers int, d time.Duration, bin, socket string, env []string, calls []hookCall) HookLoad {
	l := HookLoad{Callers: callers}
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	deadline := start.Add(d)
	for g := range callers {
		wg.Go(func() {
			for i := g; time.Now().Before(deadline); i += callers {
				_, _, err := evaluateHook(bin, socket, env, calls[i%len(calls)].payload)
				mu.Lock()
				if err != nil {
					l.Errors++
					if l.FirstError == "" {
						l.FirstError = err.Error()
					}
				} else {
					l.Evals++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	l.Seconds = time.Since(start).Seconds()
	l.PerSecond = float64(l.Evals) / l.Seconds
	return l
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("bench: encode %T: %v", v, err)) // maps of strings and numbers: a bug
	}
	return b
}
