package main

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/auditkey"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/cputime"
	"github.com/flowd-dev/flowd/internal/daemon"
	"github.com/flowd-dev/flowd/internal/flowdclient"
)

// benchRecords is the store size the figures are for.
const benchRecords = 100_000

// BenchmarkActivityStore100k is the performance figures measured
// end to end, as a user meets them: a real flowd (daemon.Run) on a
// 100,000-record bbolt store, asked over its Unix socket. first-page is
// GET /api/v1/activity as the dashboard's Activity page opens (target
// ≤ 200 ms), unfiltered and with a filter one record in a thousand
// matches; export is `flowd activity --export` (GET
// /api/v1/activity/export streamed to a file), whose target is ≥ 50,000
// records/s wall clock. records/cpu-s is the same over the process's CPU
// time (flowd and the CLI are both in it): on a shared machine wall time
// also measures the other tenants.
//
//	go test ./cmd/flowd -run '^$' -bench ActivityStore100k -benchtime 3x -count 3
func BenchmarkActivityStore100k(b *testing.B) {
	dataDir := b.TempDir()
	fillStore(b, dataDir)
	sockDir, err := os.MkdirTemp("", "fd")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { os.RemoveAll(sockDir) })
	socket := filepath.Join(sockDir, "flowd.sock")
	cfg := config.Default()
	cfg.Activity.MaxRecords = 2 * benchRecords
	ctx, cancel := context.WithCancel(context.Background())
	ready, errc := make(chan struct{}), make(chan error, 1)
	go func() {
		errc <- daemon.Run(ctx, daemon.Options{Config: cfg, Socket: socket, DataDir: dataDir,
			Log: slog.New(slog.NewTextHandler(io.Discard, nil))}, ready)
	}()
	select {
	case <-ready:
	case err := <-errc:
		b.Fatalf("flowd did not start: %v", err)
	}
	b.Cleanup(func() {
		cancel()
		if err := <-errc; err != nil {
			b.Error(err)
		}
	})
	c := flowdclient.NewClient(socket, time.Minute)

	for _, tc := range []struct {
		name string
		f    activity.Filter
	}{{"first-page", activity.Filter{}}, {"first-page/server=slack", activity.Filter{Server: "slack"}}} {
		b.Run(tc.name, func(b *testing.B) {
			cpu0 := cputime.Process()
			for b.Loop() {
				recs, err := c.Activity(tc.f)
				if err != nil || len(recs) != activity.DefaultLimit {
					b.Fatalf("%d records, %v: not a full first page", len(recs), err)
				}
			}
			b.ReportMetric(float64((cputime.Process()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}

	out := filepath.Join(b.TempDir(), "export")
	for _, tc := range []struct {
		name, format string
		flows        bool
	}{{"export/jsonl", activity.JSONL, false}, {"export/jsonl+flows", activity.JSONL, true}, {"export/csv+flows", activity.CSV, true}} {
		b.Run(tc.name, func(b *testing.B) {
			cpu0 := cputime.Process()
			for b.Loop() {
				w, err := os.Create(out)
				if err != nil {
					b.Fatal(err)
				}
				err = exportActivity(w, socket, filepath.Join(dataDir, "activity.db"), activity.Filter{}, tc.format, tc.flows,
					flag.NewFlagSet("bench", flag.ContinueOnError))
				if cerr := w.Close(); err == nil {
					err = cerr
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			if n := lines(b, out); n < benchRecords {
				b.Fatalf("%d lines exported: not the whole store", n)
			}
			b.ReportMetric(float64(benchRecords*b.N)/b.Elapsed().Seconds(), "records/s")
			b.ReportMetric(float64(benchRecords*b.N)/(cputime.Process()-cpu0).Seconds(), "records/cpu-s")
		})
	}
}

// fillStore writes benchRecords records to the store flowd will open in
// dataDir, chained and checkpointed with its audit key as flowd writes
// them. One in a thousand is a denied call to slack (what the filtered
// page looks for), one in a hundred carries an injection finding.
func fillStore(b *testing.B, dataDir string) {
	key, err := auditkey.LoadOrCreate(dataDir)
	if err != nil {
		b.Fatal(err)
	}
	s, err := activity.Open(filepath.Join(dataDir, "activity.db"), activity.Options{Key: key, MaxRecords: 2 * benchRecords})
	if err != nil {
		b.Fatal(err)
	}
	plain := json.RawMessage(`{"classification":{"class":"internal"},"flow":{"risk":"none","origins":[{"server":"fs","tool":"read","kind":"exact"}]}}`)
	finding := json.RawMessage(`{"injection":{"server":"web","score":0.9,"action":"block","detections":[{"rule":"instruction-override",` +
		`"tier":"lexical","severity":0.85,"field":"content[0].text","excerpt":"Ignore all previous instructions"}]}}`)
	for i := range benchRecords {
		r := activity.Record{Type: activity.TypeToolCall, Session: "s1", Server: "fs", Tool: "read_text_file", Method: "tools/call",
			Decision: "allow", Verdict: "pass", RiskLevel: "none", Reason: "reads a file", ArgsBytes: 40, ResultBytes: 1800,
			LatencyMicros: 900, Details: plain}
		switch {
		case i%1000 == 0:
			r.Server, r.Tool, r.Decision, r.Verdict, r.RiskLevel, r.FlowType = "slack", "post_message", "deny", "block", "critical", "internal→external"
		case i%100 == 0:
			r.Server, r.Verdict, r.RiskLevel, r.Details = "web", "block", "critical", finding
		}
		s.Append(r)
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
}

func lines(b *testing.B, path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for _, c := range data {
		if c == '\n' {
			n++
		}
	}
	return n
}
