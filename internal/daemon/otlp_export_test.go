package daemon

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/judge/judgetest"
	"github.com/flowd-dev/flowd/internal/shimproto"
	"github.com/flowd-dev/flowd/internal/upstream"
)

// otlpReceiver is an OTLP/HTTP receiver on addr that hands each log
// record's type and tool to got.
func otlpReceiver(t *testing.T, l net.Listener) <-chan [2]string {
	got := make(chan [2]string, 100)
	var mu sync.Mutex
	s := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		req := plogotlp.NewExportRequest()
		if r.URL.Path != "/v1/logs" || req.UnmarshalProto(b) != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		rls := req.Logs().ResourceLogs()
		for i := range rls.Len() {
			lrs := rls.At(i).ScopeLogs().At(0).LogRecords()
			for j := range lrs.Len() {
				a := lrs.At(j).Attributes()
				typ, _ := a.Get("flowd.record.type")
				tool, _ := a.Get("gen_ai.tool.name")
				got <- [2]string{typ.Str(), tool.Str()}
			}
		}
	})}
	go s.Serve(l)
	t.Cleanup(func() { s.Close() })
	return got
}

// A call made while the collector is away is in the spool when flowd
// stops, and reaches the collector after the next start.
func TestOTLPSpooledAcrossRestart(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close()) // away for now
	cfg := config.Default()
	cfg.Export.OTLP.Enabled, cfg.Export.OTLP.Endpoint = true, "http://"+addr
	dir := t.TempDir()

	d, stop := startAt(t, dir, cfg)
	fs := upstream.NewStream(1, shimproto.Hello{Name: "filesystem"}, "cc")
	judgetest.CallAndAnswer(d.judge, fs, 1, "read_text_file", `{"path":"/tmp/notes.txt"}`, "hello")
	require.NoError(t, d.store.Flush())
	stop()
	assert.Zero(t, d.otlp.Status().Sent)
	assert.Positive(t, d.otlp.Status().Spool.Records, "the records wait on disk")

	l, err = net.Listen("tcp", addr)
	require.NoError(t, err)
	got := otlpReceiver(t, l)
	d, _ = startAt(t, dir, cfg)
	for arrived := false; !arrived; {
		select {
		case r := <-got:
			arrived = r == [2]string{"tool_call", "read_text_file"}
		case <-time.After(time.Minute):
			t.Fatalf("the spooled call did not arrive; exporter: %+v", d.otlp.Status())
		}
	}
	var st flowdclient.Status
	require.NoError(t, json.Unmarshal(api(d, "GET", "/api/v1/status", "").Body.Bytes(), &st))
	require.NotNil(t, st.OTLP)
	assert.Equal(t, "http://"+addr, st.OTLP.Endpoint)
}

// A collector that takes the request and never answers stalls the
// exporter inside a send; calls judged meanwhile neither wait for it nor
// lose their activity records: records reach the exporter from the
// activity log's writer, Offer never waits, and the exporter's full
// queue drops its oldest (counted) rather than hold anyone up. All of
// it happens while the first send still hangs: an Offer that waited for
// room would wait for that send's timeout (10 s), when the exporter
// gives up on it and spools the queue.
func TestVerdictsDoNotWaitForAStalledExporter(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	inSend, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	s := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() { close(inSend) })
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})}
	go s.Serve(l)
	t.Cleanup(func() { close(release); s.Close() })
	cfg := config.Default()
	cfg.Export.OTLP.Enabled, cfg.Export.OTLP.Endpoint = true, "http://"+l.Addr().String()
	cfg.Export.OTLP.QueueLimit = 8
	cfg.Export.OTLP.DrainTimeout.Duration = time.Millisecond // the send hangs: stop without waiting for it
	d, _ := startAt(t, t.TempDir(), cfg)
	u := upstream.NewStream(1, shimproto.Hello{Name: "fetch"}, "bench")

	judgetest.CallAndAnswer(d.judge, u, 1, "fetch", `{"url":"https://example.org/a"}`, "hello")
	require.NoError(t, d.store.Flush())
	select {
	case <-inSend:
	case <-time.After(time.Minute):
		t.Fatalf("the exporter never sent: %+v", d.otlp.Status())
	}

	const calls = 100
	done := make(chan error, 1)
	go func() {
		for i := 2; i <= calls; i++ {
			if v := judgetest.CallAndAnswer(d.judge, u, i, "fetch", `{"url":"https://example.org/a"}`, "hello"); v.Action != shimproto.Pass {
				done <- fmt.Errorf("call %d: %+v", i, v)
				return
			}
		}
		done <- d.store.Flush()
	}()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(2 * time.Minute):
		t.Fatalf("verdicts wait for the stalled exporter: %+v", d.otlp.Status())
	}
	ast, st := d.store.Stats(), d.otlp.Status()
	require.Zero(t, st.SendErrors, "the first send timed out before the calls were done: they waited for it, or this machine took over 10 s for %d calls", calls)
	assert.Zero(t, ast.Dropped, "the activity log lost records")
	assert.Equal(t, ast.Written, st.Offered, "every record written was offered to the exporter")
	assert.Zero(t, st.Sent, "the collector never answered")
	assert.LessOrEqual(t, st.Queued, 8, "the queue keeps to its limit")
	assert.Equal(t, st.Offered, uint64(st.Queued)+st.Dropped+st.Spilled, "each record offered is queued, dropped or spooled")
}
