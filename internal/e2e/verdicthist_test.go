//go:build unix

package e2e

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// verdictHist is flowd's flowd_verdict_latency_seconds histogram as its
// /metrics shows it: the time from a shim's message arriving to its
// verdict leaving, measured inside flowd, so apart from the shims, the
// servers and the wait for a CPU before flowd reads the message.
type verdictHist struct {
	le  []float64 // upper bounds in seconds, ascending, +Inf last
	cum []float64 // messages at or under each bound
	sum float64   // seconds, all messages together
}

const verdictMetric = "flowd_verdict_latency_seconds"

// scrapeVerdicts reads f's verdict latency histogram from GET /metrics
// on its socket.
func scrapeVerdicts(t *testing.T, f *flowd) verdictHist {
	t.Helper()
	hc := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", f.socket)
		}}}
	defer hc.CloseIdleConnections()
	resp, err := hc.Get("http://flowd/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	h, err := parseVerdicts(bufio.NewScanner(resp.Body))
	require.NoError(t, err)
	return h
}

func parseVerdicts(sc *bufio.Scanner) (verdictHist, error) {
	var h verdictHist
	for sc.Scan() {
		line := sc.Text()
		name, rest, ok := strings.Cut(line, " ")
		if !ok || !strings.HasPrefix(name, verdictMetric) {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
		if err != nil {
			return h, fmt.Errorf("metrics line %q: %w", line, err)
		}
		switch {
		case name == verdictMetric+"_sum":
			h.sum = v
		case strings.HasPrefix(name, verdictMetric+`_bucket{le="`):
			bound := strings.TrimSuffix(strings.TrimPrefix(name, verdictMetric+`_bucket{le="`), `"}`)
			le, err := strconv.ParseFloat(bound, 64) // "+Inf" parses as +Inf
			if err != nil {
				return h, fmt.Errorf("metrics line %q: %w", line, err)
			}
			h.le, h.cum = append(h.le, le), append(h.cum, v)
		}
	}
	if err := sc.Err(); err != nil {
		return h, err
	}
	if len(h.le) == 0 || !math.IsInf(h.le[len(h.le)-1], 1) {
		return h, fmt.Errorf("no %s histogram in /metrics", verdictMetric)
	}
	return h, nil
}

// add returns h plus o times sign (1 or -1): the fleet's histogram is
// its flowds' added, a turn's is the one after it minus the one before.
func (h verdictHist) add(o verdictHist, sign float64) verdictHist {
	if h.le == nil {
		h = verdictHist{le: o.le, cum: make([]float64, len(o.cum))}
	}
	out := verdictHist{le: h.le, cum: make([]float64, len(h.cum)), sum: h.sum + sign*o.sum}
	for i := range h.cum {
		out.cum[i] = h.cum[i] + sign*o.cum[i]
	}
	return out
}

func (h verdictHist) count() float64 {
	if len(h.cum) == 0 {
		return 0
	}
	return h.cum[len(h.cum)-1]
}

func (h verdictHist) mean() time.Duration {
	if h.count() == 0 {
		return 0
	}
	return time.Duration(h.sum / h.count() * float64(time.Second)).Round(time.Microsecond)
}

// quantile estimates the q quantile as Prometheus's histogram_quantile
// does: linearly within the bucket it falls in (the buckets double, so
// it is a bucket's width at worst).
func (h verdictHist) quantile(q float64) time.Duration {
	n := h.count()
	if n == 0 {
		return 0
	}
	rank := q * n
	lo, below := 0.0, 0.0
	for i, le := range h.le {
		if h.cum[i] >= rank {
			if math.IsInf(le, 1) {
				le = lo // past the last bound: the last bound is all it can say
			}
			in := h.cum[i] - below
			frac := 1.0
			if in > 0 {
				frac = (rank - below) / in
			}
			return time.Duration((lo + (le-lo)*frac) * float64(time.Second)).Round(time.Microsecond)
		}
		lo, below = le, h.cum[i]
	}
	return 0
}

// fleetVerdicts is the verdict histogram of the whole fleet now.
func fleetVerdicts(t *testing.T, fleet []*flowd) verdictHist {
	var h verdictHist
	for _, f := range fleet {
		h = h.add(scrapeVerdicts(t, f), 1)
	}
	return h
}
