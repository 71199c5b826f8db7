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
	rep, err := run(Config{N: 50, Warmup: 10, Blocks: 10, Preload: 20, Runs: 2, Origins: 300, Checks: 100,
		HookOrigins: 100, HookRuns: 20, HookCallers: 4, HookFor: 300 * time.Millisecond, Progress: t.Output(),
		// Beside other work (.ci/run under four busy processes, load 55 on
		// two cores) a 10 MB result took more than the program's 30 s; a
		// hang still ends the run.
		Stall: 10 * time.Minute})
	require.NoError(t, err)
	t.Logf("took %v", time.Since(start))

	l := rep.Latency
	for name, p := range map[string]Percentiles{"direct": l.Direct, "shim": l.Shim, "shim without flowd": l.Relay, "shim, instant verdicts": l.Instant, "shim, external destination": l.External} {
		assert.Positive(t, p.P50, name)
		assert.LessOrEqual(t, p.P50, p.P90, name)
		assert.LessOrEqual(t, p.P90, p.P99, name)
	}
	assert.Equal(t, l.Shim.P50-l.Direct.P50, l.Added.P50)
	assert.Equal(t, l.Relay.P50-l.Direct.P50, l.RelayAdded.P50)
	assert.Equal(t, l.Instant.P50-l.Direct.P50, l.InstantAdded.P50)
	assert.Equal(t, l.External.P50-l.Direct.P50, l.ExternalAdded.P50)
	assert.Greater(t, l.RequestBytes, messageBytes)

	assert.Equal(t, Preloaded{Results: 20, Bytes: rep.Latency.Preloaded.Bytes}, rep.Latency.Preloaded)
	assert.Greater(t, rep.Latency.Preloaded.Bytes, int64(20*2000))

	require.Len(t, rep.Throughput, 2)
	assert.Equal(t, serverRaw, rep.Throughput[0].Server, "the judged figure comes first")
	assert.Equal(t, serverMCPGo, rep.Throughput[1].Server)
	for _, th := range rep.Throughput {
		assert.Positive(t, th.Direct.Min, th.Server)
		assert.Positive(t, th.Shim.Min, th.Server)
		assert.Positive(t, th.ShimSettled.Min, th.Server)
		assert.Positive(t, th.NextCallMs, th.Server)
		assert.Greater(t, th.ResponseBytes, resultBytes, th.Server)
	}

	e := rep.Engine
	assert.Equal(t, 300, e.Origins)
	assert.Greater(t, e.OriginBytes, int64(300*2000))
	assert.Positive(t, e.RecordMBps)
	assert.Positive(t, e.HeapBytes)
	assert.Equal(t, e.HeapBytes*10000/300, e.HeapPer10k)
	assert.Positive(t, e.Check.P50)
	assert.LessOrEqual(t, e.Check.P50, e.Check.P99)
	assert.InDelta(t, argsBytes, e.ArgsBytes, 400)
	pl := e.Planted
	assert.Equal(t, 100, pl.Fresh+pl.Copies+pl.Secrets)
	assert.Positive(t, pl.CopiesFound, "the engine must find copied pieces, or the check times measure nothing")
	assert.Positive(t, pl.SecretsFound)

	h := rep.Hook
	assert.Equal(t, 100, h.Origins)
	assert.Positive(t, h.Latency.P50)
	assert.LessOrEqual(t, h.Latency.P50, h.Latency.P95)
	assert.Positive(t, h.Start.P50)
	total := 0
	for _, n := range h.Decisions {
		total += n
	}
	assert.Equal(t, 20, total)
	assert.Equal(t, 20, h.Planted.Fresh+h.Planted.Carrying)
	// The engine traces about 99% of copied pieces to their origin and has
	// flagged no fresh text in thousands of probes: far less means the
	// hook runs were not judged against the session.
	assert.LessOrEqual(t, h.Planted.FreshFlagged, h.Planted.Fresh/10, "fresh text flagged: %+v", h.Decisions)
	assert.GreaterOrEqual(t, 2*h.Planted.CarryFlagged, h.Planted.Carrying, "origin data allowed: %+v", h.Decisions)
	assert.Equal(t, 4, h.Load.Callers)
	assert.Positive(t, h.Load.Evals)
	assert.Zero(t, h.Load.Errors, h.Load.FirstError)
	assert.Positive(t, h.BinaryBytes)

	assert.Positive(t, rep.Binaries.ShimBytes)
	if runtime.GOOS == "linux" {
		require.NotNil(t, rep.Binaries.Stripped, "the built shim is ELF on Linux")
		assert.True(t, *rep.Binaries.Stripped)
		assert.Len(t, rep.Memory, 7)
		for _, m := range rep.Memory {
			assert.Positive(t, m.RSS, m.Process+" "+m.When)
			assert.GreaterOrEqual(t, m.HWM, m.RSS, m.Process+" "+m.When)
		}
		assert.Len(t, rep.Targets, 14)
		// flowd judges every timed call of both shims that ask it.
		assert.Positive(t, l.FlowdCPU, "flowd's CPU per internal call")
		assert.Positive(t, l.FlowdExternalCPU, "flowd's CPU per external call")
		assert.Positive(t, l.FlowdRuns, "flowd's threads are put on a CPU for every internal call")
		assert.Positive(t, l.FlowdExternalRuns)
	} else {
		t.Logf("strip and memory checks need Linux (ELF, /proc); this is %s", runtime.GOOS)
	}

	var out bytes.Buffer
	require.NoError(t, printTable(&out, rep))
	for _, want := range []string{"added p50:", "raw JSON-RPC server", "mcp-go test server", "flow engine in process", "hook evaluate"} {
		assert.Contains(t, out.String(), want)
	}
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
		{"one", us(7), Percentiles{7, 7, 7, 7}},
		{"hundred", us(hundred...), Percentiles{50, 90, 95, 99}},
		{"outlier only at p99", us(1, 1, 1, 1, 1, 1, 1, 1, 1, 1000), Percentiles{1, 1, 1000, 1000}},
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
	r.Latency.Added = Percentiles{P50: 150, P99: 1001}
	r.Latency.ExternalAdded = Percentiles{P50: 201}
	r.Throughput = []Throughput{{Server: serverRaw, Shim: Spread{Median: 199}}, {Server: serverMCPGo, Shim: Spread{Median: 500}}}
	r.Binaries.ShimBytes = 6_000_000
	r.Memory = []Memory{
		{Process: "flowd", When: whenIdle, RSS: 31_000_000},
		{Process: "shim", When: whenLatency, RSS: 15_000_000},
		{Process: "shim", When: whenThroughput, RSS: 99_000_000}, // information only
	}
	r.Engine = Engine{Check: Percentiles{P99: 999}, RecordMBps: 99, HeapPer10k: 20_000_001}
	r.Hook.Latency.P95 = 5000
	r.Hook.Load = HookLoad{PerSecond: 500, Errors: 1}
	met := map[string]bool{}
	for _, tg := range targets(r) {
		met[tg.Name] = tg.Met
	}
	assert.Equal(t, map[string]bool{
		"added latency p50":                                       false,
		"added latency p50, flow engine on":                       true,
		"added latency p50, flow engine on, external destination": false,
		"added latency p99":                                       false,
		"shim throughput":                                         false, // the raw server's figure, not mcp-go's
		"shim binary size":                                        true,
		"shim RSS after latency run":                              true,
		"flowd RSS idle":                                          false,
		"flow check p99":                                          true,
		"flow record rate":                                        false,
		"flow memory per 10,000 origins":                          false,
		"hook evaluate p95":                                       true,
		"hook evaluations under load":                             true,
		"hook errors under load":                                  false,
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

// With -gc the shims' stderr carries the runtime's GC trace: its lines
// are counted, however the pipe splits them, and not taken for trouble.
func TestTailBufferCountsGCTrace(t *testing.T) {
	var b tailBuffer
	for _, part := range []string{
		"gc 1 @0.004s 2%: 0.010+0.52+0.003 ms clock, 0.010+0/0.1/0+0.003 ms cpu, 3->3->1 MB, 4 MB goal, 0 MB stacks, 0 MB globals, 1 P\n",
		"shim: flowd at /tmp/s is not answering\ngc 2 @1.5s 1%: 0.02+1", ".9+0.01 ms clock, 0.02+0/0.3/0+0.01 ms cpu, 4->4->2 MB, 5 MB goal, 0 MB stacks, 0 MB globals, 1 P\n",
		"gc is what this line says, not a trace\n",
	} {
		_, err := b.Write([]byte(part))
		require.NoError(t, err)
	}
	n, maxMs, live := b.collections()
	assert.Equal(t, 2, n)
	assert.InDelta(t, 1.93, maxMs, 1e-9)
	assert.InDelta(t, 2.0, live, 1e-9)
	assert.Equal(t, "shim: flowd at /tmp/s is not answering\ngc is what this line says, not a trace\n", b.String())
}

func TestHasXString(t *testing.T) {
	line := []byte(`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"xxxx"}]}}`)
	assert.True(t, hasXString(line, 4))
	assert.False(t, hasXString(line, 3))
	assert.False(t, hasXString(line, 5))
	assert.False(t, hasXString(line[:len(line)-10], 4))
}

// TestFaults kills and stops flowd under a steady stream of calls through
// real shims, in both fail modes: no call goes unanswered or gets another
// call's answer, fail_mode closed refuses what flowd could not judge, and
// the log says what the shims did meanwhile.
func TestFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs shim, flowd and testserver, and kills flowd; not in -short")
	}
	fs, err := runFaults("", 2)
	require.NoError(t, err)
	require.Len(t, fs, 2)
	for _, f := range fs {
		t.Logf("%+v", f)
		assert.Positive(t, f.Calls, f.FailMode)
		assert.Equal(t, f.Calls, f.Echoed+f.Refused, "%s: every call answered, by the server or with an error", f.FailMode)
		assert.Zero(t, f.Unanswered, f.FailMode)
		assert.Zero(t, f.Wrong, "%s: no duplicated or foreign answer", f.FailMode)
		assert.Positive(t, f.Unjudged, "%s: what the shims did while flowd was stopped is in the log", f.FailMode)
	}
	assert.Zero(t, fs[0].Refused, "fail_mode open passes what flowd cannot judge")
	assert.Positive(t, fs[1].Refused, "fail_mode closed refuses it")
	assert.Positive(t, fs[1].Echoed, "and serves again once flowd is back")
}
