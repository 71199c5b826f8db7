package otlpexport

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/plog/plogotlp"
	"google.golang.org/grpc"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/cputime"
)

// sink is an OTLP receiver that accepts and discards, so the benchmark
// measures the exporter: encoding, the request and its answer.
type sink struct {
	*plogotlp.UnimplementedGRPCServer
}

func (sink) Export(context.Context, plogotlp.ExportRequest) (plogotlp.ExportResponse, error) {
	return plogotlp.NewExportResponse(), nil
}

func startSink(b *testing.B, protocol string) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(b, err)
	if protocol == config.OTLPGRPC {
		s := grpc.NewServer()
		plogotlp.RegisterGRPCServer(s, sink{&plogotlp.UnimplementedGRPCServer{}})
		go s.Serve(l)
		b.Cleanup(s.Stop)
	} else {
		s := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/x-protobuf")
		})}
		go s.Serve(l)
		b.Cleanup(func() { s.Close() })
	}
	return "http://" + l.Addr().String()
}

// BenchmarkExport is records offered as fast as the loop goes, to a
// receiver on this machine: records/s is what the exporter sends.
func BenchmarkExport(b *testing.B) {
	for _, protocol := range []string{config.OTLPHTTP, config.OTLPGRPC} {
		b.Run(protocol, func(b *testing.B) {
			cfg := testConfig(startSink(b, protocol), protocol)
			cfg.QueueLimit = 1 << 30
			e, err := New(cfg, b.TempDir(), slog.New(slog.DiscardHandler))
			require.NoError(b, err)
			b.Cleanup(e.Close)
			r := record(0)
			r.Reason = "internal data sent to an external server"
			r.Details = []byte(`{"rule":"internal_to_external","classification":{"class":"external","confidence":0.9}}`)
			start, cpu := time.Now(), cputime.Process()
			n := 0
			for b.Loop() {
				n++
				r.ID = uint64(n)
				e.Offer(r)
			}
			for e.Status().Sent < uint64(n) {
				time.Sleep(time.Millisecond) // a benchmark's wait for the last export
			}
			b.ReportMetric(float64(n)/time.Since(start).Seconds(), "records/s")
			// The whole process's CPU: the exporter's, and the receiver's on
			// this machine, which only discards.
			b.ReportMetric(float64(cputime.Process()-cpu)/1e3/float64(n), "cpu-µs/record")
		})
	}
}
