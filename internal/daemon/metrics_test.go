//go:build unix

package daemon

import (
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/judge/judgetest"
	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/shimproto"
	"github.com/flowd-dev/flowd/internal/upstream"
)

// scrape reads flowd's metrics as Prometheus does, from the dashboard's
// loopback listener, without a login, and parses them with Prometheus's
// own parser.
func scrape(t *testing.T, d *Daemon) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get("http://" + d.ui.Listener().Addr().String() + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	require.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)
	p := expfmt.NewTextParser(model.UTF8Validation)
	mf, err := p.TextToMetricFamilies(strings.NewReader(string(body)))
	require.NoError(t, err, "%s", body)
	return mf
}

// value is the sum of a family's samples whose labels include want.
func value(mf map[string]*dto.MetricFamily, name string, want map[string]string) float64 {
	f, ok := mf[name]
	if !ok {
		return 0
	}
	sum := 0.0
	for _, m := range f.GetMetric() {
		match := true
		for k, v := range want {
			found := false
			for _, l := range m.GetLabel() {
				found = found || l.GetName() == k && l.GetValue() == v
			}
			match = match && found
		}
		if !match {
			continue
		}
		switch {
		case m.Counter != nil:
			sum += m.GetCounter().GetValue()
		case m.Gauge != nil:
			sum += m.GetGauge().GetValue()
		case m.Histogram != nil:
			sum += float64(m.GetHistogram().GetSampleCount())
		}
	}
	return sum
}

// Real calls through a real flowd move the counters Prometheus reads:
// decisions by type and action, the verdict latency histogram, the shims
// and sessions connected, the activity log's writes.
func TestMetricsAfterRealCalls(t *testing.T) {
	cfg := config.Default()
	cfg.UI.Enabled = config.UIOn
	d, socket, _ := serving(t, cfg)

	before := scrape(t, d)
	assert.Zero(t, value(before, "flowd_decisions_total", map[string]string{"type": "tool_call"}))
	assert.Zero(t, value(before, "flowd_shims_connected", nil))

	_, r, w := shimClient(t, socket)
	send := func(seq uint64, dir shimproto.Direction, line string) shimproto.Verdict {
		t.Helper()
		require.NoError(t, w.WriteMessage(shimproto.Message{Seq: seq, Dir: dir, Data: []byte(line + "\n")}))
		for {
			typ, p, err := r.Next()
			require.NoError(t, err)
			if typ == shimproto.TypeVerdict {
				v, err := shimproto.DecodeVerdict(p)
				require.NoError(t, err)
				require.Equal(t, seq, v.Seq)
				return v
			}
		}
	}
	assert.Equal(t, shimproto.Pass, send(1, c2s, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a"}}}`).Action)
	assert.Equal(t, shimproto.Pass, send(2, s2c, judgetest.TextResult(1, "hello")).Action)
	denied := send(3, c2s, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fetch","arguments":{"url":"https://webhook.site/x"}}}`)
	assert.NotEqual(t, shimproto.Pass, denied.Action, "a suspicious endpoint is denied")
	// One connection's messages are judged in order: by the verdict on a
	// fourth, the first three are timed and the result's record is
	// queued. Records are counted as they are appended, in order: a job
	// queued after them runs once they are counted.
	send(4, c2s, `{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	counted := make(chan struct{})
	d.judge.Later(func() { close(counted) })
	<-counted
	require.NoError(t, d.store.Flush())

	after := scrape(t, d)
	assert.Equal(t, 1.0, value(after, "flowd_decisions_total", map[string]string{"type": "tool_call", "decision": "allow"}))
	assert.Equal(t, 1.0, value(after, "flowd_decisions_total", map[string]string{"type": "tool_call", "decision": "deny"}))
	assert.Equal(t, 1.0, value(after, "flowd_decisions_total", map[string]string{"type": "shim_connect"}))
	assert.GreaterOrEqual(t, value(after, "flowd_verdict_latency_seconds", nil), 3.0, "one verdict latency a message")
	assert.Equal(t, 1.0, value(after, "flowd_shims_connected", nil))
	assert.Equal(t, 1.0, value(after, "flowd_sessions", nil))
	assert.GreaterOrEqual(t, value(after, "flowd_activity_written_total", nil), 3.0)
	assert.Zero(t, value(after, "flowd_activity_queue_depth", nil), "flushed")
	for _, name := range []string{"flowd_activity_dropped_total", "flowd_activity_failed_total", "flowd_activity_write_failing"} {
		assert.Contains(t, after, name)
	}
}

// The metrics need no login on the loopback listener, but the listener's
// other defences hold: a foreign Host (DNS rebinding) is refused, and with
// [ui] metrics = false they are not served there at all. The socket
// serves them too.
func TestMetricsOnTheLoopbackListener(t *testing.T) {
	cfg := config.Default()
	cfg.UI.Enabled = config.UIOn
	d, socket, _ := serving(t, cfg)
	addr := d.ui.Listener().Addr().String()

	req, err := http.NewRequest(http.MethodGet, "http://"+addr+"/metrics", nil)
	require.NoError(t, err)
	req.Host = "attacker.example:80"
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)

	resp, err = http.Get("http://" + addr + "/api/v1/status")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "the rest of the API still needs a login")

	onSocket := &http.Client{Transport: &http.Transport{DialContext: func(context.Context, string, string) (net.Conn, error) {
		return localsock.Dial(socket, 10*time.Second)
	}}}
	resp, err = onSocket.Get("http://flowd/metrics")
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, string(body), "flowd_shims_connected")

	cfg = config.Default()
	cfg.UI.Enabled, cfg.UI.Metrics = config.UIOn, false
	off, _, _ := serving(t, cfg)
	resp, err = http.Get("http://" + off.ui.Listener().Addr().String() + "/metrics")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
}

// Export's counters reach /metrics, per exporter: a call's records sent
// to a real syslog receiver; and, with the receiver away, send errors
// and records moved to the spool, waiting there.
func TestExportMetrics(t *testing.T) {
	call := func(d *Daemon) {
		fs := upstream.NewStream(1, shimproto.Hello{Name: "filesystem"}, "cc")
		judgetest.CallAndAnswer(d.judge, fs, 1, "read_text_file", `{"path":"/tmp/notes.txt"}`, "hello")
		require.NoError(t, d.store.Flush())
	}
	syslog := map[string]string{"exporter": "syslog"}
	t.Run("sent", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		t.Cleanup(func() { l.Close() })
		frames(t, l)
		cfg := exportingTo(l.Addr().String())
		cfg.UI.Enabled = config.UIOn
		d, _, _ := serving(t, cfg)
		call(d)
		assert.Eventually(t, func() bool { st := d.export.Status(); return st.Sent > 0 && st.Sent == st.Offered },
			time.Minute, time.Millisecond, "the records sent")
		st := d.export.Status()
		mf := scrape(t, d)
		assert.Equal(t, float64(st.Sent), value(mf, "flowd_export_sent_total", syslog))
		assert.Positive(t, value(mf, "flowd_export_sent_total", syslog))
		assert.Equal(t, float64(st.Offered), value(mf, "flowd_export_queued_total", syslog))
		assert.Equal(t, 1.0, value(mf, "flowd_export_connected", syslog))
		assert.Zero(t, value(mf, "flowd_export_connected", map[string]string{"exporter": "otlp"}), "otlp is off")
		assert.Zero(t, value(mf, "flowd_export_queue_depth", syslog))
		assert.Zero(t, value(mf, "flowd_export_send_errors_total", syslog))
		assert.Zero(t, value(mf, "flowd_export_dropped_total", syslog))
		for _, reason := range []string{"queue_full", "spool_full", "rejected"} {
			assert.Len(t, labelled(mf, "flowd_export_dropped_total", map[string]string{"exporter": "syslog", "reason": reason}), 1, reason)
		}
	})
	t.Run("receiver away", func(t *testing.T) {
		cfg := exportingTo("127.0.0.1:1")
		cfg.UI.Enabled = config.UIOn
		d, _, _ := serving(t, cfg)
		call(d)
		assert.Eventually(t, func() bool { st := d.export.Status(); return st.Spool.Records > 0 && st.Queued == 0 },
			time.Minute, time.Millisecond, "the records in the spool")
		mf := scrape(t, d)
		assert.Zero(t, value(mf, "flowd_export_sent_total", syslog))
		assert.GreaterOrEqual(t, value(mf, "flowd_export_send_errors_total", syslog), 1.0)
		assert.Positive(t, value(mf, "flowd_export_spooled_total", syslog))
		assert.Equal(t, value(mf, "flowd_export_spooled_total", syslog),
			value(mf, "flowd_export_queue_depth", map[string]string{"exporter": "syslog", "where": "spool"}))
		assert.Zero(t, value(mf, "flowd_export_connected", syslog))
	})
}

// labelled are a family's samples whose labels include want.
func labelled(mf map[string]*dto.MetricFamily, name string, want map[string]string) []*dto.Metric {
	var out []*dto.Metric
	for _, m := range mf[name].GetMetric() {
		n := 0
		for _, l := range m.GetLabel() {
			if v, ok := want[l.GetName()]; ok && v == l.GetValue() {
				n++
			}
		}
		if n == len(want) {
			out = append(out, m)
		}
	}
	return out
}
