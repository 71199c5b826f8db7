package daemon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/cputime"
	"github.com/flowd-dev/flowd/internal/exporter"
	"github.com/flowd-dev/flowd/internal/judge/judgetest"
	"github.com/flowd-dev/flowd/internal/shimproto"
	"github.com/flowd-dev/flowd/internal/upstream"
)

// BenchmarkActivityFirstPage is the dashboard's Activity page opening on
// a store of 100,000 records: the newest page, unfiltered and with a
// filter that one record in a thousand matches (the store is scanned
// back until the page fills).
func BenchmarkActivityFirstPage(b *testing.B) {
	d := testDaemon(b, nil)
	details := json.RawMessage(`{"flow":{"risk":"none","origins":[{"server":"fs","tool":"read","kind":"exact"}]}}`)
	for i := range 100000 {
		r := activity.Record{Type: activity.TypeToolCall, Session: "s1", Server: "fs", Tool: "read",
			Decision: "allow", Verdict: "pass", RiskLevel: "none", Details: details}
		if i%1000 == 0 {
			r.Server, r.Decision, r.RiskLevel = "slack", "deny", "critical"
		}
		d.store.Append(r)
	}
	if err := d.store.Flush(); err != nil {
		b.Fatal(err)
	}
	h := d.handler()
	for _, q := range []string{"", "?server=slack", "?risk_level=high"} {
		b.Run("filter="+q, func(b *testing.B) {
			for b.Loop() {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v1/activity"+q, nil))
				if rec.Code != http.StatusOK || rec.Header().Get("Link") == "" {
					b.Fatalf("%d %s: not a full first page", rec.Code, rec.Body)
				}
			}
		})
	}
}

// BenchmarkActivityExport streams a store of 100,000 records whole, as
// GET /api/v1/activity/export does, in each format: records/s is what
// the "export ≥ 50,000 records/s" measures. One record in a
// hundred carries an injection finding, whose excerpt CSV fences.
func BenchmarkActivityExport(b *testing.B) {
	d := testDaemon(b, nil)
	plain := json.RawMessage(`{"flow":{"risk":"none","origins":[{"server":"fs","tool":"read","kind":"exact"}]}}`)
	finding := json.RawMessage(`{"injection":{"server":"web","score":0.9,"action":"block","detections":[{"rule":"instruction-override",` +
		`"tier":"lexical","severity":0.85,"field":"content[0].text","excerpt":"Ignore all previous instructions"}]}}`)
	const n = 100000
	for i := range n {
		r := activity.Record{Type: activity.TypeToolCall, Session: "s1", Server: "fs", Tool: "read",
			Decision: "allow", Verdict: "pass", RiskLevel: "none", Reason: "reads a file", Details: plain}
		if i%100 == 0 {
			r.Server, r.Verdict, r.RiskLevel, r.Details = "web", "block", "critical", finding
		}
		d.store.Append(r)
	}
	if err := d.store.Flush(); err != nil {
		b.Fatal(err)
	}
	h := d.handler()
	for _, q := range []string{"format=jsonl", "format=jsonl&include_flows=true", "format=csv&include_flows=true"} {
		b.Run(q, func(b *testing.B) {
			// On a shared machine wall time measures the scheduler; the
			// process's CPU time is what the export costs.
			cpu0 := cputime.Process()
			for b.Loop() {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v1/activity/export?"+q, nil))
				if rec.Code != http.StatusOK || bytes.Count(rec.Body.Bytes(), []byte("\n")) < n {
					b.Fatalf("%d: not the whole store", rec.Code)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
			b.ReportMetric(float64(n)*float64(b.N)/(cputime.Process()-cpu0).Seconds(), "records/cpu-s")
		})
	}
}

// BenchmarkVerdictWithLiveReaders is a call and its result judged while
// 0 or 10 live readers (dashboard tabs on Live) take every record and
// encode it as the event stream does: the readers are fed when records
// are committed, off the verdict's path, and must not slow it.
func BenchmarkVerdictWithLiveReaders(b *testing.B) {
	for _, tabs := range []int{0, 10} {
		b.Run(fmt.Sprintf("tabs=%d", tabs), func(b *testing.B) {
			d := testDaemon(b, nil)
			for range tabs {
				sub, err := d.events.Subscribe(eventBuffer)
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { d.events.Unsubscribe(sub) })
				go func() {
					for ev := range sub.Records {
						ev.JSON()
					}
				}()
			}
			u := upstream.NewStream(1, shimproto.Hello{Name: "fetch"}, "bench")
			i := 0
			for b.Loop() {
				i++
				judgetest.CallAndAnswer(d.judge, u, i, "fetch", `{"url":"https://example.org/a"}`, "hello")
			}
		})
	}
}

// BenchmarkVerdictWithExport is a call and its result judged with export
// off, to a syslog TCP receiver and to an OTLP/HTTP receiver on this
// machine: records reach the exporters from the store's Committed hook,
// off the verdict's path, and must not slow it.
func BenchmarkVerdictWithExport(b *testing.B) {
	for _, to := range []string{"off", "syslog", "otlp"} {
		b.Run("export="+to, func(b *testing.B) {
			cfg := config.Default()
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { l.Close() })
			switch to {
			case "syslog":
				go func() {
					for {
						c, err := l.Accept()
						if err != nil {
							return
						}
						go io.Copy(io.Discard, c)
					}
				}()
				cfg.Export.Syslog.Enabled, cfg.Export.Syslog.Address = true, l.Addr().String()
			case "otlp":
				go http.Serve(l, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.Copy(io.Discard, r.Body) }))
				cfg.Export.OTLP.Enabled, cfg.Export.OTLP.Endpoint = true, "http://"+l.Addr().String()
			}
			d, _ := startAt(b, b.TempDir(), cfg)
			u := upstream.NewStream(1, shimproto.Hello{Name: "fetch"}, "bench")
			i := 0
			cpu := cputime.Process()
			for b.Loop() {
				i++
				judgetest.CallAndAnswer(d.judge, u, i, "fetch", `{"url":"https://example.org/a"}`, "hello")
			}
			b.StopTimer()
			if err := d.store.Flush(); err != nil {
				b.Fatal(err)
			}
			// The CPU of the whole process per call, until its record was
			// exported: the verdict's and the store's, and the export's,
			// which competes with verdicts for the cores.
			st := func() exporter.Status {
				if to == "syslog" {
					return d.export.Status()
				}
				return d.otlp.Status()
			}
			for to != "off" {
				s := st()
				if s.Sent+s.Lost()+uint64(s.Spool.Records) >= s.Offered {
					b.ReportMetric(float64(s.Sent)/float64(i), "sent/op")
					break
				}
				time.Sleep(time.Millisecond) // a benchmark's wait for the last export
			}
			b.ReportMetric(float64(cputime.Process()-cpu)/1e3/float64(i), "cpu-µs/op")
		})
	}
}
