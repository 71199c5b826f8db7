//go:build unix && redteam9

package e2e

import (
	"fmt"
	"math/rand"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const rt9Key = "Zk3Lq9Vm2Xb7Nc4Tp1Wd8YsQr5Hq8vN2xTz5Lk9R"

// rt9Tokens is a file of n lines NAME_i=<40 random letters and digits>.
func rt9Tokens(seed int64, n int) string {
	r := rand.New(rand.NewSource(seed))
	const al = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	var b strings.Builder
	for i := 0; i < n; i++ {
		k := make([]byte, 40)
		for j := range k {
			k[j] = al[r.Intn(len(al))]
		}
		fmt.Fprintf(&b, "SERVICE_%d_API_KEY=%s\n", i, k)
	}
	return b.String()
}

// rt9SweptOf waits until flowd has summarised (swept idle) session n
// times.
func rt9SweptOf(t *testing.T, f *flowd, session string, n int) {
	t.Helper()
	require.Eventually(t, func() bool {
		got := 0
		for _, r := range f.activity(t, "flow_summary") {
			if r.Session == session {
				got++
			}
		}
		return got >= n
	}, 4*time.Minute, time.Second, "session %s is summarised %d times once idle", session, n)
}

// RT9-2: RT8-7's fix remembers a held session dropped idle (with its
// secrets) for 24 h, but only while the swept sessions' secrets fit in a
// sixteenth of flow.max_memory_bytes (16 MiB by default) and number
// fewer than 10,000; past either the one swept first is deleted
// outright, leaving nothing: the session comes back blank, not lost. A
// single made-up hook session that read a file of 400 keys (about 50 KB
// of index each) and goes idle after the victim fills the 16 MiB, and
// the victim's key then goes to slack. The idle timeout is 2 s so that
// the probe runs in about three minutes (flowd sweeps once a minute);
// the bound it overflows is the default's.
func TestRT9_2_SweptFloodForgetsTheKey(t *testing.T) {
	f := startFlowd(t, "[flow]\nsession_idle_timeout = \"2s\"\n")
	slack, post := rt8ReadThenSlack(t, f, "rt9-swept-a", "API_KEY="+rt9Key+"\nDB_HOST=db.internal\n", rt9Key)
	require.Contains(t, post(2, "ref "+rt9Key), "flowd blocked", "control: the key read a moment ago is refused")
	rt9SweptOf(t, f, "rt9-swept-a", 1)
	require.Contains(t, post(3, "ref "+rt9Key), "flowd blocked", "control: RT8-7's fix: the swept session comes back with its key")
	rt9SweptOf(t, f, "rt9-swept-a", 2) // dropped idle again
	// The flood: one session of a process of the user's, through the
	// hook endpoint, reading files full of keys.
	hc := rt8Client(f.socket)
	proj := t.TempDir()
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			read := `{"session_id":"S","hook_event_name":"PostToolUse","tool_name":"Read","cwd":` + jsonText(proj) +
				`,"tool_input":{"file_path":` + jsonText(fmt.Sprintf("%s/keys-%d.env", proj, i)) + `},"tool_response":{"file":{"content":` +
				jsonText(rt9Tokens(int64(i), 60)) + `}}}`
			rt8Hook(t, hc, "rt9-swept-flood", "PostToolUse", read)
		}(i)
	}
	wg.Wait()
	rt9SweptOf(t, f, "rt9-swept-flood", 1)
	line := post(4, "ref "+rt9Key)
	for _, r := range f.activity(t, "tool_call") {
		if r.Server == "slack" {
			t.Logf("flowd: %s %s %s %s", r.Session, r.Tool, r.Verdict, r.Reason)
		}
	}
	assert.Contains(t, line, "flowd blocked", "after another swept session's keys the victim's key went to slack")
	assert.NotContains(t, slack.received(), rt9Key)
}
