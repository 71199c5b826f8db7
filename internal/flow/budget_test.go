package flow

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/classify"
)

func record(s *Session, server, text string) {
	s.Begin()
	s.Record(Origin{Server: server, Tool: "read", Class: classify.Internal}, []byte(fmt.Sprintf(`{"content":[{"type":"text","text":%q}]}`, text)))
	s.Wait()
}

// A session holds memory in proportion to what it recorded: 2,000 short
// sessions without secrets cost kilobytes each, not a 128 KiB secret
// index each (290 MB before).
func TestShortSessionsAreSmall(t *testing.T) {
	tr := NewTracker(Options{}, detector(t))
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range 2000 {
		record(tr.Session(fmt.Sprintf("s%d", i)), "fs", fmt.Sprintf("file %d: the quick brown fox jumps over the lazy dog", i))
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	grown := int64(after.HeapInuse) - int64(before.HeapInuse)
	t.Logf("2,000 sessions: heap %+.1f MB, accounted %.1f MB", float64(grown)/(1<<20), float64(tr.Bytes())/(1<<20))
	assert.Less(t, grown, int64(40<<20))
	assert.Less(t, tr.Bytes(), 2000*8<<10)
}

// Past MaxBytes the least recently active session's results are
// forgotten, said so, and its calls out are rated as carrying internal
// data; the active session keeps what it knows.
func TestMemoryBudgetForgetsLeastRecentSession(t *testing.T) {
	var mu sync.Mutex
	var forgot []string
	tr := NewTracker(Options{MaxBytes: 2 << 20, OnForget: func(s string, freed int) {
		mu.Lock()
		forgot = append(forgot, s)
		mu.Unlock()
		assert.Positive(t, freed)
	}}, nil)
	old, busy := tr.Session("old"), tr.Session("busy")
	secretText := "the design document for project nightingale says the launch moves to march"
	record(old, "fs", secretText)
	// About 0.7 MB of origins (tables grow by doubling: 1.3 MB holds
	// about 1,000 such results, 2.6 MB 2,000), so that forgetting them is
	// enough when the busy session passes the budget.
	for i := range 500 {
		record(old, "fs", prose(1000, int64(-1-i)))
	}
	ext := classify.Result{Class: classify.External}
	a := old.Check("slack", "post", ext, []byte(`{"text":"`+secretText+`"}`), nil, nil)
	require.Equal(t, "internal→external", a.FlowType)
	assert.False(t, a.Forgotten)

	// Results of the busy session until the budget is passed; the last
	// is what it copies from next.
	var last string
	for i := 0; len(forgot) == 0 && i < 5000; i++ {
		last = prose(1000, int64(i))
		record(busy, "fs", last)
	}
	mu.Lock()
	assert.Equal(t, []string{"old"}, forgot)
	mu.Unlock()
	assert.LessOrEqual(t, tr.Bytes(), 2<<20)

	// Whatever the forgotten session sends out is judged as internal data.
	a = old.Check("slack", "post", ext, []byte(`{"text":"hello there, nothing from a tool"}`), nil, nil)
	assert.True(t, a.Forgotten)
	assert.Equal(t, "internal→external", a.FlowType)
	assert.Equal(t, RiskHigh, a.Risk)
	assert.Contains(t, a.Sources, ForgottenSource)
	assert.True(t, old.Summary(old.started).Forgotten)

	// The busy session still knows its latest result.
	b := busy.Check("slack", "post", ext, []byte(`{"text":"fyi `+last[100:400]+`"}`), nil, nil)
	assert.False(t, b.Forgotten)
	require.NotEmpty(t, b.Edges)
	assert.Equal(t, "substring", b.Edges[0].Kind)
}

// prose is n bytes of made-up words, different for each seed.
func prose(n int, seed int64) string {
	r := rand.New(rand.NewPCG(uint64(seed), 7))
	var sb strings.Builder
	for sb.Len() < n {
		for range 3 + r.IntN(6) {
			sb.WriteByte(byte('a' + r.IntN(26)))
		}
		sb.WriteByte(' ')
	}
	return sb.String()[:n]
}
