//go:build unix

package e2e

import (
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A real flowd stopped with SIGSTOP while 1 MB calls flow through a real
// shim and an internal server: each call is settled by fail_mode within the verdict
// timeout (measured), the shim says flowd is not answering, and once flowd
// runs again it records that what it judged late had gone on unjudged.
func TestFlowdStopped(t *testing.T) {
	const timeout = time.Second
	// What a busy two-core machine under the race detector may add.
	const slack = 3 * time.Second
	for _, mode := range []string{"open", "closed"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			// The server is classed internal: fail_mode open passes its
			// calls while flowd is stopped (TestStoppedFlowdBlocksExternalServer
			// is about the others).
			f := startFlowdConfig(t, "[shim]\nverdict_timeout = \"1s\"\nfail_mode = \""+mode+"\"\n"+
				"[classify.servers]\ntestserver = \"internal\"\n")
			cmd := f.cmd
			p := startProc(t, f.shim(bins.testserver))
			handshake(t, p)
			call := func(id int, msg string) (string, time.Duration) {
				start := time.Now()
				_, err := p.stdin.Write([]byte(echoCall(id, msg)))
				require.NoError(t, err)
				line := p.readLine(t, 30*time.Second)
				return line, time.Since(start)
			}
			line, _ := call(1, "before")
			require.Contains(t, line, "before")
			// What a 1 MB call costs with flowd judging it: under the race
			// detector the server alone takes seconds.
			big := strings.Repeat("b", 1<<20)
			line, base := call(6, big)
			require.Contains(t, line, big)
			t.Logf("%s: 1 MB call judged in %v", mode, base.Round(time.Millisecond))
			assert.Empty(t, p.stderr.String(), "a healthy flowd, however slow")

			require.NoError(t, cmd.Process.Signal(syscall.SIGSTOP))
			// A small call first: it reaches flowd whole, so flowd judges it
			// once it runs again.
			line, took := call(2, "small")
			t.Logf("%s: small call settled after %v", mode, took.Round(time.Millisecond))
			assert.Less(t, took, timeout+slack)
			if mode == "open" {
				assert.Contains(t, line, "small", "passed unchecked")
			} else {
				assert.Contains(t, line, "flowd blocked: flowd is not answering", "blocked: the call, or its answer if echo was granted")
				assert.NotContains(t, line, "small")
			}
			for id := 3; id <= 4; id++ {
				line, took := call(id, big)
				t.Logf("%s: 1 MB call %d settled after %v", mode, id, took.Round(time.Millisecond))
				assert.Less(t, took, base+timeout+slack)
				if mode == "open" {
					assert.Contains(t, line, big)
				} else {
					assert.Contains(t, line, "flowd blocked: flowd is not answering and fail_mode is closed, so tool calls are not allowed")
				}
			}
			stderr := p.stderr.String()
			assert.Contains(t, stderr, "flowd is not answering")
			assert.NotContains(t, stderr, "unreachable")
			if mode == "open" {
				assert.Contains(t, stderr, "is not answering: messages pass unchecked (fail_mode=open)")
			}

			require.NoError(t, cmd.Process.Signal(syscall.SIGCONT))
			p.stderr.waitFor(t, "connected to flowd", 30*time.Second)
			// flowd records the call it judged after the shim had given up
			// on it: polling another process's store, bounded.
			for i := 0; ; i++ {
				recs := f.activity(t, "unjudged")
				if len(recs) > 0 {
					assert.Equal(t, "fail_mode_"+mode, recs[0].Verdict)
					assert.Contains(t, recs[0].Reason, "the shim stopped waiting")
					t.Logf("%s: %+v", mode, recs[0])
					break
				}
				require.Less(t, i, 500, "flowd recorded nothing unjudged")
				time.Sleep(20 * time.Millisecond)
			}
			line, _ = call(5, "after")
			assert.Contains(t, line, "after", "flowd judges again")
			p.stdin.Close()
			assert.Equal(t, 0, p.wait(t, 30*time.Second))
		})
	}
}

// The agent's `kill -STOP` of flowd (which its hook now refuses, but a
// process it started earlier need not ask) does not open the way out:
// under the default config (fail_mode open), a shim whose server flowd did
// not class internal blocks its calls while flowd is stopped but
// listening, says so on stderr, and flowd records it once it runs again.
func TestStoppedFlowdBlocksExternalServer(t *testing.T) {
	const secret = "Hq8vN2xTz5Lk9RmW3pYc7Jf1Gd4Sb6Ua0EeXoIiV"
	f := startFlowdConfig(t, "") // every key at its default
	cmd := f.cmd
	p := startProc(t, f.shim(bins.testserver, "--name", "slack"))
	handshake(t, p)
	call := func(id int, msg string) string {
		_, err := p.stdin.Write([]byte(echoCall(id, msg)))
		require.NoError(t, err)
		return p.readLine(t, 60*time.Second)
	}
	require.Contains(t, call(1, "hello"), "hello", "flowd running: a plain call goes through")
	msg := "aws_secret_access_key = " + secret
	require.Contains(t, call(2, msg), "flowd blocked", "flowd running: the secret is blocked")

	require.NoError(t, cmd.Process.Signal(syscall.SIGSTOP))
	waitStopped(t, cmd.Process.Pid)
	for id := 3; id <= 4; id++ {
		start := time.Now()
		line := call(id, msg)
		t.Logf("call %d settled after %v", id, time.Since(start).Round(time.Millisecond))
		assert.NotContains(t, line, secret, "the secret must not reach the external server while flowd is stopped")
		assert.Contains(t, line, "flowd blocked: flowd is not answering and this server's class is external, not internal")
	}
	assert.Contains(t, p.stderr.String(), "tool calls to this server (class external) are blocked until it answers")

	require.NoError(t, cmd.Process.Signal(syscall.SIGCONT))
	p.stderr.waitFor(t, "connected to flowd", 30*time.Second)
	// flowd records what the shim did meanwhile: polling another
	// process's store, bounded.
	for i := 0; ; i++ {
		recs := f.activity(t, "unjudged")
		if len(recs) > 0 {
			assert.Equal(t, "fail_mode_closed", recs[0].Verdict)
			assert.Contains(t, recs[0].Reason, "was refused by the shim")
			break
		}
		require.Less(t, i, 500, "flowd recorded nothing unjudged")
		time.Sleep(20 * time.Millisecond)
	}
	assert.Contains(t, call(5, "after"), "after", "flowd judges again")
	p.stdin.Close()
	assert.Equal(t, 0, p.wait(t, 30*time.Second))
}

// waitStopped returns once the process is stopped: kill(2) returns before
// every thread of a busy process has taken the signal, and a message sent
// in between is still answered.
func waitStopped(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(hangBound)
	for {
		out, err := exec.Command("ps", "-o", "state=", "-p", strconv.Itoa(pid)).Output()
		require.NoError(t, err, "ps for pid %d", pid)
		if strings.HasPrefix(strings.TrimSpace(string(out)), "T") {
			return
		}
		require.True(t, time.Now().Before(deadline), "pid %d not stopped within %v (state %q)", pid, hangBound, out)
		time.Sleep(10 * time.Millisecond)
	}
}
