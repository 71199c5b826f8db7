package main

import (
	"math"
	"slices"
	"time"
)

// Percentiles of a latency sample, in microseconds.
type Percentiles struct {
	P50 float64 `json:"p50_us"`
	P90 float64 `json:"p90_us"`
	P95 float64 `json:"p95_us"`
	P99 float64 `json:"p99_us"`
}

// percentiles uses the nearest-rank definition, so every figure is a
// latency that was actually observed.
func percentiles(sample []time.Duration) Percentiles {
	s := slices.Clone(sample)
	slices.Sort(s)
	return Percentiles{P50: rank(s, 50), P90: rank(s, 90), P95: rank(s, 95), P99: rank(s, 99)}
}

func rank(sorted []time.Duration, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	return float64(sorted[max(i, 0)]) / float64(time.Microsecond)
}

func (p Percentiles) minus(q Percentiles) Percentiles {
	return Percentiles{P50: p.P50 - q.P50, P90: p.P90 - q.P90, P95: p.P95 - q.P95, P99: p.P99 - q.P99}
}

// Ratios of two Percentiles, p / q at each percentile.
type Ratios struct {
	P50 float64 `json:"p50"`
	P90 float64 `json:"p90"`
	P99 float64 `json:"p99"`
}

func (p Percentiles) over(q Percentiles) Ratios {
	return Ratios{P50: p.P50 / q.P50, P90: p.P90 / q.P90, P99: p.P99 / q.P99}
}

// Spread summarises repeated measurements of one rate.
type Spread struct {
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

// spread takes the median as the figure to judge, since a shared machine
// makes single runs slow at random; min and max show how much.
func spread(v []float64) Spread {
	if len(v) == 0 {
		return Spread{}
	}
	s := slices.Clone(v)
	slices.Sort(s)
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return Spread{Median: m, Min: s[0], Max: s[len(s)-1]}
}
