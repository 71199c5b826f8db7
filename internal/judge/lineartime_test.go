package judge

import (
	"bytes"
	"io"
	"log/slog"
	"runtime"
	"testing"
	"time"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/cputime"
)

// TestCallTimeIsLinear asks for the verdict on crafted arguments of 256 KB
// and of 1 MB (craftedShapes: the shapes that cost the matchers most per
// byte) in the benchmark's session (stored secrets, planted keys, 200
// origins), and checks that four times the arguments cost at most about
// four times the process's CPU time, not sixteen: the check budget is
// raised so that no check is cut short, and each size is the best of
// three, after a collection. The ratio, not a time, is asserted: it holds
// on a machine other work keeps busy.
func TestCallTimeIsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping a test that judges megabytes of crafted arguments in -short mode")
	}
	if cputime.Process() == 0 {
		t.Skip("skipping: the process's CPU time cannot be read on this system, and wall time on a busy machine measures the scheduler")
	}
	cfg := config.Default()
	cfg.Flow.CheckBudget.Duration, cfg.Flow.WaitBudget.Duration = time.Hour, time.Hour
	j, err := New(cfg, Stores{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	origin := benchSession(t, j, "linear")
	external := classify.Result{Class: classify.External, CanExfiltrate: true}
	// Under the race detector every call is some ten times slower
	// (linearly so): two runs keep the package within its timeout.
	runs := 3
	if raceEnabled {
		runs = 2
	}
	// Shapes made to cost the secret detector more than its allowance per
	// byte leave the check unfinished (and the call denied) at any
	// budget: that is linear too, and measured the same.
	cost := func(unit string, size int) time.Duration {
		body := bytes.Repeat([]byte(unit), size/len(unit)+1)[:size]
		args := []byte(`{"channel":"#general","text":"` + string(body) + `"}`)
		best := time.Duration(1 << 62)
		for range runs {
			runtime.GC()
			var out Outcome
			c0 := cputime.Process()
			if later := j.Call(Call{Session: "linear", Server: "slack", Tool: "post_message", Class: external, Args: args}, &out); later != nil {
				later()
			}
			best = min(best, cputime.Process()-c0)
		}
		return best
	}
	for _, s := range craftedShapes(origin) {
		t.Run(s.name, func(t *testing.T) {
			small, large := cost(s.unit, 256<<10), cost(s.unit, 1<<20)
			ratio := float64(large) / float64(max(small, time.Millisecond))
			t.Logf("256 KB %v, 1 MB %v, ratio %.1f", small, large, ratio)
			// Linear is 4, quadratic 16: 10 leaves room for a collection
			// or a busy neighbour in one of the runs.
			if ratio > 10 {
				t.Errorf("four times the arguments cost %.1f times the CPU time: the check grows faster than its input", ratio)
			}
		})
	}
}
