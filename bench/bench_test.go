package main

import (
	"bytes"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunSmall runs the whole benchmark with tiny sizes so it keeps
// working as the shim and flowd change; the figures themselves are noise.
func TestRunSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs shim, flowd and testserver; not in -short")
	}
	start := time.Now()
	rep, err := run(Config{N: 50, Warmup: 10, Blocks: 10, Runs: 2, Progress: t.Output()})
	require.NoError(t, err)
	t.Logf("took %v", time.Since(start))

	l := rep.Latency
	for name, p := range map[string]Percentiles{"direct": l.Direct, "shim": l.Shim} {
		assert.Positive(t, p.P50, name)
		assert.LessOrEqual(t, p.P50, p.P90, name)
		assert.LessOrEqual(t, p.P90, p.P99, name)
	}
	assert.Equal(t, l.Shim.P50-l.Direct.P50, l.Added.P50)
	assert.Greater(t, l.RequestBytes, messageBytes)

	th := rep.Throughput
	assert.Positive(t, th.Direct.Min)
	assert.Positive(t, th.Shim.Min)
	assert.Greater(t, th.ResponseBytes, resultBytes)

	assert.Positive(t, rep.Binaries.ShimBytes)
	if runtime.GOOS == "linux" {
		require.NotNil(t, rep.Binaries.Stripped, "the built shim is ELF on Linux")
		assert.True(t, *rep.Binaries.Stripped)
		assert.Len(t, rep.Memory, 5)
		for _, m := range rep.Memory {
			assert.Positive(t, m.RSS, m.Process+" "+m.When)
			assert.GreaterOrEqual(t, m.HWM, m.RSS, m.Process+" "+m.When)
		}
		assert.Len(t, rep.Targets, 6)
	} else {
		t.Logf("strip and memory checks need Linux (ELF, /proc); this is %s", runtime.GOOS)
	}

	var out bytes.Buffer
	require.NoError(t, printTable(&out, rep))
	assert.Contains(t, out.String(), "added p50:")
}

func TestPercentilesNearestRank(t *testing.T) {
	us := func(v ...int) []time.Duration {
		d := make([]time.Duration, len(v))
		for i, x := range v {
			d[i] = time.Duration(x) * time.Microsecond
		}
		return d
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = 100 - i // reversed: percentiles must sort
	}
	tests := []struct {
		name   string
		sample []time.Duration
		want   Percentiles
	}{
		{"empty", nil, Percentiles{}},
		{"one", us(7), Percentiles{7, 7, 7}},
		{"hundred", us(hundred...), Percentiles{50, 90, 99}},
		{"outlier only at p99", us(1, 1, 1, 1, 1, 1, 1, 1, 1, 1000), Percentiles{1, 1, 1000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, percentiles(tt.sample))
		})
	}
}

func TestSpreadMedian(t *testing.T) {
	assert.Equal(t, Spread{Median: 2, Min: 1, Max: 9}, spread([]float64{9, 1, 2}))
	assert.Equal(t, Spread{Median: 2.5, Min: 1, Max: 9}, spread([]float64{9, 1, 2, 3}))
	assert.Equal(t, Spread{}, spread(nil))
}

func TestTargetsMarkMisses(t *testing.T) {
	var r Report
	r.Latency.Added = Percentiles{P50: 100, P99: 1001}
	r.Throughput.Shim.Median = 199
	r.Binaries.ShimBytes = 6_000_000
	r.Memory = []Memory{
		{Process: "flowd", When: whenIdle, RSS: 31_000_000},
		{Process: "shim", When: whenLatency, RSS: 15_000_000},
		{Process: "shim", When: whenThroughput, RSS: 99_000_000}, // information only
	}
	met := map[string]bool{}
	for _, tg := range targets(r) {
		met[tg.Name] = tg.Met
	}
	assert.Equal(t, map[string]bool{
		"added latency p50":          true,
		"added latency p99":          false,
		"shim throughput":            false,
		"shim binary size":           true,
		"shim RSS after latency run": true,
		"flowd RSS idle":             false,
	}, met)
}

func TestParseStatus(t *testing.T) {
	m, err := parseStatus([]byte("Name:\tshim\nVmHWM:\t    8704 kB\nVmRSS:\t    8448 kB\nThreads:\t6\n"))
	require.NoError(t, err)
	assert.Equal(t, int64(8448<<10), m.RSS)
	assert.Equal(t, int64(8704<<10), m.HWM)
	_, err = parseStatus([]byte("Name:\tzombie\n"))
	assert.Error(t, err)
}

func TestHasXString(t *testing.T) {
	line := []byte(`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"xxxx"}]}}`)
	assert.True(t, hasXString(line, 4))
	assert.False(t, hasXString(line, 3))
	assert.False(t, hasXString(line, 5))
	assert.False(t, hasXString(line[:len(line)-10], 4))
}
