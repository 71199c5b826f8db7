package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/localapi"
)

// Config sizes one benchmark run.
type Config struct {
	N        int    // timed echo round trips per side
	Warmup   int    // untimed round trips per side before them
	Blocks   int    // N is split into this many blocks per side, alternating sides
	Runs     int    // timed 10 MB calls per side
	BinDir   string // prebuilt shim, flowd and testserver; empty: build them
	Progress io.Writer
}

const (
	messageBytes = 1024
	resultBytes  = 10_000_000
)

// run measures everything in a private temp dir, which it removes, and
// stops every process it started, also when it fails.
func run(cfg Config) (rep Report, err error) {
	if cfg.N < 1 || cfg.Runs < 1 || cfg.Warmup < 0 || cfg.Blocks < 1 {
		return rep, fmt.Errorf("bad sizes: n=%d runs=%d warmup=%d blocks=%d (n, runs and blocks must be at least 1)",
			cfg.N, cfg.Runs, cfg.Warmup, cfg.Blocks)
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

	var bins binaries
	if cfg.BinDir == "" {
		progress("building shim, flowd and testserver with %s", strings.Join(buildFlags, " "))
		bins, err = build(filepath.Join(tmp, "bin"))
		rep.Binaries.Built = true
	} else {
		bins, err = binariesIn(cfg.BinDir)
		rep.Binaries.Dir = cfg.BinDir
	}
	if err != nil {
		return rep, err
	}
	st, err := os.Stat(bins.shim)
	if err != nil {
		return rep, fmt.Errorf("shim binary: %w", err)
	}
	rep.Binaries.ShimBytes = st.Size()
	if s, ok := stripped(bins.shim); ok {
		rep.Binaries.Stripped = &s
	}

	// The benchmark runs flowd as shipped: the default config, in files of
	// its own, untouched by the user's environment.
	cfgFile := filepath.Join(tmp, "config.toml")
	if err := os.WriteFile(cfgFile, config.DefaultTOML(), 0o600); err != nil {
		return rep, fmt.Errorf("write flowd config: %w", err)
	}
	socket, dataDir := filepath.Join(tmp, "flowd.sock"), filepath.Join(tmp, "data")
	env := benchEnv(socket, dataDir, cfgFile)

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

	direct, err := startClient("testserver", []string{bins.testserver}, env)
	if err != nil {
		return rep, err
	}
	defer func() { err = errors.Join(err, direct.close()) }()
	shim, err := startClient("shim", []string{bins.shim, "--no-autostart", "--socket", socket, "--", bins.testserver}, env)
	if err != nil {
		return rep, err
	}
	defer func() { err = errors.Join(err, shim.close()) }()
	for _, c := range []*rpcClient{direct, shim} {
		if err := c.handshake(); err != nil {
			return rep, err
		}
	}

	progress("latency: %d warm-up + %d timed echo round trips per side", cfg.Warmup, cfg.N)
	if rep.Latency, err = measureLatency(cfg, direct, shim); err != nil {
		return rep, err
	}
	// 2 messages per round trip, plus initialize, its answer and initialized.
	if err := checkJudged(socket, shim.pid(), uint64(2*(cfg.Warmup+cfg.N)+3)); err != nil {
		return rep, err
	}
	if err := errors.Join(record(shim.pid(), "shim", whenLatency), record(fd.pid(), "flowd", whenLatency)); err != nil {
		return rep, err
	}

	progress("throughput: 1 warm-up + %d timed %d-byte results per side", cfg.Runs, resultBytes)
	if rep.Throughput, err = measureThroughput(cfg, direct, shim); err != nil {
		return rep, err
	}
	if err := errors.Join(record(shim.pid(), "shim", whenThroughput), record(fd.pid(), "flowd", whenThroughput)); err != nil {
		return rep, err
	}
	// A shim that had to apply fail_mode says so on stderr, and its
	// figures would not include flowd.
	if s := strings.TrimSpace(shim.stderr.String()); s != "" {
		return rep, fmt.Errorf("the shim reported trouble, so its figures may not include flowd: %s", s)
	}
	rep.Targets = targets(rep)
	return rep, nil
}

// side is one way of reaching the server.
type side struct {
	c       *rpcClient
	samples []time.Duration
}

// measureLatency alternates blocks of round trips between the two sides,
// flipping which goes first, so drift and noise on a shared machine fall on
// both alike.
func measureLatency(cfg Config, direct, shim *rpcClient) (Latency, error) {
	msg := message(messageBytes)
	for range cfg.Warmup {
		for _, c := range []*rpcClient{direct, shim} {
			if _, err := c.echo(msg); err != nil {
				return Latency{}, err
			}
		}
	}
	d := &side{c: direct, samples: make([]time.Duration, 0, cfg.N)}
	s := &side{c: shim, samples: make([]time.Duration, 0, cfg.N)}
	for b := range cfg.Blocks {
		k := cfg.N / cfg.Blocks
		if b < cfg.N%cfg.Blocks {
			k++
		}
		order := []*side{d, s}
		if b%2 == 1 {
			order = []*side{s, d}
		}
		for _, sd := range order {
			for range k {
				rt, err := sd.c.echo(msg)
				if err != nil {
					return Latency{}, err
				}
				sd.samples = append(sd.samples, rt)
			}
		}
	}
	l := Latency{N: cfg.N, Warmup: cfg.Warmup, Blocks: cfg.Blocks, RequestBytes: len(echoRequest(1, msg)),
		Direct: percentiles(d.samples), Shim: percentiles(s.samples)}
	l.Added = l.Shim.minus(l.Direct)
	l.Ratio = l.Shim.over(l.Direct)
	return l, nil
}

// measureThroughput times whole 10 MB results, alternating sides run by run.
func measureThroughput(cfg Config, direct, shim *rpcClient) (Throughput, error) {
	t := Throughput{Runs: cfg.Runs, ResultBytes: resultBytes}
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
	return t, nil
}

// checkJudged makes sure flowd saw every message of the shim: a shim that
// lost flowd passes messages unchecked and would flatter the figures.
func checkJudged(socket string, shimPID int, want uint64) error {
	st, err := localapi.NewClient(socket, 5*time.Second).Status()
	if err != nil {
		return fmt.Errorf("ask flowd for its status: %w", err)
	}
	for _, s := range st.Shims {
		if s.PID == shimPID {
			if s.Messages < want {
				return fmt.Errorf("flowd judged %d messages of the shim, want at least %d: the rest passed unchecked", s.Messages, want)
			}
			return nil
		}
	}
	return fmt.Errorf("the shim (pid %d) is not connected to flowd; its figures would not include flowd", shimPID)
}

// message is n bytes of plain text: nothing a secret scanner would flag and
// nothing JSON must escape.
func message(n int) string {
	const words = "the quick brown fox jumps over the lazy dog while flowd watches the stream "
	return strings.Repeat(words, n/len(words)+1)[:n]
}

// benchEnv is the environment of every process the benchmark starts: the
// user's, without any FLOWD_ setting that could point at their own flowd.
func benchEnv(socket, dataDir, cfgFile string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "FLOWD_") {
			env = append(env, kv)
		}
	}
	return append(env, "FLOWD_SOCKET="+socket, "FLOWD_DATA_DIR="+dataDir, "FLOWD_CONFIG="+cfgFile,
		"FLOWD_SESSION=flowd-bench")
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
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(b)); len(f) >= 3 {
			m.LoadAvg = strings.Join(f[:3], " ")
		}
	}
	return m
}
