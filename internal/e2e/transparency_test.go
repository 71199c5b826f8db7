//go:build unix

package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawStream is what a client might send, written to bring out a relay
// that parses and re-encodes, trims, normalises line endings, reorders or
// chokes on size. Through `shim -- cat` it must come back byte for byte.
func rawStream() []byte {
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"x-vendor":{"deep":[1,2.50,-0,1e400]}},"clientInfo":{"name":"raw","version":"0"}},"x-unknown-top":true}` + "\n",
		"  {  \"jsonrpc\" : \"2.0\" ,\t\"method\":\"notifications/initialized\"  }   \n",
		`{"jsonrpc":"2.0","id":"ü-1","method":"tools/call","params":{"name":"echo","arguments":{"message":"héllo wörld — 日本語 🎉 \u00e9\u2028 \\n \"q\""}}}` + "\r\n",
		`{"jsonrpc":"2.0","id":3,"method":"vendor/unknownMethod","params":{"a":null,"b":[{}]}}` + "\n",
		// 2026-07-28 style: no initialize, protocol metadata on each request.
		`{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"0"},"io.modelcontextprotocol/clientCapabilities":{}}}}` + "\n",
		`{"jsonrpc":"2.0","id":5,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}` + "\n",
		// cat sends this back as the server's answer to "ü-1", so flowd
		// records a tool call: the proof that the stream went through it.
		`{"jsonrpc":"2.0","id":"ü-1","result":{"content":[{"type":"text","text":"héllo"}],"x-extra":1}}` + "\n",
		`{"jsonrpc":"2.0","method":"notifications/x-vendor/thing","params":{}}` + "\n",
		"\n",
		"\r\n",
		"not json at all {\n",
		`[{"jsonrpc":"2.0","id":9,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}]` + "\n",
		// 12 MiB: inspected whole (max_inspect_bytes is 16 MiB).
		`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"echo","arguments":{"message":"` + strings.Repeat("big ", 3<<20) + `"}}}` + "\n",
		// 20 MiB: too big to inspect whole, forwarded all the same.
		`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"echo","arguments":{"message":"` + strings.Repeat("huge", 5<<20) + `"}}}` + "\n",
		`{"jsonrpc":"2.0","id":12,"method":"ping"}`, // EOF ends it, not a newline
	}
	return []byte(strings.Join(lines, ""))
}

func TestRelayIsByteTransparent(t *testing.T) {
	t.Parallel()
	// cat is a local relay: said so, since what flowd cannot classify is
	// taken to send data out, and arguments too big to inspect do not go
	// there.
	f := startFlowd(t, "[classify.servers]\n\"cat\" = \"internal\"\n")
	cat, err := exec.LookPath("cat")
	require.NoError(t, err)
	in := rawStream()
	p := startProc(t, f.shim(cat))

	got := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(p.stdout)
		got <- b
	}()
	start := time.Now()
	_, err = p.stdin.Write(in)
	require.NoError(t, err)
	require.NoError(t, p.stdin.Close())
	var out []byte
	select {
	case out = <-got:
	case <-time.After(hangBound):
		// Not a speed bound: 32 MiB checked under the race detector took
		// 77 s on two cores kept busy by four other processes.
		t.Fatalf("the shim's stdout did not end within %v of closing its stdin", hangBound)
	}
	assert.Equal(t, 0, p.wait(t, 10*time.Second), "exit code")
	t.Logf("%d bytes through shim and cat and back in %v", len(in), time.Since(start))
	if !bytes.Equal(in, out) {
		t.Fatalf("bytes out of the shim differ from bytes in: %s", diffAt(in, out))
	}
	f.waitToolCalls(t, "echo")
	noShimComplaints(t, p.stderr.String())
}

func TestStderrPassesThroughLive(t *testing.T) {
	t.Parallel()
	f := startFlowd(t, "")
	argv, env := upstream(modeEcho)
	p := startProc(t, f.shim(argv...), env)
	// Before the client sends anything and before the upstream exits: a
	// host shows server logs as they come.
	p.stderr.waitFor(t, helperStderr, 10*time.Second)
	pid := p.readLine(t, 10*time.Second)
	require.True(t, strings.HasPrefix(pid, "pid "), "first stdout line %q", pid)
	_, err := io.WriteString(p.stdin, "ping\n")
	require.NoError(t, err)
	assert.Equal(t, "ping\n", p.readLine(t, 10*time.Second))
	require.NoError(t, p.stdin.Close())
	assert.Equal(t, 0, p.wait(t, 10*time.Second), "exit code")
}

func TestStdinEOFEndsUpstream(t *testing.T) {
	t.Parallel()
	f := startFlowd(t, "")
	p := startProc(t, f.shim("sh", "-c", "echo $$; exec cat"))
	pid := readPid(t, p)
	_, err := io.WriteString(p.stdin, "{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n")
	require.NoError(t, err)
	assert.Equal(t, "{\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n", p.readLine(t, 10*time.Second))
	require.NoError(t, p.stdin.Close())
	// cat exits only on EOF, and the shim only after its upstream.
	assert.Equal(t, 0, p.wait(t, 10*time.Second), "exit code")
	assert.False(t, alive(t, pid), "cat (pid %d) still runs after the shim exited", pid)
}

func TestExitCodePassesThrough(t *testing.T) {
	t.Parallel()
	f := startFlowd(t, "")
	for _, tc := range []struct {
		name string
		argv []string
		want int
	}{
		{"exit 0", []string{"sh", "-c", "exit 0"}, 0},
		{"testserver --exit 3", []string{bins.testserver, "--exit", "3"}, 3},
		{"exit 255", []string{"sh", "-c", "exit 255"}, 255},
		{"killed by SIGTERM", []string{"sh", "-c", "kill -TERM $$"}, 128 + int(syscall.SIGTERM)},
		{"killed by SIGKILL", []string{"sh", "-c", "kill -KILL $$"}, 128 + int(syscall.SIGKILL)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := startProc(t, f.shim(tc.argv...))
			assert.Equal(t, tc.want, p.wait(t, 10*time.Second), "shim exit code; stderr:\n%s", p.stderr)
		})
	}
}

func TestSignalsReachUpstream(t *testing.T) {
	t.Parallel()
	f := startFlowd(t, "")
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			argv, env := upstream(modeTrapSignals)
			p := startProc(t, f.shim(argv...), env)
			require.Equal(t, "ready\n", p.readLine(t, 10*time.Second))
			start := time.Now()
			require.NoError(t, p.cmd.Process.Signal(sig))
			assert.Equal(t, "got "+sig.String()+"\n", p.readLine(t, 10*time.Second))
			code := p.wait(t, 10*time.Second)
			took := time.Since(start)
			assert.Equal(t, 7, code, "the shim exits with the code the upstream chose on %v", sig)
			// A shim that does not forward would sit until its client gives
			// up (the TS SDK escalates to SIGKILL after 2s more).
			assert.Less(t, took, 2*time.Second, "signal to shim exit")
			t.Logf("%v to the shim: exited %v later", sig, took)
		})
	}
}

func TestKilledShimLeavesNoOrphan(t *testing.T) {
	t.Parallel()
	f := startFlowd(t, "")
	// sleep ignores stdin, so only the kernel's parent-death signal can end
	// it when the shim dies, not the EOF on its stdin.
	p := startProc(t, f.shim("sh", "-c", "echo $$; exec sleep 600"))
	pid := readPid(t, p)
	require.True(t, alive(t, pid), "upstream pid %d not running", pid)
	require.NoError(t, p.cmd.Process.Kill())
	assert.Equal(t, 128+int(syscall.SIGKILL), p.wait(t, 10*time.Second))
	// The upstream is not this process's child, so nothing signals its
	// death here: poll /proc, bounded.
	deadline := time.Now().Add(5 * time.Second)
	for alive(t, pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("upstream pid %d still runs 5s after the shim was SIGKILLed", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestDeniedToolCallIsBlocked(t *testing.T) {
	t.Parallel()
	f := startFlowd(t, "max_inspect_bytes = 4096\n[policy.tool_overrides]\n\"send_message\" = \"deny\"\n")
	cases := []struct{ name, text string }{
		{"small", "hi"},
		// Bigger than max_inspect_bytes: flowd sees only the start of the
		// message, which still names the tool.
		{"over max_inspect_bytes", strings.Repeat("x", 10_000)},
	}
	t.Run("calls", func(t *testing.T) {
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				deniedCallIsBlocked(t, f, tc.text)
			})
		}
	})
	var verdicts []string
	for _, r := range f.waitToolCalls(t, "echo") {
		if r.Tool == "send_message" {
			verdicts = append(verdicts, r.Verdict)
		}
	}
	assert.Equal(t, []string{"block", "block"}, verdicts, "flowd's records of the denied calls")
}

func deniedCallIsBlocked(t *testing.T, f *flowd, text string) {
	p := startProc(t, f.shim(bins.testserver, "--name", "slack-notifications"))
	send := func(line string) {
		t.Helper()
		_, err := io.WriteString(p.stdin, line+"\n")
		require.NoError(t, err)
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	assert.Contains(t, p.readLine(t, 10*time.Second), `"id":1`)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":"call-α","method":"tools/call","params":{"name":"send_message","arguments":{"channel":"#general","text":"` + text + `"}}}`)
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"message":"still here"}}}`)

	// A blocked call is answered by the shim at once, an allowed one by the
	// server; the order of the two answers is not part of the contract.
	type answer struct {
		Result struct {
			Content []struct{ Type, Text string } `json:"content"`
			IsError bool                          `json:"isError"`
		} `json:"result"`
		line string
	}
	answers := map[string]answer{}
	for range 2 {
		line := p.readLine(t, 10*time.Second)
		var a struct {
			ID json.RawMessage `json:"id"`
			answer
		}
		require.NoError(t, json.Unmarshal([]byte(line), &a), "answer %q", line)
		a.line = line
		answers[string(a.ID)] = a.answer
	}
	blocked, ok := answers[`"call-α"`]
	require.True(t, ok, "no answer carries the denied request's id: %v", answers)
	assert.True(t, blocked.Result.IsError, "the denied call was answered by the server, not blocked: %s", blocked.line)
	require.Len(t, blocked.Result.Content, 1, "blocked answer %s", blocked.line)
	assert.True(t, strings.HasPrefix(blocked.Result.Content[0].Text, "flowd blocked"), "the denied call was answered by the server, not blocked: %s", blocked.line)
	assert.Contains(t, answers["3"].line, "still here", "an allowed call after a blocked one still reaches the server")
	require.NoError(t, p.stdin.Close())
	assert.Equal(t, 0, p.wait(t, 10*time.Second))
}

// readPid reads the "$$" line a `sh -c 'echo $$; exec …'` upstream prints.
func readPid(t *testing.T, p *proc) int {
	t.Helper()
	line := p.readLine(t, 10*time.Second)
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	require.NoError(t, err, "pid line %q", line)
	return pid
}

// alive reports whether pid runs. A zombie counts as dead: once the shim
// is gone the upstream's new parent may be slow, or never, to reap it.
func alive(t *testing.T, pid int) bool {
	t.Helper()
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if errors.Is(err, os.ErrNotExist) {
		return false
	}
	require.NoError(t, err, "this test reads process states from /proc")
	// The state follows the command name, which is in parentheses and may
	// itself contain them.
	i := bytes.LastIndexByte(stat, ')')
	require.True(t, i > 0 && i+2 < len(stat), "odd /proc/%d/stat: %q", pid, stat)
	state := stat[i+2]
	return state != 'Z' && state != 'X'
}
