package otlpexport

import (
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/cputime"
)

// BenchmarkExportTrickle is records offered at a steady 200/s, as a
// busy agent's calls make them, to a receiver on this machine: the CPU
// a record costs when batches are small. "off" is the same loop with
// export off: what it costs to offer records at that pace at all.
func BenchmarkExportTrickle(b *testing.B) {
	for _, on := range []bool{false, true} {
		b.Run(map[bool]string{false: "off", true: "on"}[on], func(b *testing.B) {
			cfg := testConfig(startSink(b, config.OTLPHTTP), config.OTLPHTTP)
			cfg.Enabled = on
			e, err := New(cfg, b.TempDir(), slog.New(slog.DiscardHandler))
			require.NoError(b, err)
			b.Cleanup(e.Close)
			r := record(0)
			r.Reason = "internal data sent to an external server"
			r.Details = []byte(`{"rule":"internal_to_external","classification":{"class":"external","confidence":0.9}}`)
			maskSecrets("") // the detector is built once, for the daemon's own checks too
			tick := time.NewTicker(5 * time.Millisecond)
			defer tick.Stop()
			cpu := cputime.Process()
			n := 0
			for b.Loop() {
				<-tick.C
				n++
				r.ID, r.Time = uint64(n), time.Now()
				e.Offer(r)
			}
			for on && e.Status().Sent < uint64(n) {
				time.Sleep(time.Millisecond) // a benchmark's wait for the last export
			}
			b.ReportMetric(float64(cputime.Process()-cpu)/1e3/float64(n), "cpu-µs/record")
		})
	}
}
