package upstream

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/judge/judgetest"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

// proseOf is n bytes of text made of the same words as the session's
// earlier results, so that every window of it is found in the index: the
// most work a large message can ask of the flow check. The "+" makes the
// arguments' URL-decoded view differ from them, one more copy to check.
func proseOf(n int) string {
	words := strings.Fields("the quick brown fox jumps over a lazy dog while seven wizards quietly judge boxing matches near the old harbour alpha+beta")
	var sb strings.Builder
	sb.Grow(n + 16)
	for i := 0; sb.Len() < n; i++ {
		sb.WriteString(words[(i*7+i/13)%len(words)])
		sb.WriteByte(' ')
	}
	return sb.String()[:n]
}

// TestLargeMessagesTakeMemoryInProportion holds flowd's work on one large
// message, from the frame read to the verdict and what is recorded after
// it, to at most three times the message: bytes allocated
// bound the heap's growth whatever the collector does meanwhile. Both
// directions, to a destination that can send data out: its calls get the
// whole flow check before the verdict, and its results are recorded as
// origins.
func TestLargeMessagesTakeMemoryInProportion(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector changes allocation (sync.Pool drops scratch at random) and is ten times slower; run without -race")
	}
	cfg := config.Default()
	cfg.Shim.MaxInspectBytes = 64 << 20 // judged whole, not cut
	d := newEnv(t, nil)
	require.NoError(t, d.Reload(cfg))
	sizes := []int{10 << 20, 50 << 20}
	if testing.Short() {
		sizes = sizes[:1]
		t.Log("-short: 50 MB messages left out")
	}
	{
		server := "slack"
		u := NewStream(1, shimproto.Hello{Name: server}, "s")
		// A secret among them: the arguments are searched for it too.
		judgetest.CallAndAnswer(d.judge, u, 100, "echo", `{"message":"x"}`, "the deploy key is ghp_16C7e42F292c6912E7710c838347Ae178B4a")
		for i := range 50 {
			judgetest.CallAndAnswer(d.judge, u, i+1, "echo", `{"message":"x"}`, fmt.Sprintf("result %d: %s", i, proseOf(2000)))
		}
		for _, n := range sizes {
			text, err := json.Marshal(proseOf(n))
			require.NoError(t, err)
			req := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":9001,"method":"tools/call","params":{"name":"send","arguments":{"message":%s}}}`+"\n", text))
			resp := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":9001,"result":{"content":[{"type":"text","text":%s}]}}`+"\n", text))
			text = nil
			for _, m := range []shimproto.Message{{Seq: 1, Dir: c2s, Data: req}, {Seq: 2, Dir: s2c, Data: resp}} {
				runtime.GC()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				judgeMsg(d, u, m)
				runtime.ReadMemStats(&after)
				alloc := after.TotalAlloc - before.TotalAlloc
				t.Logf("%s, %d MB, %v: %.1f MB allocated, %.2f× the message", server, n>>20, m.Dir,
					float64(alloc)/(1<<20), float64(alloc)/float64(len(m.Data)))
				// A call's views made from a large text (squeezed, decoded)
				// are read a chunk at a time, and encoded runs are tried in
				// one scratch buffer: a prose call costs its decoded view
				// and its normalised text, each about its size. No
				// allowance on top: what does not grow with the message
				// (rule sets' scratch, the detector's 512 KiB piece, the
				// canonical form of a view's first 256 KiB) is a few
				// megabytes, and hiding it under the bound would hide a
				// sixth of it at 10 MB.
				limit := 3 * len(m.Data)
				assert.LessOrEqual(t, alloc, uint64(limit), "%s %v %d MB", server, m.Dir, n>>20)
			}
		}
	}
}
