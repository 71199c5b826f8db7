//go:build unix && (redteam8 || redteam9)

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// RT8-12: past flow.max_memory_bytes flowd forgets the least recently
// active session's results; its calls out are then "judged as carrying
// internal data" (ask), which in proxy-only mode is a warning. Another
// session reading large internal files (a second agent, a subagent with
// its own session, a build log) pushes out the session that read the
// key, and the key then goes to slack. The probe sets the limit to
// 2 MiB so that 40 reads of 64 KiB do it; at the default 256 MiB it is
// about 4,000 such reads (what each result costs is bounded by
// max_response_hash_bytes), or a few large ones.
func TestRT8MemoryEvictionForgetsTheKey(t *testing.T) {
	const key = "Zk3Lq9Vm2Xb7Nc4Tp1Wd8YsQr5Hq8vN2xTz5Lk9R"
	f := startFlowd(t, "[flow]\nmax_memory_bytes = 1048576\n")
	_, post := rt8ReadThenSlack(t, f, "rt8-evict-a", "API_KEY="+key+"\n", key)
	send := func(id int) string { return post(id, "ref "+key) }
	require.Contains(t, send(2), "flowd blocked", "control: the key is refused")

	// Session B reads 40 large internal files: a server whose every
	// answer is a different 64 KiB log.
	r := rand.New(rand.NewSource(1))
	var log strings.Builder
	for log.Len() < 64<<10 {
		fmt.Fprintf(&log, "2026-11-28T10:%02d:%02d run {{id}} build step %d ok %x\n", r.Intn(60), r.Intn(60), r.Int(), r.Int63())
	}
	b := rt8Server(t, f, "filesystem", []any{rt8Tool("read_text_file", "Read a file from the project", map[string]string{"path": "file path"})},
		log.String(), nil, "FLOWD_SESSION=rt8-evict-b")
	for i := 0; i < 60; i++ {
		// Each answer differs: the call's id is in every line.
		b.s.roundTrip(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"read_text_file","arguments":{"path":"logs/build-%d.log"}}}`, 100+i, i))
	}
	line := send(3)
	for _, r := range f.activity(t, "tool_call") {
		if r.Server == "slack" {
			t.Logf("flowd: %s %s %s %s", r.Session, r.Tool, r.Verdict, r.Reason)
		}
	}
	assert.Contains(t, line, "flowd blocked", "after another session's reads the key went to slack")
}

// RT8-12 at the default limit (256 MiB): a session that read a secret
// costs flowd's accounting about 370 KB (its secret index) for one small
// read, and any same-user process
// posts hook events under session ids it makes up (RT7-8). A flood of
// PostToolUse Read events of a small file holding a token, one session
// each, pushes the session
// that read the key out; its key then goes to slack with a warning.
func TestRT8HookFloodEvictsTheKeySession(t *testing.T) {
	const key = "Zk3Lq9Vm2Xb7Nc4Tp1Wd8YsQr5Hq8vN2xTz5Lk9R"
	f := startFlowd(t, "")
	_, post := rt8ReadThenSlack(t, f, "rt8-flood-a", "API_KEY="+key+"\n", key)
	send := func(id int) string { return post(id, "ref "+key) }
	require.Contains(t, send(2), "flowd blocked", "control: the key is refused")
	hc := rt8Client(f.socket)
	proj := t.TempDir()
	var wg sync.WaitGroup
	const n, workers = 1200, 8
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < n; i += workers {
				read := `{"session_id":"S","hook_event_name":"PostToolUse","tool_name":"Read","cwd":` + jsonText(proj) +
					`,"tool_input":{"file_path":` + jsonText(fmt.Sprintf("%s/notes-%d.md", proj, i)) + `},"tool_response":{"file":{"content":` +
					jsonText(fmt.Sprintf("TOKEN=Qw%dXr7Lp2Vb9Nm4Tk%dZs8Yd3Hf6Jc1\n", i*7919, i)) + `}}}`
				rt8Hook(t, hc, fmt.Sprintf("rt8-flood-%d", i), "PostToolUse", read)
			}
		}(w)
	}
	wg.Wait()
	line := send(3)
	for _, r := range f.activity(t, "tool_call") {
		if r.Server == "slack" {
			t.Logf("flowd: %s %s %s %s", r.Session, r.Tool, r.Verdict, r.Reason)
		}
	}
	assert.Contains(t, line, "flowd blocked", "after %d hook events of made-up sessions the key went to slack", n)
}

func rt8Hook(t *testing.T, hc *http.Client, session, event, payload string) string {
	body, err := json.Marshal(map[string]any{"agent": "claude-code", "event": event,
		"session": map[string]any{"explicit": session}, "payload": json.RawMessage(payload)})
	require.NoError(t, err)
	resp, err := hc.Post("http://flowd/api/v1/hooks/evaluate", "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	require.Equal(t, 200, resp.StatusCode, string(b))
	return string(b)
}

func rt8Client(socket string) *http.Client {
	return &http.Client{Timeout: hangBound, Transport: &http.Transport{MaxIdleConnsPerHost: 16,
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", socket)
		}}}
}
