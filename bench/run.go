package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/paths"
)

// internalName is the name the benchmark's internal server runs under:
// its config classifies it internal, as a user does for a server of theirs
// whose name says nothing.
const internalName = "bench-notes"

// Config sizes one benchmark run.
type Config struct {
	N       int // timed echo round trips per side
	Warmup  int // untimed round trips per side before them
	Blocks  int // N is split into this many blocks per side, alternating sides
	Preload int // echo results recorded through the shim before the latency run
	Runs    int // timed 10 MB calls per side and server

	Origins int // recorded in the flow engine's session
	Checks  int // timed flow checks against them

	HookOrigins int           // recorded in the hook session before the hook runs
	HookRuns    int           // timed `hook evaluate` runs, one at a time
	HookCallers int           // concurrent callers for the hook load figure
	HookFor     time.Duration // how long the load runs

	// Stall is how long one round trip may take before the run gives up
	// on the process (zero: stallTimeout): a hung shim fails the run, but
	// on a machine busy enough a 10 MB result judged whole can take longer
	// than the program's default.
	Stall time.Duration

	BinDir   string // prebuilt binaries; empty: build them
	Progress io.Writer

	// LatencyOnly stops after the latency run (bench -only latency).
	LatencyOnly bool
	// GCTrace runs the client-side processes with GODEBUG=gctrace=1 and
	// counts each shim's collections during the timed calls (bench -gc).
	GCTrace bool
}

func (cfg Config) check() error {
	for _, f := range []struct {
		name string
		v    int
	}{{"n", cfg.N}, {"blocks", cfg.Blocks}, {"runs", cfg.Runs}, {"origins", cfg.Origins}, {"checks", cfg.Checks},
		{"hook-origins", cfg.HookOrigins}, {"hook-runs", cfg.HookRuns}, {"hook-callers", cfg.HookCallers}} {
		if f.v < 1 {
			return fmt.Errorf("bad sizes: %s=%d, must be at least 1", f.name, f.v)
		}
	}
	if cfg.Warmup < 0 || cfg.Preload < 0 || cfg.HookFor <= 0 {
		return fmt.Errorf("bad sizes: warmup=%d preload=%d hook-for=%v (warmup and preload at least 0, hook-for positive)",
			cfg.Warmup, cfg.Preload, cfg.HookFor)
	}
	return nil
}

const (
	messageBytes = 1024
	resultBytes  = 10_000_000
)

// Servers the throughput figures are taken with.
const (
	serverRaw   = "raw"    // bench/rawserver: precomputed lines, so the figure is the relay's
	serverMCPGo = "mcp-go" // internal/testserver: an SDK encoding each result, as real servers do
)

// run measures everything in a private temp dir, which it removes, and
// stops every process it started, also when it fails.
func run(cfg Config) (rep Report, err error) {
	if err := cfg.check(); err != nil {
		return rep, err
	}
	cfg.Blocks = min(cfg.Blocks, cfg.N)
	progress := func(format string, args ...any) {
		if cfg.Progress != nil {
			fmt.Fprintf(cfg.Progress, "bench: "+format+"\n", args...)
		}
	}
	rep.Machine = machine()

	tmp, err := os.MkdirTemp("", "flowd-bench-")
	if err != nil {
		return rep, fmt.Errorf("create temp dir: %w", err)
	}
	defer os.RemoveAll(tmp)

	bins, err := binariesFrom(cfg.BinDir, tmp, func() {
		progress("building shim, flowd, testserver, rawserver and verdictd with %s, hook also with %s", strings.Join(buildFlags, " "), hookBuildEnv)
		rep.Binaries.Built = true
	})
	if cfg.BinDir != "" {
		rep.Binaries.Dir = cfg.BinDir
	}
	if err != nil {
		return rep, err
	}
	for p, size := range map[string]*int64{bins.shim: &rep.Binaries.ShimBytes, bins.hook: &rep.Binaries.HookBytes} {
		st, err := os.Stat(p)
		if err != nil {
			return rep, fmt.Errorf("binary size: %w", err)
		}
		*size = st.Size()
	}
	if s, ok := stripped(bins.shim); ok {
		rep.Binaries.Stripped = &s
	}

	// The benchmark runs flowd as shipped: the default config, in files of
	// its own, untouched by the user's environment, plus the one line a
	// user adds for an internal server flowd cannot classify by itself
	// (an unknown destination is taken as able to send data out).
	own, err := paths.OwnUnder(tmp)
	if err != nil {
		return rep, err
	}
	socket, dataDir, cfgFile := own.Socket, own.DataDir, own.ConfigFile
	cfgText := strings.Replace(string(config.DefaultTOML()), "\n[classify.servers]\n", "\n[classify.servers]\n"+strconv.Quote(internalName)+" = \"internal\"\n", 1)
	if !strings.Contains(cfgText, internalName) {
		return rep, fmt.Errorf("the default config has no [classify.servers] table to name %s in", internalName)
	}
	if err := os.WriteFile(cfgFile, []byte(cfgText), 0o600); err != nil {
		return rep, fmt.Errorf("write flowd config: %w", err)
	}
	env := benchEnv(own)

	progress("starting flowd")
	fd, err := startFlowd(bins.flowd, socket, dataDir, cfgFile, env)
	if err != nil {
		return rep, err
	}
	defer func() { err = errors.Join(err, fd.stop()) }()
	record := func(pid int, process, when string) error {
		m, err := readMemory(pid, process, when)
		if errors.Is(err, errNoProc) {
			return nil
		}
		if err != nil {
			return err
		}
		rep.Memory = append(rep.Memory, m)
		return nil
	}
	if err := record(fd.pid(), "flowd", whenIdle); err != nil {
		return rep, err
	}

	// open starts one client side and shakes hands with it; every process
	// it starts is stopped when run returns.
	var clients []*rpcClient
	defer func() {
		for _, c := range clients {
			err = errors.Join(err, c.close())
		}
	}()
	clientEnv := env
	if cfg.GCTrace {
		clientEnv = append(append([]string(nil), env...), "GODEBUG=gctrace=1")
	}
	open := func(name string, argv ...string) (*rpcClient, error) {
		c, err := startClient(name, argv, clientEnv)
		if err != nil {
			return nil, err
		}
		c.stall = cfg.Stall
		clients = append(clients, c)
		return c, c.handshake()
	}
	// upstream is the command line of a shim's server: with -gc, without
	// the GC trace, which would reach the same stderr as the shim's.
	upstream := func(server string) []string {
		if cfg.GCTrace {
			return []string{"env", "-u", "GODEBUG", server}
		}
		return []string{server}
	}
	// start runs a server directly and through a shim, as the internal
	// server internalName.
	start := func(server string) (direct, shim *rpcClient, err error) {
		if direct, err = open(filepath.Base(server), server); err != nil {
			return nil, nil, err
		}
		shim, err = open("shim", append([]string{bins.shim, "--no-autostart", "--socket", socket, "--name", internalName, "--"}, upstream(server)...)...)
		return direct, shim, err
	}
	direct, shim, err := start(bins.testserver)
	if err != nil {
		return rep, err
	}

	progress("flow engine in flowd: recording %d tool results through the shim", cfg.Preload)
	pre, err := preload(shim, cfg.Preload)
	if err != nil {
		return rep, err
	}
	// The same shim with no flowd to ask (fail_mode open): what putting a
	// process in the path costs on this machine, before any verdict.
	relay, err := open("shim without flowd", append([]string{bins.shim, "--no-autostart", "--socket", filepath.Join(tmp, "absent.sock"), "--"}, upstream(bins.testserver)...)...)
	if err != nil {
		return rep, err
	}
	// The same shim again, asking a stand-in that passes everything at
	// once: the cost of asking, apart from flowd's judging.
	vdShim, vdFlowd, err := besideFlowd(filepath.Join(tmp, "instant"), bins.shim, bins.verdictd)
	if err != nil {
		return rep, err
	}
	vd, err := startVerdictd(vdFlowd, filepath.Join(tmp, "verdictd.sock"), env)
	if err != nil {
		return rep, err
	}
	defer func() { err = errors.Join(err, vd.stop()) }()
	instant, err := open("shim, instant verdicts", append([]string{vdShim, "--no-autostart", "--socket", vd.socket, "--"}, upstream(bins.testserver)...)...)
	if err != nil {
		return rep, err
	}
	// The same server named as an external one: flowd then runs the flow
	// check before the verdict, where for an internal destination it runs
	// after. Its echo copies results of the internal server, so each call
	// is an internal→external flow, warned about without hooks.
	external, err := open("shim, external destination", append([]string{bins.shim, "--no-autostart", "--socket", socket, "--name", "slack", "--"}, upstream(bins.testserver)...)...)
	if err != nil {
		return rep, err
	}
	progress("latency: %d warm-up + %d timed echo round trips per side", cfg.Warmup, cfg.N)
	if rep.Latency, err = measureLatency(cfg, fd.pid(), direct, shim, relay, instant, external); err != nil {
		return rep, err
	}
	rep.Latency.Preloaded = pre
	// 2 messages per round trip, plus initialize, its answer and initialized.
	messages := func(roundTrips int) int { return 2*roundTrips + 3 }
	if err := checkJudged(socket, shim.pid(), uint64(messages(cfg.Preload+cfg.Warmup+cfg.N)), uint64(cfg.Warmup+cfg.N)); err != nil {
		return rep, err
	}
	if err := checkJudged(socket, external.pid(), uint64(messages(cfg.Warmup+cfg.N)), 0); err != nil {
		return rep, err
	}
	if n, err := vd.passed(); err != nil || n != messages(cfg.Warmup+cfg.N) {
		return rep, fmt.Errorf("verdictd passed %d messages, want %d: the instant-verdict shim did not ask it (%v)", n, messages(cfg.Warmup+cfg.N), err)
	}
	if err := errors.Join(record(shim.pid(), "shim", whenLatency), record(fd.pid(), "flowd", whenLatency)); err != nil {
		return rep, err
	}
	if cfg.LatencyOnly {
		rep.Machine.LoadAvgEnd = loadAvg()
		return rep, nil
	}

	progress("throughput (%s server): 1 warm-up + %d timed %d-byte results per side", serverMCPGo, cfg.Runs, resultBytes)
	mcpgo, err := measureThroughput(cfg, serverMCPGo, direct, shim)
	if err != nil {
		return rep, err
	}
	if err := record(shim.pid(), "shim", whenThroughput+" ("+serverMCPGo+")"); err != nil {
		return rep, err
	}
	rawDirect, rawShim, err := start(bins.rawserver)
	if err != nil {
		return rep, err
	}
	progress("throughput (%s server): 1 warm-up + %d timed %d-byte results per side", serverRaw, cfg.Runs, resultBytes)
	raw, err := measureThroughput(cfg, serverRaw, rawDirect, rawShim)
	if err != nil {
		return rep, err
	}
	rep.Throughput = []Throughput{raw, mcpgo}
	// A warm-up and Runs results, then Runs pairs of a 1-byte call and a result.
	if err := checkJudged(socket, rawShim.pid(), uint64(2*(1+3*cfg.Runs)+3), 0); err != nil {
		return rep, err
	}
	if err := errors.Join(record(rawShim.pid(), "shim", whenThroughput+" ("+serverRaw+")"),
		record(fd.pid(), "flowd", whenThroughput)); err != nil {
		return rep, err
	}
	// A shim that had to apply fail_mode says so on stderr, and its
	// figures would not include flowd.
	for _, c := range []*rpcClient{shim, rawShim} {
		if s := strings.TrimSpace(c.stderr.String()); s != "" {
			return rep, fmt.Errorf("the shim reported trouble, so its figures may not include flowd: %s", s)
		}
	}

	progress("hook: recording %d Read results through flowd's hook endpoint, then %d timed runs of hook evaluate",
		cfg.HookOrigins, cfg.HookRuns)
	if rep.Hook, err = measureHook(cfg, bins.hook, socket, env); err != nil {
		return rep, err
	}
	rep.Hook.BinaryBytes = rep.Binaries.HookBytes
	if err := record(fd.pid(), "flowd", whenHook); err != nil {
		return rep, err
	}

	progress("flow engine in this process: %d origins, %d timed checks", cfg.Origins, cfg.Checks)
	if rep.Engine, err = measureEngine(cfg.Origins, cfg.Checks); err != nil {
		return rep, err
	}
	rep.Machine.LoadAvgEnd = loadAvg()
	rep.Targets = targets(rep)
	return rep, nil
}

// preload records n realistic tool results in the shim's session, as an
// agent's earlier calls would, so that the latency run checks every call
// against them. Each is an echo call: its result is the text it sent.
func preload(shim *rpcClient, n int) (Preloaded, error) {
	p := Preloaded{Results: n}
	c := newCorpus(3)
	for range n {
		d := c.result()
		if err := shim.remember(d.text); err != nil {
			return p, err
		}
		p.Bytes += int64(len(d.text))
	}
	return p, nil
}

// side is one way of reaching the server.
type side struct {
	c       *rpcClient
	samples []time.Duration
	cpu     time.Duration // the process's CPU time over the timed calls
	// judge is flowd's pid for a shim that asks it (0: none), and
	// judgeCPU flowd's CPU time over this side's timed calls, judgeRuns
	// the times a thread of it was put on a CPU meanwhile.
	judge     int
	judgeCPU  time.Duration
	judgeRuns int64
	gcs       int // its GC cycles over them, with GODEBUG=gctrace=1
	// met marks the samples during which, or during the call after
	// which, the process traced the end of a collection: the trace
	// line reaches the benchmark through a pipe, and a cycle that
	// delayed a call may end after its answer.
	met []bool
}

// gc is what the side's process traced of its collections since it
// started (bench -gc), and the round trips of the calls that met one
// beside the others'.
func (sd *side) gc() GC {
	n, ms, live := sd.c.stderr.collections()
	g := GC{Cycles: sd.gcs, MaxMs: ms, LiveMB: live, SinceStart: n}
	var met, others []time.Duration
	for i, rt := range sd.samples {
		if sd.met[i] {
			met = append(met, rt)
		} else {
			others = append(others, rt)
		}
	}
	g.MetCalls = len(met)
	if len(met) > 0 && len(others) > 0 {
		m, o := percentiles(met), percentiles(others)
		g.Met, g.Others = &m, &o
	}
	return g
}

// timed runs k timed round trips on sd, adding to its CPU time and GC
// count what its process spent meanwhile.
func (sd *side) timed(k int, msg string) error {
	gcs, _, _ := sd.c.stderr.collections()
	cpu, cpuErr := processCPU(sd.c.pid())
	var judgeCPU time.Duration
	var judgeRuns int64
	if sd.judge != 0 {
		var err error
		if judgeCPU, judgeRuns, err = processSched(sd.judge); err != nil {
			sd.judge = 0 // not on Linux: reported as 0, as the shims' CPU is
		}
	}
	before := gcs
	for j := range k {
		rt, err := sd.c.echo(msg)
		if err != nil {
			return err
		}
		after, _, _ := sd.c.stderr.collections()
		if after > before && j > 0 {
			sd.met[len(sd.met)-1] = true // the call before this one, of this block
		}
		sd.samples, sd.met = append(sd.samples, rt), append(sd.met, after > before)
		before = after
	}
	if cpuErr == nil {
		after, err := processCPU(sd.c.pid())
		if err != nil {
			return err
		}
		sd.cpu += after - cpu
	}
	if sd.judge != 0 {
		after, runs, err := processSched(sd.judge)
		if err != nil {
			return err
		}
		sd.judgeCPU += after - judgeCPU
		sd.judgeRuns += runs - judgeRuns
	}
	after, _, _ := sd.c.stderr.collections()
	sd.gcs += after - gcs
	return nil
}

// runsPerCall is how often a thread of flowd was put on a CPU per timed
// round trip of sd.
func (sd *side) runsPerCall() float64 {
	if len(sd.samples) == 0 {
		return 0
	}
	return float64(sd.judgeRuns) / float64(len(sd.samples))
}

// perCall is d per timed round trip of sd, in microseconds.
func (sd *side) perCall(d time.Duration) float64 {
	if len(sd.samples) == 0 {
		return 0
	}
	return float64(d) / float64(len(sd.samples)) / float64(time.Microsecond)
}

// measureLatency alternates blocks of round trips between the sides,
// rotating which goes first, so drift and noise on a shared machine fall on
// all alike.
func measureLatency(cfg Config, flowd int, direct, shim, relay, instant, external *rpcClient) (Latency, error) {
	msg := message(messageBytes)
	for range cfg.Warmup {
		for _, c := range []*rpcClient{direct, shim, relay, instant, external} {
			if _, err := c.echo(msg); err != nil {
				return Latency{}, err
			}
		}
	}
	d := &side{c: direct, samples: make([]time.Duration, 0, cfg.N)}
	s := &side{c: shim, samples: make([]time.Duration, 0, cfg.N), judge: flowd}
	r := &side{c: relay, samples: make([]time.Duration, 0, cfg.N)}
	in := &side{c: instant, samples: make([]time.Duration, 0, cfg.N)}
	ex := &side{c: external, samples: make([]time.Duration, 0, cfg.N), judge: flowd}
	for b := range cfg.Blocks {
		k := cfg.N / cfg.Blocks
		if b < cfg.N%cfg.Blocks {
			k++
		}
		order := []*side{d, s, r, in, ex}
		for range b % len(order) {
			order = append(order[1:], order[0])
		}
		for _, sd := range order {
			if err := sd.timed(k, msg); err != nil {
				return Latency{}, err
			}
		}
	}
	l := Latency{N: cfg.N, Warmup: cfg.Warmup, Blocks: cfg.Blocks, RequestBytes: len(echoRequest(1, msg)),
		Direct: percentiles(d.samples), Shim: percentiles(s.samples), Relay: percentiles(r.samples), Instant: percentiles(in.samples),
		External: percentiles(ex.samples),
		ShimCPU:  s.perCall(s.cpu), ExternalCPU: ex.perCall(ex.cpu), FlowdCPU: s.perCall(s.judgeCPU), FlowdExternalCPU: ex.perCall(ex.judgeCPU),
		FlowdRuns: s.runsPerCall(), FlowdExternalRuns: ex.runsPerCall(),
		ShimGC: s.gc(), ExternalGC: ex.gc()}
	l.Added = l.Shim.minus(l.Direct)
	l.RelayAdded = l.Relay.minus(l.Direct)
	l.InstantAdded = l.Instant.minus(l.Direct)
	l.ExternalAdded = l.External.minus(l.Direct)
	l.Ratio = l.Shim.over(l.Direct)
	return l, nil
}

// measureThroughput times whole 10 MB results, alternating sides run by
// run, then through the shim alone with flowd caught up before each.
func measureThroughput(cfg Config, server string, direct, shim *rpcClient) (Throughput, error) {
	t := Throughput{Server: server, Runs: cfg.Runs, ResultBytes: resultBytes}
	// The first large result grows every buffer on the way; later ones reuse them.
	for _, c := range []*rpcClient{direct, shim} {
		if _, _, err := c.fetch(resultBytes); err != nil {
			return t, err
		}
	}
	var dr, sr, dms, sms []float64
	for i := range cfg.Runs {
		order := []*rpcClient{direct, shim}
		if i%2 == 1 {
			order = []*rpcClient{shim, direct}
		}
		for _, c := range order {
			n, d, err := c.fetch(resultBytes)
			if err != nil {
				return t, err
			}
			t.ResponseBytes = n
			rate := float64(n) / d.Seconds() / mb
			ms := d.Seconds() * 1e3
			if c == direct {
				dr, dms = append(dr, rate), append(dms, ms)
			} else {
				sr, sms = append(sr, rate), append(sms, ms)
			}
		}
	}
	t.Direct, t.Shim = spread(dr), spread(sr)
	t.AddedMs = spread(sms).Median - spread(dms).Median

	// flowd records each result as an origin after passing it on, and the
	// session's next check waits for that. A 1-byte call right after a
	// large result shows the wait; once it is answered, flowd has caught
	// up, and the next large result measures the relay alone.
	var settled, next []float64
	for range cfg.Runs {
		_, wait, err := shim.fetch(1)
		if err != nil {
			return t, err
		}
		n, d, err := shim.fetch(resultBytes)
		if err != nil {
			return t, err
		}
		next = append(next, wait.Seconds()*1e3)
		settled = append(settled, float64(n)/d.Seconds()/mb)
	}
	t.ShimSettled = spread(settled)
	t.NextCallMs = spread(next).Median
	return t, nil
}

// checkJudged makes sure flowd saw every message of the shim: a shim that
// lost flowd passes messages unchecked and would flatter the figures. And
// that at least forwarded calls went on under a grant: the internal side
// measures the granted path, which a call that waits for its verdict
// would not.
func checkJudged(socket string, shimPID int, want, forwarded uint64) error {
	st, err := flowdclient.NewClient(socket, 5*time.Second).Status()
	if err != nil {
		return fmt.Errorf("ask flowd for its status: %w", err)
	}
	for _, s := range st.Shims {
		if s.PID == shimPID {
			if s.Messages < want {
				return fmt.Errorf("flowd judged %d messages of the shim, want at least %d: the rest passed unchecked", s.Messages, want)
			}
			if s.Forwarded < forwarded {
				return fmt.Errorf("the shim sent %d calls on under a grant, want at least %d: the rest waited for their verdicts, so the granted path was not what was measured", s.Forwarded, forwarded)
			}
			return nil
		}
	}
	return fmt.Errorf("the shim (pid %d) is not connected to flowd; its figures would not include flowd", shimPID)
}

// message is n bytes of plain text: nothing a secret scanner would flag,
// nothing JSON must escape, and no name of the files flowd guards (its own
// name among them), which would make every granted call wait for its
// verdict (shimproto.Grant.Guarded).
func message(n int) string {
	const words = "the quick brown fox jumps over the lazy dog while a daemon watches the stream "
	return strings.Repeat(words, n/len(words)+1)[:n]
}

// benchEnv is the environment of every process the benchmark starts: the
// user's, without any FLOWD_ or XDG_ setting that could point at their
// own flowd, with the benchmark's own flowd's (paths.OwnUnder).
func benchEnv(own paths.Own) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "FLOWD_") && !strings.HasPrefix(kv, "XDG_") {
			env = append(env, kv)
		}
	}
	return append(append(env, own.Env...), "FLOWD_SESSION=flowd-bench")
}

func machine() Machine {
	m := Machine{OS: runtime.GOOS, Arch: runtime.GOARCH, CPUs: runtime.NumCPU(), Go: runtime.Version()}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
	}
	m.LoadAvg = loadAvg()
	return m
}

// loadAvg is the 1, 5 and 15 minute load average, where /proc has it.
func loadAvg() string {
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(b)); len(f) >= 3 {
			return strings.Join(f[:3], " ")
		}
	}
	return ""
}
