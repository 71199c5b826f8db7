//go:build unix

package e2e

import (
	"bufio"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestVerdictHistogramQuantiles(t *testing.T) {
	const metrics = `# HELP flowd_verdict_latency_seconds Time ...
# TYPE flowd_verdict_latency_seconds histogram
flowd_verdict_latency_seconds_bucket{le="5e-05"} 0
flowd_verdict_latency_seconds_bucket{le="0.0001"} 50
flowd_verdict_latency_seconds_bucket{le="0.0002"} 90
flowd_verdict_latency_seconds_bucket{le="0.0004"} 100
flowd_verdict_latency_seconds_bucket{le="+Inf"} 100
flowd_verdict_latency_seconds_sum 0.012
flowd_verdict_latency_seconds_count 100
flowd_shims_connected 2
`
	h, err := parseVerdicts(bufio.NewScanner(strings.NewReader(metrics)))
	require.NoError(t, err)
	assert.Equal(t, 100.0, h.count())
	assert.Equal(t, 120*time.Microsecond, h.mean())
	assert.Equal(t, 100*time.Microsecond, h.quantile(0.5), "the 50th of 100 is the top of the bucket it ends")
	assert.Equal(t, 150*time.Microsecond, h.quantile(0.7), "half way into the 100-200 µs bucket")
	assert.Equal(t, 380*time.Microsecond, h.quantile(0.99))
	turn := h.add(h, -1)
	assert.Zero(t, turn.count(), "a turn with no messages")
	assert.Zero(t, turn.quantile(0.5))
	_, err = parseVerdicts(bufio.NewScanner(strings.NewReader("flowd_shims_connected 2\n")))
	assert.Error(t, err, "a /metrics without the histogram")
}
