//go:build unix

package otlpexport

import (
	"fmt"
	"log/slog"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/cputime"
)

// BenchmarkExportTrickle is records offered at a steady pace, as a busy
// agent's calls make them, to the real collector in a process of its
// own (so that this process's CPU is flowd's side alone): the CPU and
// the context switches a record costs when batches are small. 20/s is
// the pace of a flowd in the fleet simulation (a batch of about 2
// records each 0.1 s). "off" is the same loop with export off: what it
// costs to offer records at that pace at all; on minus off is the
// export's cost.
func BenchmarkExportTrickle(b *testing.B) {
	col := newCollector(b)
	maskSecrets("") // the detector is built once, for the daemon's own checks too
	for _, every := range []time.Duration{5 * time.Millisecond, 50 * time.Millisecond} {
		for _, on := range []bool{false, true} {
			name := fmt.Sprintf("%d/s/%s", time.Second/every, map[bool]string{false: "off", true: "on"}[on])
			b.Run(name, func(b *testing.B) {
				cfg := testConfig(col.endpoint(config.OTLPHTTP), config.OTLPHTTP)
				cfg.Enabled = on
				e, err := New(cfg, b.TempDir(), slog.New(slog.DiscardHandler))
				require.NoError(b, err)
				b.Cleanup(e.Close)
				r := record(0)
				r.Reason = "internal data sent to an external server"
				r.RequestID = "17"
				r.Details = []byte(`{"rule":"internal_to_external","classification":{"class":"external","confidence":0.9}}`)
				tick := time.NewTicker(every)
				defer tick.Stop()
				cpu, sw := cputime.Process(), switches()
				n := 0
				for b.Loop() {
					<-tick.C
					n++
					r.ID, r.Time = uint64(n), time.Now()
					e.Offer(r)
				}
				// Close sends what waits at once: polling for it instead
				// would cost as many wake-ups as the last linger has ms.
				e.Close()
				if on {
					require.Equal(b, uint64(n), e.Status().Sent, "records sent")
				}
				b.ReportMetric(float64(cputime.Process()-cpu)/1e3/float64(n), "cpu-µs/record")
				b.ReportMetric(float64(switches()-sw)/float64(n), "switches/record")
			})
		}
	}
}

// switches is how many times this process's threads gave up or were
// taken off a CPU: each is a thread waking, as a goroutine that wakes
// an idle P does.
func switches() int64 {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return u.Nvcsw + u.Nivcsw
}
