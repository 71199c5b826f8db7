//go:build unix && redteam8

package e2e

import (
	"fmt"
	"math/rand"
	"strings"
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
	a := []string{"FLOWD_SESSION=rt8-evict-a"}
	fs := rt8Server(t, f, "filesystem", []any{rt8Tool("read_text_file", "Read a file from the project", map[string]string{"path": "file path"})},
		"API_KEY="+key+"\n", nil, a...)
	require.Contains(t, fs.s.roundTrip(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_text_file","arguments":{"path":".env"}}}`), key)
	slack := rt8Server(t, f, "slack", []any{rt8Tool("post_message", "Post a message to a channel", map[string]string{"channel": "channel", "text": "message text"})}, "ok", nil, a...)
	send := func(id int) string {
		return slack.s.roundTrip(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"post_message","arguments":{"channel":"ops","text":"ref %s"}}}`, id, key))
	}
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
