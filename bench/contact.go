package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/paths"
)

// Contact is one burst of shims started at once against one flowd: how
// long each took from its start to the answer to its first request, which
// waits for the shim's first contact with flowd (the shim relays nothing
// before it), and what the burst cost in CPU.
type Contact struct {
	Shims int `json:"shims"`
	// FirstAnswer: from starting the shim to the answer to initialize.
	P50MS float64 `json:"p50_ms"`
	P95MS float64 `json:"p95_ms"`
	MaxMS float64 `json:"max_ms"`
	// Judged: echo calls answered by the server, each after flowd's
	// verdict; Blocked: refused because flowd was not answering.
	Judged  int `json:"judged"`
	Blocked int `json:"blocked"`
	// NotAnswering: shims that said flowd was not answering or
	// unreachable, at first contact or later.
	NotAnswering int `json:"not_answering"`
	// Unanswered: shims whose initialize or echo call got no answer
	// within contactStall (and were killed); their first answer counts as
	// contactStall, a lower bound.
	Unanswered int `json:"unanswered"`
	// FlowdCPUMS: flowd's CPU time over the burst (Linux, from /proc; -1
	// elsewhere); ShimsCPUMS: the shims' and their servers', from wait.
	FlowdCPUMS float64 `json:"flowd_cpu_ms"`
	ShimsCPUMS float64 `json:"shims_cpu_ms"`
	LoadAvg    string  `json:"load_avg"`
}

// contactStall is how long a shim of the burst may take to answer: fifty
// race-built shims and servers starting at once on a loaded two-core
// machine take longer than stallTimeout to start.
const contactStall = 2 * time.Minute

// runContact builds or finds the binaries and runs the burst runs times,
// each against a fresh flowd.
func runContact(binDir string, shims, runs int) ([]Contact, error) {
	tmp, err := os.MkdirTemp("", "flowd-contact-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	bins, err := binariesFrom(binDir, tmp, func() { fmt.Fprintln(os.Stderr, "bench: building the binaries…") })
	if err != nil {
		return nil, err
	}
	var out []Contact
	for i := range runs {
		fmt.Fprintf(os.Stderr, "bench: burst %d of %d: %d shims at once\n", i+1, runs, shims)
		c, err := contactRun(bins, filepath.Join(tmp, "run-"+strconv.Itoa(i)), shims)
		if err != nil {
			return out, fmt.Errorf("burst %d: %w", i+1, err)
		}
		out = append(out, c)
	}
	return out, nil
}

// contactRun starts a flowd with the default config (its 5 s verdict
// timeout included) and shims shims at once, each sending initialize and
// an echo call the moment it starts, as a host does.
func contactRun(bins binaries, dir string, shims int) (res Contact, err error) {
	res.Shims = shims
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return res, err
	}
	own, err := paths.OwnUnder(dir)
	if err != nil {
		return res, err
	}
	socket, dataDir, cfgFile := own.Socket, own.DataDir, own.ConfigFile
	if err := os.WriteFile(cfgFile, config.DefaultTOML(), 0o600); err != nil {
		return res, err
	}
	env := benchEnv(own)
	fd, err := startFlowd(bins.flowd, socket, dataDir, cfgFile, env)
	if err != nil {
		return res, err
	}
	defer func() { err = errors.Join(err, fd.stop()) }()
	cpu0, cpuErr := processCPU(fd.pid())

	took := make([]time.Duration, shims)
	clients := make([]*rpcClient, shims)
	errs := make([]error, shims)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range shims {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			t0 := time.Now()
			c, err := startClient(fmt.Sprintf("shim %d", i), []string{bins.shim, "--no-autostart", "--socket", socket,
				"--name", fmt.Sprintf("contact-%d", i), "--", bins.testserver}, env)
			if err != nil {
				errs[i] = err
				return
			}
			clients[i] = c
			c.stall = contactStall
			if err := c.handshake(); err != nil {
				took[i] = contactStall
				res.count(&res.Unanswered)
				return
			}
			took[i] = time.Since(t0)
			id := c.id()
			msg := fmt.Sprintf("first call of shim %d", i)
			line, _, err := c.roundTrip(echoRequest(id, msg))
			switch {
			case err != nil:
				res.count(&res.Unanswered)
			case echoed(line, id, msg):
				res.count(&res.Judged)
			case refusedCall(line, id):
				res.count(&res.Blocked)
			default:
				errs[i] = fmt.Errorf("shim %d: unexpected answer to its echo call: %.300s", i, line)
			}
		}()
	}
	close(start)
	wg.Wait()
	cpu1, _ := processCPU(fd.pid())
	res.LoadAvg = loadAvg()
	for _, c := range clients {
		if c == nil {
			continue
		}
		c.close() // a shim killed for not answering exits badly: counted above
		if st := c.cmd.ProcessState; st != nil {
			res.ShimsCPUMS += ms(st.UserTime() + st.SystemTime())
		}
		if s := c.stderr.String(); strings.Contains(s, "not answering") || strings.Contains(s, "unreachable") {
			res.NotAnswering++
		}
	}
	res.FlowdCPUMS = -1
	if cpuErr == nil {
		res.FlowdCPUMS = ms(cpu1 - cpu0)
	}
	s := slices.Clone(took)
	slices.Sort(s)
	res.P50MS, res.P95MS, res.MaxMS = rank(s, 50)/1000, rank(s, 95)/1000, ms(s[len(s)-1])
	return res, errors.Join(errs...)
}

var contactMu sync.Mutex

// count adds one to a counter of c, which the shims' goroutines share.
func (c *Contact) count(n *int) {
	contactMu.Lock()
	*n++
	contactMu.Unlock()
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func printContact(w *os.File, cs []Contact, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(cs)
	}
	fmt.Fprintln(w, "| burst | shims | first answer p50 | p95 | max | judged | blocked | unanswered | shims saying not answering | flowd CPU | shims+servers CPU | load avg |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|")
	var p50, p95, mx, fcpu, scpu []float64
	for i, c := range cs {
		fmt.Fprintf(w, "| %d | %d | %.0f ms | %.0f ms | %.0f ms | %d | %d | %d | %d | %.0f ms | %.0f ms | %s |\n", i+1, c.Shims, c.P50MS, c.P95MS, c.MaxMS,
			c.Judged, c.Blocked, c.Unanswered, c.NotAnswering, c.FlowdCPUMS, c.ShimsCPUMS, c.LoadAvg)
		p50, p95, mx = append(p50, c.P50MS), append(p95, c.P95MS), append(mx, c.MaxMS)
		fcpu, scpu = append(fcpu, c.FlowdCPUMS), append(scpu, c.ShimsCPUMS)
	}
	fmt.Fprintf(w, "| median | | %.0f ms | %.0f ms | %.0f ms | | | | | %.0f ms | %.0f ms | |\n",
		spread(p50).Median, spread(p95).Median, spread(mx).Median, spread(fcpu).Median, spread(scpu).Median)
	return nil
}
