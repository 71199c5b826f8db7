package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Report is everything one run measured.
type Report struct {
	Machine    Machine      `json:"machine"`
	Binaries   BinaryInfo   `json:"binaries"`
	Latency    Latency      `json:"latency"`
	Throughput []Throughput `json:"throughput"` // the raw server first: it is the judged one
	Engine     Engine       `json:"flow_engine"`
	Hook       Hook         `json:"hook"`
	Memory     []Memory     `json:"memory"` // empty where there is no /proc
	Targets    []Target     `json:"targets"`
}

// Machine says where the figures come from; they mean little elsewhere.
type Machine struct {
	OS         string `json:"os"`
	Arch       string `json:"arch"`
	CPUs       int    `json:"cpus"`
	CPU        string `json:"cpu,omitempty"`
	LoadAvg    string `json:"loadavg,omitempty"` // at the start: a busy machine explains noise
	LoadAvgEnd string `json:"loadavg_end,omitempty"`
	Go         string `json:"go"`
}

// BinaryInfo describes the binaries that were measured.
type BinaryInfo struct {
	Dir       string `json:"dir,omitempty"` // -bin; empty when the benchmark built them
	Built     bool   `json:"built"`         // with buildFlags
	ShimBytes int64  `json:"shim_bytes"`
	Stripped  *bool  `json:"shim_stripped,omitempty"` // nil when not an ELF binary
	HookBytes int64  `json:"hook_bytes"`
}

// Latency compares tools/call round trips direct and through the shim,
// whose flowd checks each call against the session's origins.
type Latency struct {
	Preloaded    Preloaded   `json:"preloaded"`
	N            int         `json:"n"` // timed round trips per side
	Warmup       int         `json:"warmup"`
	Blocks       int         `json:"blocks"`
	RequestBytes int         `json:"request_bytes"`
	Direct       Percentiles `json:"direct"`
	Shim         Percentiles `json:"shim"`
	Added        Percentiles `json:"added"` // shim − direct
	Ratio        Ratios      `json:"ratio"` // shim / direct
	// Relay is the same shim with no flowd to ask: the cost of a process in
	// the path on this machine, which no verdict design can go under.
	Relay      Percentiles `json:"relay"`
	RelayAdded Percentiles `json:"relay_added"` // relay − direct
	// Instant is the same shim asking bench/verdictd, which passes every
	// message at once: what asking for two verdicts per round trip costs
	// before anything is judged.
	Instant      Percentiles `json:"instant"`
	InstantAdded Percentiles `json:"instant_added"` // instant − direct
	// External is the same server through a shim that names it as an
	// external destination (slack), so its calls wait for the flow check;
	// Shim's server is an internal destination, whose check runs after the
	// verdict.
	External      Percentiles `json:"external"`
	ExternalAdded Percentiles `json:"external_added"` // external − direct
	// The CPU time of the internal (Shim) and external shim processes per
	// timed round trip, all threads (Linux; 0 elsewhere), and their GC
	// cycles during the timed calls (counted with bench -gc, else 0):
	// the internal shim checks each granted call's arguments itself.
	ShimCPU     float64 `json:"shim_cpu_us_per_call"`
	ExternalCPU float64 `json:"external_cpu_us_per_call"`
	// flowd's CPU time per timed round trip of the internal and the
	// external shim (Linux; 0 elsewhere): its judging of both messages,
	// and whatever of its work after a verdict fell in the same block.
	FlowdCPU         float64 `json:"flowd_cpu_us_per_call"`
	FlowdExternalCPU float64 `json:"flowd_external_cpu_us_per_call"`
	// How often a thread of flowd was put on a CPU per timed round trip
	// of each (Linux; 0 elsewhere): a wake-up costs tens of µs on a VM,
	// and a thread woken for work its own could have run is one a
	// verdict may wait for. Counted, it does not depend on the load as
	// the CPU time does.
	FlowdRuns         float64 `json:"flowd_runs_per_call"`
	FlowdExternalRuns float64 `json:"flowd_external_runs_per_call"`
	ShimGC            GC      `json:"shim_gc"`
	ExternalGC        GC      `json:"external_gc"`
}

// GC is what a shim's GC trace said (bench -gc).
type GC struct {
	Cycles     int     `json:"cycles"`      // during the timed calls
	SinceStart int     `json:"since_start"` // preload and warm-up included
	MaxMs      float64 `json:"max_ms"`      // the longest cycle's wall time, all three phases
	LiveMB     float64 `json:"live_mb"`     // the live heap after the last cycle
	// Met are the round trips of the MetCalls timed calls that a cycle
	// ended during or just after (its trace line came while they or
	// the next call ran), Others the rest's: what a collection costs
	// the call it falls on, on this machine.
	MetCalls int          `json:"met_calls"`
	Met      *Percentiles `json:"met,omitempty"`
	Others   *Percentiles `json:"others,omitempty"`
}

// Preloaded is what was recorded in the shim's session before the latency
// run; each timed echo result adds one more origin.
type Preloaded struct {
	Results int   `json:"results"`
	Bytes   int64 `json:"bytes"`
}

// Throughput compares the rate at which one large result arrives.
type Throughput struct {
	Server        string `json:"server"` // serverRaw or serverMCPGo
	Runs          int    `json:"runs"`
	ResultBytes   int    `json:"result_bytes"` // the text the tool returned
	ResponseBytes int    `json:"response_bytes"`
	Direct        Spread `json:"direct_mb_per_s"`
	Shim          Spread `json:"shim_mb_per_s"`
	// AddedMs is the shim's median time per result minus the direct one:
	// the direct rate bounds the shim's, so this is the shim's own share.
	AddedMs float64 `json:"added_ms"`
	// ShimSettled is the shim's rate when flowd has finished recording the
	// previous result: the relay's own. Shim includes waiting for that
	// recording, as a client calling again at once does.
	ShimSettled Spread `json:"shim_settled_mb_per_s"`
	// NextCallMs is the median round trip of a 1-byte tools/call through
	// the shim right after a 10 MB result: mostly the wait for flowd to
	// record that result as an origin.
	NextCallMs float64 `json:"next_call_ms"`
}

// Target is one figure judged against its goal.
type Target struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Op    string  `json:"op"` // "<=" or ">="
	Limit float64 `json:"limit"`
	Unit  string  `json:"unit"`
	Met   bool    `json:"met"`
}

// What the memory readings are called, in the report and in targets.
const (
	whenIdle       = "idle"
	whenLatency    = "after latency run"
	whenThroughput = "after 10 MB runs"
	whenHook       = "after hook runs"
)

const mb = 1e6

// targets judges a report against the goals the shim, flowd and the hook
// are built to.
func targets(r Report) []Target {
	le := func(name string, v, limit float64, unit string) Target {
		return Target{Name: name, Value: v, Op: "<=", Limit: limit, Unit: unit, Met: v <= limit}
	}
	ge := func(name string, v, limit float64, unit string) Target {
		return Target{Name: name, Value: v, Op: ">=", Limit: limit, Unit: unit, Met: v >= limit}
	}
	t := []Target{
		le("added latency p50", r.Latency.Added.P50, 100, "µs"),
		le("added latency p50, flow engine on", r.Latency.Added.P50, 200, "µs"),
		// The engine's check waits in front of the verdict only for an
		// external destination: the target holds for both.
		le("added latency p50, flow engine on, external destination", r.Latency.ExternalAdded.P50, 200, "µs"),
		le("added latency p99", r.Latency.Added.P99, 1000, "µs"),
	}
	for _, th := range r.Throughput {
		if th.Server == serverRaw {
			t = append(t, ge("shim throughput", th.Shim.Median, 200, "MB/s"))
		}
	}
	t = append(t, le("shim binary size", float64(r.Binaries.ShimBytes)/mb, 6, "MB"))
	for _, m := range r.Memory {
		switch {
		case m.Process == "shim" && m.When == whenLatency:
			t = append(t, le("shim RSS "+whenLatency, float64(m.RSS)/mb, 15, "MB"))
		case m.Process == "flowd" && m.When == whenIdle:
			t = append(t, le("flowd RSS idle", float64(m.RSS)/mb, 30, "MB"))
		}
	}
	e, h := r.Engine, r.Hook
	return append(t,
		le("flow check p99", e.Check.P99, 1000, "µs"),
		ge("flow record rate", e.RecordMBps, 100, "MB/s"),
		le("flow memory per 10,000 origins", float64(e.HeapPer10k)/mb, 20, "MB"),
		le("hook evaluate p95", h.Latency.P95/1000, 5, "ms"),
		ge("hook evaluations under load", h.Load.PerSecond, 500, "/s"),
		le("hook errors under load", float64(h.Load.Errors), 0, ""),
	)
}

// printTable writes the report for a person.
func printTable(w io.Writer, r Report) error {
	mark := func(name string) string {
		for _, t := range r.Targets {
			if t.Name == name {
				verdict := "ok"
				if !t.Met {
					verdict = "MISS"
				}
				op := map[string]string{"<=": "≤", ">=": "≥"}[t.Op]
				return strings.TrimSpace(fmt.Sprintf("%s (target %s %g %s", verdict, op, t.Limit, t.Unit)) + ")"
			}
		}
		return ""
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	m := r.Machine
	fmt.Fprintf(tw, "flowd bench: %s/%s, %d CPUs, %s, %s", m.OS, m.Arch, m.CPUs, m.Go, m.CPU)
	if m.LoadAvg != "" {
		fmt.Fprintf(tw, ", load %s at the start, %s at the end", m.LoadAvg, m.LoadAvgEnd)
	}
	fmt.Fprintln(tw, "\nunits: 1 MB = 1,000,000 bytes; µs = microseconds")

	l := r.Latency
	fmt.Fprintf(tw, "\ntools/call round trip, %d-byte echo request: %d per side after %d warm-up, %d interleaved blocks\n",
		l.RequestBytes, l.N, l.Warmup, l.Blocks)
	fmt.Fprintln(tw, "\tp50\tp90\tp99\t")
	fmt.Fprintf(tw, "direct\t%.1f µs\t%.1f µs\t%.1f µs\t\n", l.Direct.P50, l.Direct.P90, l.Direct.P99)
	fmt.Fprintf(tw, "shim\t%.1f µs\t%.1f µs\t%.1f µs\t\n", l.Shim.P50, l.Shim.P90, l.Shim.P99)
	fmt.Fprintf(tw, "added\t%.1f µs\t%.1f µs\t%.1f µs\t\n", l.Added.P50, l.Added.P90, l.Added.P99)
	fmt.Fprintf(tw, "ratio\t%.2fx\t%.2fx\t%.2fx\t\n", l.Ratio.P50, l.Ratio.P90, l.Ratio.P99)
	fmt.Fprintf(tw, "shim, no flowd\t%.1f µs\t%.1f µs\t%.1f µs\t(the relay alone, fail-open: the floor of any shim)\n", l.Relay.P50, l.Relay.P90, l.Relay.P99)
	fmt.Fprintf(tw, "  added\t%.1f µs\t%.1f µs\t%.1f µs\t\n", l.RelayAdded.P50, l.RelayAdded.P90, l.RelayAdded.P99)
	fmt.Fprintf(tw, "shim, instant verdicts\t%.1f µs\t%.1f µs\t%.1f µs\t(bench/verdictd passes each message at once: the floor of asking)\n", l.Instant.P50, l.Instant.P90, l.Instant.P99)
	fmt.Fprintf(tw, "  added\t%.1f µs\t%.1f µs\t%.1f µs\t\n", l.InstantAdded.P50, l.InstantAdded.P90, l.InstantAdded.P99)
	fmt.Fprintf(tw, "shim, external destination\t%.1f µs\t%.1f µs\t%.1f µs\t(named slack: the flow check before the verdict; each call copies internal data out, warned)\n", l.External.P50, l.External.P90, l.External.P99)
	fmt.Fprintf(tw, "  added\t%.1f µs\t%.1f µs\t%.1f µs\t\n", l.ExternalAdded.P50, l.ExternalAdded.P90, l.ExternalAdded.P99)
	fmt.Fprintf(tw, "added p50: %s; with the flow engine on: %s, to an external destination: %s\n",
		mark("added latency p50"), mark("added latency p50, flow engine on"), mark("added latency p50, flow engine on, external destination"))
	fmt.Fprintf(tw, "added p99: %s\n", mark("added latency p99"))
	fmt.Fprintf(tw, "shim CPU per call: %.1f µs internal, %.1f µs external; flowd's: %.1f µs, %.1f µs (its threads put on a CPU %.1f, %.1f times a call)",
		l.ShimCPU, l.ExternalCPU, l.FlowdCPU, l.FlowdExternalCPU, l.FlowdRuns, l.FlowdExternalRuns)
	if l.ShimGC.SinceStart+l.ExternalGC.SinceStart > 0 {
		fmt.Fprintf(tw, "; GC cycles during the timed calls: %d internal, %d external (longest %.2f and %.2f ms)",
			l.ShimGC.Cycles, l.ExternalGC.Cycles, l.ShimGC.MaxMs, l.ExternalGC.MaxMs)
	}
	fmt.Fprintln(tw)

	for _, th := range r.Throughput {
		what := "raw JSON-RPC server (bench/rawserver, precomputed lines): the relay's own rate"
		if th.Server == serverMCPGo {
			what = "mcp-go test server: bounded by the SDK encoding each result"
		}
		fmt.Fprintf(tw, "\n%d-byte tools/call result (%d-byte response line), median of %d runs per side\n%s\n",
			th.ResultBytes, th.ResponseBytes, th.Runs, what)
		judged := ""
		if th.Server == serverRaw {
			judged = mark("shim throughput")
		}
		fmt.Fprintln(tw, "\tmedian\tmin\tmax\t")
		fmt.Fprintf(tw, "direct\t%.0f MB/s\t%.0f MB/s\t%.0f MB/s\t\n", th.Direct.Median, th.Direct.Min, th.Direct.Max)
		fmt.Fprintf(tw, "shim\t%.0f MB/s\t%.0f MB/s\t%.0f MB/s\t%s\n", th.Shim.Median, th.Shim.Min, th.Shim.Max, judged)
		fmt.Fprintf(tw, "shim, flowd settled\t%.0f MB/s\t%.0f MB/s\t%.0f MB/s\t(flowd done recording the previous result)\n",
			th.ShimSettled.Median, th.ShimSettled.Min, th.ShimSettled.Max)
		fmt.Fprintf(tw, "added\t%.1f ms per result (median shim time − median direct time)\n", th.AddedMs)
		fmt.Fprintf(tw, "next call\t%.1f ms for a 1-byte call right after a result (flowd recording it)\n", th.NextCallMs)
	}

	e := r.Engine
	fmt.Fprintf(tw, "\nflow engine in process: %d origins (%.1f MB of tool results), %d checks of %d-byte arguments\n",
		e.Origins, float64(e.OriginBytes)/mb, e.Checks, e.ArgsBytes)
	fmt.Fprintf(tw, "check\tp50 %.1f µs\tp90 %.1f µs\tp99 %.1f µs\t%s\n", e.Check.P50, e.Check.P90, e.Check.P99, mark("flow check p99"))
	fmt.Fprintf(tw, "record\t%.0f MB/s\t\t\t%s\n", e.RecordMBps, mark("flow record rate"))
	fmt.Fprintf(tw, "memory\t%.1f MB per 10,000 origins\t\t\t%s\n", float64(e.HeapPer10k)/mb, mark("flow memory per 10,000 origins"))
	pl := e.Planted
	fmt.Fprintf(tw, "found\t%d/%d copied pieces, %d/%d secrets; %d/%d fresh arguments matched something\n",
		pl.CopiesFound, pl.Copies, pl.SecretsFound, pl.Secrets, pl.FreshMatched, pl.Fresh)
	fmt.Fprintf(tw, "flowd's shim session held %d results (%.1f MB) before the latency run\n",
		r.Latency.Preloaded.Results, float64(r.Latency.Preloaded.Bytes)/mb)

	h := r.Hook
	fmt.Fprintf(tw, "\nhook evaluate --event PreToolUse (WebFetch), session of %d Read results (loaded in %.1f s), %.2f MB static binary\n",
		h.Origins, h.LoadSeconds, float64(h.BinaryBytes)/mb)
	fmt.Fprintf(tw, "one at a time\tp50 %.2f ms\tp95 %.2f ms\tp99 %.2f ms\t%s\n",
		h.Latency.P50/1000, h.Latency.P95/1000, h.Latency.P99/1000, mark("hook evaluate p95"))
	fmt.Fprintf(tw, "hook version\tp50 %.2f ms\tp95 %.2f ms\tp99 %.2f ms\t(process start and exit alone, interleaved)\n",
		h.Start.P50/1000, h.Start.P95/1000, h.Start.P99/1000)
	fmt.Fprintf(tw, "decisions\t%s\t(%d/%d carrying origin data flagged, %d/%d fresh flagged)\n", decisions(h.Decisions),
		h.Planted.CarryFlagged, h.Planted.Carrying, h.Planted.FreshFlagged, h.Planted.Fresh)
	fmt.Fprintf(tw, "%d callers\t%.0f evaluations/s\t%d in %.1f s\t%s\n", h.Load.Callers, h.Load.PerSecond, h.Load.Evals,
		h.Load.Seconds, mark("hook evaluations under load"))
	fmt.Fprintf(tw, "errors\t%d\t%s\n", h.Load.Errors, mark("hook errors under load"))
	if h.Load.FirstError != "" {
		fmt.Fprintf(tw, "first error: %s\n", h.Load.FirstError)
	}

	b := r.Binaries
	how := "built with go build " + strings.Join(buildFlags, " ")
	if !b.Built {
		how = "prebuilt in " + b.Dir
	}
	if b.Stripped != nil && !*b.Stripped {
		how += ", NOT stripped"
	}
	fmt.Fprintf(tw, "\nshim binary\t%.2f MB\t%s\t(%s)\n", float64(b.ShimBytes)/mb, mark("shim binary size"), how)

	if len(r.Memory) == 0 {
		fmt.Fprintf(tw, "\nmemory: not measured (%v)\n", errNoProc)
	} else {
		fmt.Fprintln(tw, "\nmemory\tVmRSS\tVmHWM\t")
		for _, mem := range r.Memory {
			name := mem.Process + " RSS " + mem.When
			fmt.Fprintf(tw, "%s %s\t%.1f MB\t%.1f MB\t%s\n", mem.Process, mem.When,
				float64(mem.RSS)/mb, float64(mem.HWM)/mb, mark(name))
		}
	}
	missed := 0
	for _, t := range r.Targets {
		if !t.Met {
			missed++
		}
	}
	fmt.Fprintf(tw, "\ntargets: %d met, %d missed\n", len(r.Targets)-missed, missed)
	return tw.Flush()
}

// decisions lists counts by decision in a fixed order.
func decisions(m map[string]int) string {
	var parts []string
	for _, d := range []string{"allow", "warn", "ask", "deny"} {
		if m[d] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", m[d], d))
		}
	}
	return strings.Join(parts, ", ")
}
