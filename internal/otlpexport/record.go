// Package otlpexport sends activity records to an OpenTelemetry
// Collector as OTLP log records, over HTTP or gRPC, built with the
// collector's own pdata types. Records wait in a bounded queue off the
// message path and, while the collector is away, in a bounded spool on
// disk (internal/spool), and are sent in order (exporter.go); this file
// is the pure mapping of a record to a log record.
//
// What leaves the machine is flowd's verdict on a message, never the
// message: a record's details, which may quote injected text, are not
// sent (only rule names, scores and classes taken from them), and a
// secret in a reason is masked.
package otlpexport

import (
	"encoding/json"
	"strings"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/plog"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/events"
)

// Event names: every record is flowd.activity; one that is also a flow
// alert (events.Alert: denied, asked, warned, blocked, changed, high
// risk) is flow.alert, so a collector can route alerts by name.
const (
	EventActivity = "flowd.activity"
	EventAlert    = events.Alert
)

// Masker replaces the secrets in s; the exporter's masks with the
// secrets package's detector.
type Masker func(s string) string

// Resource says who sends: set once on each batch's resource.
type Resource struct {
	Host    string
	PID     int
	Version string
}

func (src Resource) fill(res pcommon.Resource) {
	a := res.Attributes()
	a.PutStr("service.name", "flowd")
	a.PutStr("service.version", src.Version)
	a.PutStr("host.name", src.Host)
	a.PutInt("process.pid", int64(src.PID))
}

// Logs is recs as one OTLP logs payload: one resource, one scope, a
// log record each, in order.
func Logs(recs []activity.Record, src Resource, mask Masker, now time.Time) plog.Logs {
	ld := plog.NewLogs()
	rl := ld.ResourceLogs().AppendEmpty()
	src.fill(rl.Resource())
	sl := rl.ScopeLogs().AppendEmpty()
	sl.Scope().SetName("github.com/flowd-dev/flowd")
	sl.Scope().SetVersion(src.Version)
	lrs := sl.LogRecords()
	lrs.EnsureCapacity(len(recs))
	obs := pcommon.NewTimestampFromTime(now)
	for i := range recs {
		lr := lrs.AppendEmpty()
		lr.SetObservedTimestamp(obs)
		Fill(lr, &recs[i], mask)
	}
	return ld
}

// Fill sets lr from r: its time, severity, event name, a one-line body
// and its fields as attributes.
func Fill(lr plog.LogRecord, r *activity.Record, mask Masker) {
	if !r.Time.IsZero() {
		lr.SetTimestamp(pcommon.NewTimestampFromTime(r.Time))
	}
	sev, text := severity(r)
	lr.SetSeverityNumber(sev)
	lr.SetSeverityText(text)
	lr.SetEventName(EventActivity)
	kinds := events.Kinds(*r)
	for _, k := range kinds {
		if k == events.Alert {
			lr.SetEventName(EventAlert)
		}
	}
	lr.Body().SetStr(body(r))

	a := lr.Attributes()
	str := func(k, v string) {
		if v != "" {
			a.PutStr(k, v)
		}
	}
	num := func(k string, v int64) {
		if v != 0 {
			a.PutInt(k, v)
		}
	}
	// OpenTelemetry's MCP and GenAI conventions.
	str("mcp.method.name", r.Method)
	str("mcp.session.id", r.Session)
	str("gen_ai.tool.name", r.Tool)
	if r.RequestID != "" {
		// A peer chose it: it may hold anything, a secret too.
		a.PutStr("jsonrpc.request.id", mask(r.RequestID))
	}
	if r.Type == activity.TypeToolCall && r.Method == "tools/call" {
		a.PutStr("gen_ai.operation.name", "execute_tool")
	}
	// flowd's own.
	num("flowd.record.id", int64(r.ID))
	str("flowd.record.type", r.Type)
	str("flowd.server", r.Server)
	str("flowd.decision", r.Decision)
	str("flowd.verdict", r.Verdict)
	str("flowd.risk", r.RiskLevel)
	str("flowd.flow.type", r.FlowType)
	if r.Reason != "" {
		a.PutStr("flowd.reason", mask(r.Reason))
	}
	num("flowd.latency_us", r.LatencyMicros)
	num("flowd.args_bytes", int64(r.ArgsBytes))
	num("flowd.result_bytes", int64(r.ResultBytes))
	if len(kinds) > 1 {
		s := a.PutEmptySlice("flowd.events")
		for _, k := range kinds[1:] {
			s.AppendEmpty().SetStr(k)
		}
	}
	d := details(r.Details)
	str("flowd.rule", d.Rule)
	str("flowd.server.class", string(d.Classification.Class))
	if in := d.Injection; in != nil {
		str("flowd.injection.action", in.Action)
		a.PutDouble("flowd.injection.score", in.Score)
		if rules := ruleNames(in.Detections); rules.Len() > 0 {
			rules.MoveAndAppendTo(a.PutEmptySlice("flowd.injection.rules"))
		}
		str("flowd.quarantine.id", in.Quarantine)
	}
	// The audit chain: a SIEM can check the records it holds against
	// flowd audit verify's.
	num("flowd.audit.chain_seq", int64(r.ChainSeq))
	str("flowd.audit.hash", r.Hash)
	str("flowd.audit.prev_hash", r.PrevHash)
}

// severity is the OpenTelemetry severity of r, on the same scale as
// syslog's: denied or high risk warns, asked, warned or medium risk is
// a notice (INFO2), the rest informs.
func severity(r *activity.Record) (plog.SeverityNumber, string) {
	switch {
	case activity.RiskAtLeast(r.RiskLevel, "critical"):
		return plog.SeverityNumberError, "ERROR"
	case r.Decision == "deny" || activity.RiskAtLeast(r.RiskLevel, "high"):
		return plog.SeverityNumberWarn, "WARN"
	case r.Decision == "ask" || r.Decision == "warn" || activity.RiskAtLeast(r.RiskLevel, "medium"):
		return plog.SeverityNumberInfo2, "INFO2"
	}
	return plog.SeverityNumberInfo, "INFO"
}

// body is a line a person reads in a log viewer: the record type, where,
// and what flowd did; only flowd's own words and names.
func body(r *activity.Record) string {
	var b strings.Builder
	b.WriteString(r.Type)
	switch {
	case r.Server != "" && r.Tool != "":
		b.WriteString(" " + r.Server + "/" + r.Tool)
	case r.Server != "":
		b.WriteString(" " + r.Server)
	}
	if r.Decision != "" {
		b.WriteString(": " + r.Decision)
	}
	if r.Verdict != "" {
		b.WriteString(" (" + r.Verdict + ")")
	}
	return b.String()
}

// recordDetails is what a record's details give the export: rule and
// class names, the injection verdict and score, and nothing quoted.
type recordDetails struct {
	Rule           string `json:"rule"`
	Classification struct {
		Class string `json:"class"`
	} `json:"classification"`
	Injection *struct {
		Action     string  `json:"action"`
		Score      float64 `json:"score"`
		Quarantine string  `json:"quarantine_id"`
		Detections []struct {
			Rule string `json:"rule"`
		} `json:"detections"`
	} `json:"injection"`
}

func details(raw json.RawMessage) recordDetails {
	var d recordDetails
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &d) // details that do not decode give nothing
	}
	return d
}

// ruleNames are the distinct rules of detections, in order.
func ruleNames(ds []struct {
	Rule string `json:"rule"`
}) pcommon.Slice {
	s := pcommon.NewSlice()
	seen := map[string]bool{}
	for _, d := range ds {
		if d.Rule != "" && !seen[d.Rule] {
			seen[d.Rule] = true
			s.AppendEmpty().SetStr(d.Rule)
		}
	}
	return s
}
