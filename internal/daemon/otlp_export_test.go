package daemon

import (
	"encoding/json"
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
