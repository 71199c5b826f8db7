package fingerprint

import (
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/cputime"
)

func results(n int) [][]byte {
	c := newCorpus(42)
	rs := make([][]byte, n)
	for i := range rs {
		rs[i] = c.result()
	}
	return rs
}

func fullIndex(tb testing.TB, rs [][]byte) *Index {
	x, err := NewIndex(Options{})
	require.NoError(tb, err)
	for i, r := range rs {
		x.Add(uint64(i), r)
	}
	return x
}

// args4K returns 4 KB tools/call params: fresh prose, or fresh prose with a
// 300-byte piece of one origin inside.
func args4K(c *corpus, origin []byte) []byte {
	body := c.prose(3700)
	if origin != nil {
		var env struct {
			Content []struct{ Text string } `json:"content"`
		}
		if err := json.Unmarshal(origin, &env); err != nil {
			panic(err)
		}
		t := env.Content[0].Text
		body = body[:1800] + t[len(t)/2:len(t)/2+300] + body[1800:]
	}
	return toolCall(map[string]any{"channel": "#general", "body": body})
}

func BenchmarkAdd(b *testing.B) {
	rs := results(2000)
	total := 0
	for _, r := range rs {
		total += len(r)
	}
	x, err := NewIndex(Options{})
	require.NoError(b, err)
	b.SetBytes(int64(total / len(rs)))
	b.ResetTimer()
	for i := range b.N {
		x.Add(uint64(i), rs[i%len(rs)])
	}
}

func BenchmarkMatch(b *testing.B) {
	rs := results(10_000)
	x := fullIndex(b, rs)
	c := newCorpus(7)
	for _, tc := range []struct {
		name string
		hit  bool
	}{{"miss", false}, {"hit", true}} {
		args := make([][]byte, 64)
		for i := range args {
			var origin []byte
			if tc.hit {
				origin = rs[i*97]
			}
			args[i] = args4K(c, origin)
		}
		b.Run(fmt.Sprintf("%s/4KB/10k-origins", tc.name), func(b *testing.B) {
			b.SetBytes(int64(len(args[0])))
			for i := range b.N {
				got := x.Match(args[i%len(args)])
				if tc.hit && len(got) == 0 {
					b.Fatal("no match for embedded origin text")
				}
			}
		})
	}
}

// TestBudgets measures the targets: memory per 10,000 realistic
// origins, Match p99 for 4 KB arguments and Add throughput.
func TestBudgets(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 10,000-origin index; skipped in -short mode")
	}
	if raceEnabled {
		t.Skip("time and memory budgets mean nothing under the race detector")
	}
	rs := results(10_000)
	total := 0
	for _, r := range rs {
		total += len(r)
	}
	clock, unlock := cputime.Lock()
	defer unlock()
	now, clockName := clock.Now, clock.Name()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := now()
	x := fullIndex(t, rs)
	addTime := now() - start
	runtime.GC()
	runtime.ReadMemStats(&after)
	heap := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("10,000 origins, %.1f MB of content: index heap %.2f MB (units %d entries/%d cells, windows %d/%d)",
		float64(total)/1e6, float64(heap)/1e6, x.units.n, x.units.capacity(), x.grams.n, x.grams.capacity())
	t.Logf("Add: %.0f MB/s (%s)", float64(total)/addTime.Seconds()/1e6, clockName)
	require.LessOrEqual(t, heap, int64(20<<20), "memory per 10,000 origins")

	c := newCorpus(9)
	args := make([][]byte, 2000)
	for i := range args {
		var origin []byte
		if i%2 == 0 {
			origin = rs[i*5]
		}
		args[i] = args4K(c, origin)
	}
	runtime.GC()
	lat := make([]time.Duration, len(args))
	for i, a := range args {
		start := now()
		x.Match(a)
		lat[i] = now() - start
	}
	slices.Sort(lat)
	t.Logf("Match, 4 KB arguments, 10,000 origins (%s): p50 %v, p99 %v, max %v",
		clockName, lat[len(lat)/2], lat[len(lat)*99/100], lat[len(lat)-1])
	runtime.KeepAlive(x)
}
