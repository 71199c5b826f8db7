// Package metrics counts what flowd decides and how its queues stand,
// for Prometheus (GET /metrics, in its text format).
//
// What a message pays is one histogram observation after its verdict is
// written, and one counter increment where its activity record is
// appended (for calls and results, after the verdict is on its way);
// everything else (shims, sessions, the activity queue, the exporters)
// is read when Prometheus asks.
// Labels come from flowd's own vocabulary (record types, actions,
// verdicts), never from what servers or agents send, so their number
// stays bounded.
package metrics

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/exporter"
)

// Sources are what the gauges read at each scrape.
type Sources struct {
	// Shims and Sessions count the shims connected and their sessions.
	Shims, Sessions func() int
	// Activity is the activity store's counters.
	Activity func() activity.Stats
	// Exports are the exporters' states (OTLP, syslog); nil: none.
	Exports func() []exporter.Status
}

// Metrics is one flowd's metrics.
type Metrics struct {
	handler   http.Handler
	decisions *prometheus.CounterVec
	latency   prometheus.Histogram
}

// New registers flowd's metrics, reading src at each scrape.
func New(src Sources) *Metrics {
	m := &Metrics{
		decisions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "flowd_decisions_total",
			Help: "Activity records by type (tool_call, tool_result, hook, message, ...), decision (allow, warn, ask, deny; none) and verdict (pass, block, replace, ...; none).",
		}, []string{"type", "decision", "verdict"}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "flowd_verdict_latency_seconds",
			Help: "Time from a shim's message arriving to its verdict leaving, for every message a shim waits on.",
			// 50 µs to about 3 s: a verdict is tens of microseconds; a
			// check that runs into flow.check_budget (2 s) lands at the top.
			Buckets: prometheus.ExponentialBuckets(50e-6, 2, 17),
		}),
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(m.decisions, m.latency,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "flowd_shims_connected", Help: "Shims connected now."},
			func() float64 { return float64(src.Shims()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "flowd_sessions", Help: "Sessions of the shims connected now."},
			func() float64 { return float64(src.Sessions()) }),
		&activityCollector{stats: src.Activity},
		&exportCollector{status: src.Exports},
		prometheus.NewGoCollector(),
		prometheus.NewProcessCollector(prometheus.ProcessCollectorOpts{}),
	)
	m.handler = promhttp.HandlerFor(reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
	return m
}

// Observe counts one activity record.
func (m *Metrics) Observe(r activity.Record) {
	m.decisions.WithLabelValues(r.Type, orNone(r.Decision), orNone(r.Verdict)).Inc()
}

// ObserveVerdict notes the time one shim message took from its arrival
// to its verdict's leaving.
func (m *Metrics) ObserveVerdict(took time.Duration) { m.latency.Observe(took.Seconds()) }

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// Handler serves the metrics in Prometheus's text format.
func (m *Metrics) Handler() http.Handler { return m.handler }

// activityCollector reads the activity store's counters once per scrape.
type activityCollector struct {
	stats func() activity.Stats
}

var (
	queueDepth = prometheus.NewDesc("flowd_activity_queue_depth", "Activity records queued in memory, not yet written.", nil, nil)
	written    = prometheus.NewDesc("flowd_activity_written_total", "Activity records written to disk.", nil, nil)
	dropped    = prometheus.NewDesc("flowd_activity_dropped_total", "Activity records refused: the queue was full or the store closed.", nil, nil)
	failed     = prometheus.NewDesc("flowd_activity_failed_total", "Activity records accepted but lost: unencodable or a failed write.", nil, nil)
	failing    = prometheus.NewDesc("flowd_activity_write_failing", "1 while writing the activity log fails.", nil, nil)
)

func (c *activityCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{queueDepth, written, dropped, failed, failing} {
		ch <- d
	}
}

func (c *activityCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.stats()
	ch <- prometheus.MustNewConstMetric(queueDepth, prometheus.GaugeValue, float64(st.Pending))
	ch <- prometheus.MustNewConstMetric(written, prometheus.CounterValue, float64(st.Written))
	ch <- prometheus.MustNewConstMetric(dropped, prometheus.CounterValue, float64(st.Dropped))
	ch <- prometheus.MustNewConstMetric(failed, prometheus.CounterValue, float64(st.Failed))
	f := 0.0
	if st.WriteError != "" {
		f = 1
	}
	ch <- prometheus.MustNewConstMetric(failing, prometheus.GaugeValue, f)
}

// exportCollector reads the exporters' states once per scrape.
type exportCollector struct {
	status func() []exporter.Status
}

var (
	exportQueued = prometheus.NewDesc("flowd_export_queued_total",
		"Activity records handed to an exporter (otlp, syslog) while it was on.", []string{"exporter"}, nil)
	exportSpooled = prometheus.NewDesc("flowd_export_spooled_total",
		"Records an exporter moved from memory to its spool on disk (the receiver away or slow).", []string{"exporter"}, nil)
	exportSent = prometheus.NewDesc("flowd_export_sent_total",
		"Records the receiver has.", []string{"exporter"}, nil)
	exportDropped = prometheus.NewDesc("flowd_export_dropped_total",
		"Records lost: queue_full (memory), spool_full (the oldest on disk, past spool_bytes), rejected (refused by the receiver as malformed).",
		[]string{"exporter", "reason"}, nil)
	exportErrors = prometheus.NewDesc("flowd_export_send_errors_total",
		"Failed connects and sends; each is retried with backoff.", []string{"exporter"}, nil)
	exportDepth = prometheus.NewDesc("flowd_export_queue_depth",
		"Records waiting to be sent, in memory or in the spool on disk.", []string{"exporter", "where"}, nil)
	exportConnected = prometheus.NewDesc("flowd_export_connected",
		"1 while the exporter is on and its receiver known to be there.", []string{"exporter"}, nil)
)

func (c *exportCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{exportQueued, exportSpooled, exportSent, exportDropped, exportErrors, exportDepth, exportConnected} {
		ch <- d
	}
}

func (c *exportCollector) Collect(ch chan<- prometheus.Metric) {
	if c.status == nil {
		return
	}
	counter := func(d *prometheus.Desc, v uint64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), labels...)
	}
	for _, x := range c.status() {
		counter(exportQueued, x.Offered, x.Name)
		counter(exportSpooled, x.Spilled, x.Name)
		counter(exportSent, x.Sent, x.Name)
		counter(exportDropped, x.Dropped, x.Name, "queue_full")
		counter(exportDropped, x.Spool.Dropped, x.Name, "spool_full")
		counter(exportDropped, x.Rejected, x.Name, "rejected")
		counter(exportErrors, x.SendErrors, x.Name)
		ch <- prometheus.MustNewConstMetric(exportDepth, prometheus.GaugeValue, float64(x.Queued), x.Name, "memory")
		ch <- prometheus.MustNewConstMetric(exportDepth, prometheus.GaugeValue, float64(x.Spool.Records), x.Name, "spool")
		connected := 0.0
		if x.Connected {
			connected = 1
		}
		ch <- prometheus.MustNewConstMetric(exportConnected, prometheus.GaugeValue, connected, x.Name)
	}
}
