package daemon

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

// rssKB is this process's resident memory.
func rssKB(t *testing.T) int {
	b, err := os.ReadFile("/proc/self/status")
	require.NoError(t, err)
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmRSS:" {
			n, err := strconv.Atoi(f[1])
			require.NoError(t, err)
			return n
		}
	}
	t.Fatal("no VmRSS in /proc/self/status")
	return 0
}

// After a large message flowd hands the memory its judgement took back to
// the OS within seconds, not when the runtime's scavenger gets to it.
func TestMemoryIsReleasedAfterALargeMessage(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's shadow memory dominates RSS; run without -race")
	}
	cfg := config.Default()
	cfg.Shim.MaxInspectBytes = 64 << 20
	_, socket, _ := serving(t, cfg)
	_, r, w := shimClient(t, socket)
	start := rssKB(t)
	sendLarge(t, r, w, 30<<20)
	peak := rssKB(t)
	t.Logf("RSS %d MB at start, %d MB after a 30 MB call", start>>10, peak>>10)
	assert.Eventually(t, func() bool { return rssKB(t) < start+(16<<10) }, time.Minute, 100*time.Millisecond,
		"RSS stays above %d MB", (start>>10)+16)
}

// sendLarge sends an n-byte tools/call and waits for its verdict, keeping
// no copy of it.
func sendLarge(t *testing.T, r *shimproto.Reader, w *shimproto.Writer, n int) {
	line := []byte(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"` +
		strings.Repeat("ab cd ", n/6) + `"}}}` + "\n")
	require.NoError(t, w.WriteMessage(shimproto.Message{Seq: 1, Dir: c2s, Data: line}))
	for {
		typ, _, err := r.Next()
		require.NoError(t, err)
		if typ == shimproto.TypeVerdict {
			return
		}
	}
}
