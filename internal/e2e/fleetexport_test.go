//go:build unix

package e2e

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/collector/pdata/plog"

	"github.com/flowd-dev/flowd/internal/flowdclient"
)

// fleetExportScale is the size of the fleet export simulation: the
// normal suite runs a small one, which checks what the full one checks;
// FLOWD_FLEET_EXPORT=1 runs the one the README's figures come from.
type fleetExportScale struct {
	flowds, sessions int           // flowd processes; MCP sessions loading each
	steady, outage   time.Duration // load with the collector up; with it stopped
}

var (
	fleetExportSmall = fleetExportScale{flowds: 3, sessions: 1, steady: 2 * time.Second, outage: 2 * time.Second}
	fleetExportFull  = fleetExportScale{flowds: 20, sessions: 2, steady: 20 * time.Second, outage: 60 * time.Second}
)

// The fleet export simulation: flowd processes, each with its own socket
// and data dir, under load from MCP sessions (shim and server processes)
// and all exporting to one OpenTelemetry Collector. It measures the call
// round trip with export off, then on; the records exported per second
// with the collector up; what waits while the collector is stopped
// (load going on), and how fast each flowd sends it once the collector
// is back. Every record each flowd wrote arrives, whatever the outage:
// nothing that fits the spool is lost.
func TestFleetExport(t *testing.T) {
	t.Parallel()
	scale := fleetExportSmall
	if os.Getenv("FLOWD_FLEET_EXPORT") != "" {
		scale = fleetExportFull
	}
	col := startFleetCollector(t)

	// A fleet with export off and one with it on take turns at the same
	// load, so that both see the machine alike (other jobs share it).
	off := startFleet(t, scale.flowds, "")
	on := startFleet(t, scale.flowds, fmt.Sprintf("\n[export.otlp]\nenabled = true\nendpoint = %q\nprotocol = \"http\"\n", "http://"+col.http))
	const turns = 4
	var offLat, onLat []time.Duration
	var offCPU, onCPU, colCPU time.Duration // flowds' and the collector's CPU time during the turns
	// Verdict latency inside each flowd (GET /metrics), apart from the
	// round trip: the shims, the servers and the collector share the
	// machine's CPUs with the flowds, and the round trip feels all of them.
	var offVerdicts, onVerdicts verdictHist
	for range turns {
		c0, v0 := fleetCPU(off), fleetVerdicts(t, off)
		l, _ := loadFleet(t, off, scale.sessions, scale.steady/turns)
		offCPU += fleetCPU(off) - c0
		offVerdicts = offVerdicts.add(fleetVerdicts(t, off), 1).add(v0, -1)
		offLat = append(offLat, l...)
		c0, k0, v0 := fleetCPU(on), procCPU(col.cmd.Process.Pid), fleetVerdicts(t, on)
		l, _ = loadFleet(t, on, scale.sessions, scale.steady/turns)
		onCPU += fleetCPU(on) - c0
		colCPU += procCPU(col.cmd.Process.Pid) - k0
		onVerdicts = onVerdicts.add(fleetVerdicts(t, on), 1).add(v0, -1)
		onLat = append(onLat, l...)
	}
	require.Positive(t, offVerdicts.count(), "flowd's /metrics counted no verdicts")
	require.Positive(t, onVerdicts.count(), "flowd's /metrics counted no verdicts")
	stopFleet(t, off)
	offCalls, onCalls := len(offLat), len(onLat)
	// Counted once all the steady load made is sent: a partial batch
	// waits up to a second for others to join it, and would be missed.
	waitAllSent(t, on)
	steadyRecs := make([]int, len(on))
	for i, f := range on {
		st := fleetExportStatus(t, f)
		steadyRecs[i] = int(st.OTLP.Sent)
	}

	// The collector stops; the load goes on, and what it records waits.
	col.stop(t)
	_, outageCalls := loadFleet(t, on, scale.sessions, scale.outage)
	backlog := make([]int, len(on))
	for i, f := range on {
		st := fleetExportStatus(t, f)
		backlog[i] = st.OTLP.Queued + st.OTLP.Spool.Records
		assert.Positive(t, st.OTLP.Spool.Records, "flowd %d: records wait on disk while the collector is away", i)
		assert.False(t, st.OTLP.Connected, "flowd %d", i)
	}
	col.start(t)
	back := time.Now()
	waitAllSent(t, on)

	// Every record each flowd wrote arrived, and none was dropped.
	got := col.records(t)
	var exported, dups, written int
	for i, f := range on {
		st := fleetExportStatus(t, f)
		assert.Zero(t, st.OTLP.Dropped+st.OTLP.Spool.Dropped, "flowd %d dropped records", i)
		recs := got[f.cmd.Process.Pid]
		unique := map[int64]bool{}
		for _, r := range recs {
			unique[r.seq] = true
		}
		w := int(st.Activity.Written)
		assert.Equal(t, w, len(unique), "flowd %d: every record written arrived", i)
		for s := int64(1); s <= int64(w); s++ {
			if !unique[s] {
				t.Errorf("flowd %d: record %d of the chain never arrived", i, s)
				break
			}
		}
		exported += len(recs)
		dups += len(recs) - len(unique)
		written += w
	}

	// How fast each flowd sent what waited, once the collector was back:
	// each batch carries the time it was sent (observed timestamp), so
	// the records of all batches but the last went out between the first
	// batch and the last.
	perDrain := make([]float64, 0, len(on))
	var drainTotal int
	var first, last time.Time
	for i, f := range on {
		var sent []time.Time
		for _, r := range got[f.cmd.Process.Pid] {
			if !r.sent.Before(back) {
				sent = append(sent, r.sent)
			}
		}
		slices.SortFunc(sent, time.Time.Compare)
		if len(sent) < backlog[i] {
			continue // counted as lost above
		}
		drainTotal += len(sent)
		b, e := sent[0], sent[len(sent)-1]
		if first.IsZero() || b.Before(first) {
			first = b
		}
		last = maxTime(last, e)
		inLast := len(sent) - slices.IndexFunc(sent, func(x time.Time) bool { return x.Equal(e) })
		if e.After(b) {
			perDrain = append(perDrain, float64(len(sent)-inLast)/e.Sub(b).Seconds())
		}
	}

	perSteady := make([]float64, len(on))
	for i, n := range steadyRecs {
		perSteady[i] = float64(n) / scale.steady.Seconds()
	}
	t.Logf("fleet of %d flowd processes, %d MCP sessions each, exporting OTLP/HTTP to one collector", scale.flowds, scale.sessions)
	t.Logf("call round trip (shim → flowd → server → flowd → shim), export off: %d calls, p50 %v p99 %v; export on: %d calls, p50 %v p99 %v",
		offCalls, pct(offLat, 50), pct(offLat, 99), onCalls, pct(onLat, 50), pct(onLat, 99))
	t.Logf("verdict latency inside flowd (a shim's message arriving to its verdict leaving; /metrics, interpolated in its doubling buckets), export off: %.0f verdicts, mean %v p50 %v p99 %v; export on: %.0f verdicts, mean %v p50 %v p99 %v",
		offVerdicts.count(), offVerdicts.mean(), offVerdicts.quantile(0.5), offVerdicts.quantile(0.99),
		onVerdicts.count(), onVerdicts.mean(), onVerdicts.quantile(0.5), onVerdicts.quantile(0.99))
	perCall := func(d time.Duration, n int) time.Duration {
		return (d / time.Duration(max(n, 1))).Round(time.Microsecond)
	}
	t.Logf("CPU per call (user and system, from /proc; 0: not there): flowd with export off %v, with export on %v; the collector %v",
		perCall(offCPU, offCalls), perCall(onCPU, onCalls), perCall(colCPU, onCalls))
	t.Logf("steady (%v, collector up): exported records/s per flowd min %.0f median %.0f max %.0f, total %.0f",
		scale.steady, slices.Min(perSteady), median(perSteady), slices.Max(perSteady), sum(perSteady))
	t.Logf("collector stopped %v under load (%d calls): %d records waited (per flowd min %d max %d)",
		scale.outage, outageCalls, sum(backlog), slices.Min(backlog), slices.Max(backlog))
	if len(perDrain) > 0 {
		t.Logf("once the collector was back, %d records sent; from each flowd's first batch to its last (%d of %d flowds sent more than one): records/s per flowd min %.0f median %.0f max %.0f; the fleet (each flowd retries at its own backoff): from the first batch to the last %v, %.0f records/s",
			drainTotal, len(perDrain), len(on), slices.Min(perDrain), median(perDrain), slices.Max(perDrain),
			last.Sub(first).Round(time.Millisecond), float64(drainTotal)/last.Sub(first).Seconds())
	}
	t.Logf("records: %d written, %d exported, %d sent twice (a batch the collector kept while flowd saw it fail)", written, exported, dups)
}

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)].Round(10 * time.Microsecond)
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

func sum[T int | float64](v []T) T {
	var t T
	for _, x := range v {
		t += x
	}
	return t
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// procCPU is the CPU time process pid used so far, user and system, as
// Linux's /proc says; 0 where there is none.
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command name, which may hold spaces, in parentheses.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / 100 // USER_HZ, 100 on Linux
}

func fleetCPU(fleet []*flowd) time.Duration {
	var d time.Duration
	for _, f := range fleet {
		d += procCPU(f.cmd.Process.Pid)
	}
	return d
}

func startFleet(t *testing.T, n int, extra string) []*flowd {
	fleet := make([]*flowd, n)
	parallel(t, n, func(i int) { fleet[i] = startFlowd(t, extra) })
	return fleet
}

// stopFleet stops each flowd now, as the test's cleanup would later, so
// that they load the machine no more.
func stopFleet(t *testing.T, fleet []*flowd) {
	for _, f := range fleet {
		require.NoError(t, f.cmd.Process.Signal(syscall.SIGTERM))
	}
}

// loadFleet runs sessions MCP sessions on each flowd for d, each calling
// a tool over and over, and returns each call's round trip.
func loadFleet(t *testing.T, fleet []*flowd, sessions int, d time.Duration) ([]time.Duration, int) {
	const doc = "Opening hours: Monday to Friday, 9 to 5; closed on public holidays."
	var (
		mu  sync.Mutex
		lat []time.Duration
		wg  sync.WaitGroup
	)
	ss := make([]*mcpSession, 0, len(fleet)*sessions)
	for _, f := range fleet {
		for range sessions {
			ss = append(ss, newSession(t, f.shim(bins.testserver, "--name", "docs", "--doc", doc)))
		}
	}
	end := time.Now().Add(d)
	for _, s := range ss {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for id := 1; time.Now().Before(end); id++ {
				start := time.Now()
				a := s.roundTrip(fmt.Sprintf(readDoc, id))
				mine = append(mine, time.Since(start))
				if !bytes.Contains([]byte(a), []byte(doc)) {
					t.Errorf("call %d answered %s", id, a)
					return
				}
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	for _, s := range ss {
		s.close()
	}
	return lat, len(lat)
}

func fleetExportStatus(t *testing.T, f *flowd) flowdclient.Status {
	t.Helper()
	st, err := flowdclient.NewClient(f.socket, 10*time.Second).Status()
	require.NoError(t, err)
	require.NotNil(t, st.OTLP, "flowd status has no otlp_export")
	return st
}

// waitAllSent waits until each flowd has written every record of the
// sessions that ended (their disconnects come after) and sent them all.
func waitAllSent(t *testing.T, fleet []*flowd) {
	deadline := time.Now().Add(hangBound)
	for _, f := range fleet {
		for {
			st := fleetExportStatus(t, f)
			x := st.OTLP
			if st.Activity.Pending == 0 && x.Queued == 0 && x.Spool.Records == 0 && x.Sent >= st.Activity.Written {
				break
			}
			require.True(t, time.Now().Before(deadline), "flowd did not send all it wrote within %v: %+v", hangBound, st)
			time.Sleep(20 * time.Millisecond) // a poll of flowd's status: nothing signals the end
		}
	}
}

// fleetCollector is one OpenTelemetry Collector (internal/e2e/otelcol)
// writing what it receives, OTLP JSON lines, to a file; it can be
// stopped and started again on the same port.
type fleetCollector struct {
	bin, dir, http, out string
	cmd                 *exec.Cmd
	exited              chan struct{}
}

func startFleetCollector(t *testing.T) *fleetCollector {
	bin := os.Getenv("FLOWD_OTELCOL")
	if bin == "" {
		bin = filepath.Join(t.TempDir(), "otelcol")
		build := exec.Command("go", "build", "-o", bin, ".")
		build.Dir = "otelcol"
		out, err := build.CombinedOutput()
		require.NoError(t, err, "build the test collector (.ci/run builds it once and sets FLOWD_OTELCOL): %s", out)
	}
	c := &fleetCollector{bin: bin, dir: t.TempDir()}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	c.http = l.Addr().String()
	l.Close()
	grpc, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	grpcAddr := grpc.Addr().String()
	grpc.Close()
	c.out = filepath.Join(c.dir, "logs.jsonl")
	conf := fmt.Sprintf("receivers:\n  otlp:\n    protocols:\n      grpc:\n        endpoint: %s\n      http:\n        endpoint: %s\n"+
		"exporters:\n  file:\n    path: %s\n    append: true\n    flush_interval: 10ms\n"+
		"service:\n  telemetry:\n    metrics:\n      level: none\n    logs:\n      level: info\n"+
		"  pipelines:\n    logs:\n      receivers: [otlp]\n      exporters: [file]\n", grpcAddr, c.http, c.out)
	require.NoError(t, os.WriteFile(filepath.Join(c.dir, "config.yaml"), []byte(conf), 0o600))
	c.start(t)
	t.Cleanup(func() { c.stop(t) })
	return c
}

func (c *fleetCollector) start(t *testing.T) {
	t.Helper()
	c.cmd = exec.Command(c.bin, "--config", filepath.Join(c.dir, "config.yaml"))
	if n := os.Getenv("FLOWD_FLEET_COLLECTOR_NICE"); n != "" {
		// At a lower priority, every thread of it: whether export costs
		// the fleet's round trip through the CPU the collector takes.
		c.cmd = exec.Command("nice", "-n", n, c.bin, "--config", filepath.Join(c.dir, "config.yaml"))
	}
	stderr, err := c.cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, c.cmd.Start())
	c.exited = make(chan struct{})
	ready := make(chan struct{})
	go func() {
		// The collector logs "Everything is ready" once it listens.
		sc := bufio.NewScanner(stderr)
		said := false
		for sc.Scan() {
			if !said && bytes.Contains(sc.Bytes(), []byte("Everything is ready")) {
				said = true
				close(ready)
			}
		}
		io.Copy(io.Discard, stderr)
		c.cmd.Wait()
		close(c.exited)
	}()
	select {
	case <-ready:
	case <-c.exited:
		t.Fatal("the collector exited before it was ready")
	case <-time.After(hangBound):
		t.Fatal("the collector was not ready in time")
	}
}

// stop stops the collector (SIGTERM: it writes what it acknowledged
// to its file first).
func (c *fleetCollector) stop(t *testing.T) {
	t.Helper()
	select {
	case <-c.exited:
		return
	default:
	}
	c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.exited:
	case <-time.After(hangBound):
		c.cmd.Process.Kill()
		<-c.exited
		t.Error("the collector did not stop on SIGTERM")
	}
}

// arrived is a record as the collector got it: its chain position, and
// when flowd sent it.
type arrived struct {
	seq  int64
	sent time.Time
}

// records is, for each flowd's process id, the records that arrived,
// duplicates included.
func (c *fleetCollector) records(t *testing.T) map[int][]arrived {
	t.Helper()
	c.stop(t) // its file then holds all it acknowledged
	f, err := os.Open(c.out)
	require.NoError(t, err)
	defer f.Close()
	out := map[int][]arrived{}
	var u plog.JSONUnmarshaler
	r := bufio.NewReaderSize(f, 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			logs, uerr := u.UnmarshalLogs(line)
			require.NoError(t, uerr)
			for _, rl := range logs.ResourceLogs().All() {
				pid, _ := rl.Resource().Attributes().Get("process.pid")
				for _, sl := range rl.ScopeLogs().All() {
					for _, lr := range sl.LogRecords().All() {
						seq, ok := lr.Attributes().Get("flowd.audit.chain_seq")
						require.True(t, ok, "a record without its chain position")
						out[int(pid.Int())] = append(out[int(pid.Int())], arrived{seq.Int(), lr.ObservedTimestamp().AsTime()})
					}
				}
			}
		}
		if errors.Is(err, io.EOF) {
			return out
		}
		require.NoError(t, err)
	}
}
