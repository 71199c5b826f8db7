//go:build unix

package daemon

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/approval"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/judge/judgetest"
	"github.com/flowd-dev/flowd/internal/shimproto"
	"github.com/flowd-dev/flowd/internal/upstream"
)

var (
	liveFor  = flag.Duration("live.for", 10*time.Second, "BenchmarkLiveFeedLoad: how long each phase runs")
	liveRate = flag.Int("live.rate", 1000, "BenchmarkLiveFeedLoad: decisions per second")
	liveTabs = flag.Int("live.tabs", 10, "BenchmarkLiveFeedLoad: live readers in the second phase")
)

// liveReadersEnv makes the test binary the readers' process of
// BenchmarkLiveFeedLoad: its value is their login URLs.
const liveReadersEnv = "FLOWD_LIVE_READERS"

func TestMain(m *testing.M) {
	if urls := os.Getenv(liveReadersEnv); urls != "" {
		os.Exit(runLiveReaders(strings.Fields(urls), os.Stdin, os.Stdout))
	}
	approval.UseTestCost()
	os.Exit(m.Run())
}

// BenchmarkLiveFeedLoad is the dashboard under load, in one run of a
// real flowd: decisions made at -live.rate per second for -live.for
// without a reader, then as long again with -live.tabs dashboard tabs on
// Live, then without again. The tabs are another process, as a browser
// is, each logged in through the loopback listener and reading
// /api/v1/events. It reports the verdict time of each phase (a call and
// its result judged, as the shim asks), and for the tabs the events each
// got per second, the records they missed, the tabs that fell behind,
// and how long after its decision a record reached them. It runs once
// whatever -benchtime says:
//
//	go test ./internal/daemon -run '^$' -bench LiveFeedLoad -benchtime 1x
func BenchmarkLiveFeedLoad(b *testing.B) {
	d, socket, _ := serving(b, config.Default())
	var stream int
	decide := func(name string) []time.Duration {
		var took []time.Duration
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		start := time.Now()
		perTick := *liveRate / 100
		var u *upstream.Stream
		for i := 0; time.Since(start) < *liveFor; {
			<-tick.C
			// Catch up on ticks a slow round missed, so the rate holds.
			want := int(time.Since(start)/(10*time.Millisecond)) * perTick
			for ; i < want; i++ {
				if i%1000 == 0 { // a session of a thousand calls, as an agent's long session
					stream++
					u = upstream.NewStream(uint64(stream), shimproto.Hello{Name: "fetch"}, fmt.Sprintf("bench-%d", stream))
				}
				t0 := time.Now()
				judgetest.CallAndAnswer(d.judge, u, i, "fetch", `{"url":"https://example.org/a"}`, "hello")
				took = append(took, time.Since(t0))
			}
		}
		b.Logf("%s: %d decisions in %v (%.0f/s)", name, len(took), time.Since(start).Round(time.Millisecond),
			float64(len(took))/time.Since(start).Seconds())
		return took
	}

	before := decide("without tabs")

	var urls []string
	for range *liveTabs {
		u, err := flowdclient.NewClient(socket, 10*time.Second).UILogin()
		if err != nil {
			b.Fatal(err)
		}
		urls = append(urls, u)
	}
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	tabsProc := exec.Command(self)
	tabsProc.Env = append(os.Environ(), liveReadersEnv+"="+strings.Join(urls, " "))
	tabsProc.Stderr = os.Stderr
	toTabs, _ := tabsProc.StdinPipe()
	fromTabs, _ := tabsProc.StdoutPipe()
	if err := tabsProc.Start(); err != nil {
		b.Fatal(err)
	}
	defer tabsProc.Process.Kill()
	out := bufio.NewReader(fromTabs)
	if line, err := out.ReadString('\n'); line != "ready\n" {
		b.Fatalf("the tabs did not start: %q %v", line, err)
	}
	// Each stream subscribes before it answers, so they all read now.
	if n := d.events.Len(); n != *liveTabs {
		b.Fatalf("%d live streams, want %d", n, *liveTabs)
	}
	firstID := newest(b, d)
	tabs := decide(fmt.Sprintf("with %d tabs", *liveTabs))
	lastID := newest(b, d)
	fmt.Fprintf(toTabs, "%d %d\n", firstID, lastID)
	var got []tabResult
	if err := json.NewDecoder(out).Decode(&got); err != nil {
		b.Fatalf("the tabs' results: %v", err)
	}
	if err := tabsProc.Wait(); err != nil {
		b.Fatalf("the tabs' process: %v", err)
	}
	after := decide("without tabs, again")

	want := int(lastID - firstID)
	if want != len(tabs) {
		b.Errorf("%d records committed for %d decisions", want, len(tabs))
	}
	var delays []time.Duration
	var n, missed, lagged int
	for i, r := range got {
		if r.Err != "" {
			b.Errorf("tab %d: %s", i, r.Err)
		}
		n += len(r.Delays)
		missed += want - len(r.Delays)
		if r.Lagged {
			lagged++
		}
		delays = append(delays, r.Delays...)
	}
	secs := liveFor.Seconds()
	b.ReportMetric(float64(n)/float64(len(got))/secs, "events/s/tab")
	b.ReportMetric(float64(missed), "missed")
	b.ReportMetric(float64(lagged), "lagged-tabs")
	b.ReportMetric(ms(pct(delays, 50)), "delay-p50-ms")
	b.ReportMetric(ms(pct(delays, 99)), "delay-p99-ms")
	for _, p := range []struct {
		name string
		took []time.Duration
	}{{"none", before}, {"tabs", tabs}, {"none2", after}} {
		b.ReportMetric(us(pct(p.took, 50)), "verdict-p50-us-"+p.name)
		b.ReportMetric(us(pct(p.took, 99)), "verdict-p99-us-"+p.name)
	}
	b.Logf("%d tabs: %d records committed while they read, each tab got %.0f/s; %d missed, %d tabs lagged; delivery p50 %v, p99 %v",
		len(got), want, float64(n)/float64(len(got))/secs, missed, lagged, pct(delays, 50), pct(delays, 99))
}

// tabResult is what one tab saw of the records committed while it read:
// how long after its decision each reached it.
type tabResult struct {
	Delays []time.Duration `json:"delays"`
	Lagged bool            `json:"lagged"` // it fell behind and was dropped
	Err    string          `json:"err,omitempty"`
}

// runLiveReaders is the tabs' process: it logs in with each URL, reads
// the live stream of tool calls, says "ready" once every stream is
// open, and, told the first and last record IDs of the measured phase,
// waits (bounded) until each tab has the last one, then writes what each
// saw as JSON.
func runLiveReaders(urls []string, in io.Reader, out io.Writer) int {
	type tab struct {
		mu     sync.Mutex
		ids    []uint64
		delays []time.Duration
		lagged bool
		err    error
		done   bool
	}
	tabs := make([]*tab, len(urls))
	var bodies []io.Closer
	for i, u := range urls {
		jar, _ := cookiejar.New(nil)
		hc := &http.Client{Jar: jar}
		resp, err := hc.Get(u)
		if err != nil {
			fmt.Fprintln(os.Stderr, "login:", err)
			return 1
		}
		resp.Body.Close()
		resp, err = hc.Get(strings.SplitN(u, "/login", 2)[0] + "/api/v1/events?type=tool_call")
		if err != nil || resp.StatusCode != http.StatusOK {
			fmt.Fprintln(os.Stderr, "events:", err, resp)
			return 1
		}
		bodies = append(bodies, resp.Body)
		t := &tab{}
		tabs[i] = t
		go func() {
			sc := bufio.NewScanner(resp.Body)
			sc.Buffer(nil, 1<<20)
			event := ""
			for sc.Scan() {
				line := sc.Text()
				switch {
				case strings.HasPrefix(line, "event: "):
					event = line[len("event: "):]
				case strings.HasPrefix(line, "data: ") && event == "activity":
					var rec struct {
						ID   uint64    `json:"id"`
						Time time.Time `json:"time"`
					}
					err := json.Unmarshal([]byte(line[len("data: "):]), &rec)
					t.mu.Lock()
					t.ids = append(t.ids, rec.ID)
					t.delays = append(t.delays, time.Since(rec.Time))
					t.err = err
					t.mu.Unlock()
				}
				if event == "lagged" {
					t.mu.Lock()
					t.lagged = true
					t.mu.Unlock()
				}
			}
			t.mu.Lock()
			t.done = true
			t.mu.Unlock()
		}()
	}
	fmt.Fprintln(out, "ready")
	var first, last uint64
	if _, err := fmt.Fscan(in, &first, &last); err != nil {
		fmt.Fprintln(os.Stderr, "the measured IDs:", err)
		return 1
	}
	deadline := time.Now().Add(time.Minute)
	var results []tabResult
	for _, t := range tabs {
		for {
			t.mu.Lock()
			finished := t.done || t.lagged || len(t.ids) > 0 && t.ids[len(t.ids)-1] >= last
			t.mu.Unlock()
			if finished || time.Now().After(deadline) {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		t.mu.Lock()
		r := tabResult{Lagged: t.lagged}
		if t.err != nil {
			r.Err = t.err.Error()
		}
		for i, id := range t.ids {
			if id > first && id <= last {
				r.Delays = append(r.Delays, t.delays[i])
			}
		}
		t.mu.Unlock()
		results = append(results, r)
	}
	for _, b := range bodies {
		b.Close()
	}
	if err := json.NewEncoder(out).Encode(results); err != nil {
		return 1
	}
	return 0
}

// newest is the ID of the newest record, once every record made so far
// is committed.
func newest(b *testing.B, d *Daemon) uint64 {
	if err := d.store.Flush(); err != nil {
		b.Fatal(err)
	}
	recs, err := d.store.Query(activity.Filter{Limit: 1})
	if err != nil || len(recs) == 0 {
		b.Fatalf("the newest record: %v (%d)", err, len(recs))
	}
	return recs[0].ID
}

func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
