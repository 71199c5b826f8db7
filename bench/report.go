package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Report is everything one run measured.
type Report struct {
	Machine    Machine    `json:"machine"`
	Binaries   BinaryInfo `json:"binaries"`
	Latency    Latency    `json:"latency"`
	Throughput Throughput `json:"throughput"`
	Memory     []Memory   `json:"memory"` // empty where there is no /proc
	Targets    []Target   `json:"targets"`
}

// Machine says where the figures come from; they mean little elsewhere.
type Machine struct {
	OS      string `json:"os"`
	Arch    string `json:"arch"`
	CPUs    int    `json:"cpus"`
	CPU     string `json:"cpu,omitempty"`
	LoadAvg string `json:"loadavg,omitempty"` // at the start: a busy machine explains noise
	Go      string `json:"go"`
}

// BinaryInfo describes the binaries that were measured.
type BinaryInfo struct {
	Dir       string `json:"dir,omitempty"` // -bin; empty when the benchmark built them
	Built     bool   `json:"built"`         // with buildFlags
	ShimBytes int64  `json:"shim_bytes"`
	Stripped  *bool  `json:"shim_stripped,omitempty"` // nil when not an ELF binary
}

// Latency compares tools/call round trips direct and through the shim.
type Latency struct {
	N            int         `json:"n"` // timed round trips per side
	Warmup       int         `json:"warmup"`
	Blocks       int         `json:"blocks"`
	RequestBytes int         `json:"request_bytes"`
	Direct       Percentiles `json:"direct"`
	Shim         Percentiles `json:"shim"`
	Added        Percentiles `json:"added"` // shim − direct
	Ratio        Ratios      `json:"ratio"` // shim / direct
}

// Throughput compares the rate at which one large result arrives.
type Throughput struct {
	Runs          int    `json:"runs"`
	ResultBytes   int    `json:"result_bytes"` // the text the tool returned
	ResponseBytes int    `json:"response_bytes"`
	Direct        Spread `json:"direct_mb_per_s"`
	Shim          Spread `json:"shim_mb_per_s"`
	// AddedMs is the shim's median time per result minus the direct one:
	// the direct rate bounds the shim's, so this is the shim's own share.
	AddedMs float64 `json:"added_ms"`
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
)

const mb = 1e6

// targets judges a report against the goals the shim and flowd are built to.
func targets(r Report) []Target {
	le := func(name string, v, limit float64, unit string) Target {
		return Target{Name: name, Value: v, Op: "<=", Limit: limit, Unit: unit, Met: v <= limit}
	}
	t := []Target{
		le("added latency p50", r.Latency.Added.P50, 100, "µs"),
		le("added latency p99", r.Latency.Added.P99, 1000, "µs"),
		{Name: "shim throughput", Value: r.Throughput.Shim.Median, Op: ">=", Limit: 200, Unit: "MB/s",
			Met: r.Throughput.Shim.Median >= 200},
		le("shim binary size", float64(r.Binaries.ShimBytes)/mb, 6, "MB"),
	}
	for _, m := range r.Memory {
		switch {
		case m.Process == "shim" && m.When == whenLatency:
			t = append(t, le("shim RSS "+whenLatency, float64(m.RSS)/mb, 15, "MB"))
		case m.Process == "flowd" && m.When == whenIdle:
			t = append(t, le("flowd RSS idle", float64(m.RSS)/mb, 30, "MB"))
		}
	}
	return t
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
				return fmt.Sprintf("%s (target %s %g %s)", verdict, op, t.Limit, t.Unit)
			}
		}
		return ""
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	m := r.Machine
	fmt.Fprintf(tw, "flowd bench: %s/%s, %d CPUs, %s, %s", m.OS, m.Arch, m.CPUs, m.Go, m.CPU)
	if m.LoadAvg != "" {
		fmt.Fprintf(tw, ", load %s", m.LoadAvg)
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
	fmt.Fprintf(tw, "added p50: %s\n", mark("added latency p50"))
	fmt.Fprintf(tw, "added p99: %s\n", mark("added latency p99"))

	th := r.Throughput
	fmt.Fprintf(tw, "\n%d-byte tools/call result (%d-byte response line), median of %d runs per side\n",
		th.ResultBytes, th.ResponseBytes, th.Runs)
	fmt.Fprintln(tw, "\tmedian\tmin\tmax\t")
	fmt.Fprintf(tw, "direct\t%.0f MB/s\t%.0f MB/s\t%.0f MB/s\t\n", th.Direct.Median, th.Direct.Min, th.Direct.Max)
	fmt.Fprintf(tw, "shim\t%.0f MB/s\t%.0f MB/s\t%.0f MB/s\t%s\n", th.Shim.Median, th.Shim.Min, th.Shim.Max, mark("shim throughput"))
	fmt.Fprintf(tw, "added\t%.1f ms per result (median shim time − median direct time)\n", th.AddedMs)

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
