package upstream

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/cputime"
	"github.com/flowd-dev/flowd/internal/judge/judgetest"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

// BenchmarkJudgeEcho is flowd's work for one 1 KB tools/call round trip
// (the request's verdict, then the response's verdict and its recording)
// in a session that already holds 1,500 results, with and without the
// prompt-injection scan of the result.
//
// The cold cases are what the shim waits for. flowd sleeps between the
// messages of a call while the shim, the client and the server run, and
// wakes with little of its code and data cached; a 16 MB sweep before
// each message stands in for them. They report the time to each verdict
// (req-µs, resp-µs), the work after the verdict left out, for the text
// `go run ./bench` echoes (no word the injection rules key on) and for
// prose that has such words, as most results do; and for the echo text
// sent to an external destination, as the bench's slack side does.
func BenchmarkJudgeEcho(b *testing.B) {
	words := strings.Fields("the quick brown fox jumps over a lazy dog while seven wizards quietly judge boxing matches near the old harbour")
	var sb strings.Builder
	for i := 0; sb.Len() < 1024; i++ {
		sb.WriteString(words[(i*7)%len(words)] + " ")
	}
	msg := sb.String()
	b.Run("injection", func(b *testing.B) { benchJudgeEcho(b, "testserver", msg, true, false) })
	b.Run("no_injection", func(b *testing.B) { benchJudgeEcho(b, "testserver", msg, false, false) })
	plain := strings.Repeat("the quick brown fox jumps over the lazy dog while flowd watches the stream ", 14)[:1024]
	prose := strings.Repeat("Hi team, thanks for your reply. The quarterly review found that response times improved after "+
		"the cache moved closer to the database. Please read the attached report before the meeting and send your "+
		"comments to the project channel. ", 5)[:1024]
	b.Run("cold_plain", func(b *testing.B) { benchJudgeEcho(b, "testserver", plain, true, true) })
	b.Run("cold_prose", func(b *testing.B) { benchJudgeEcho(b, "testserver", prose, true, true) })
	// An external destination: the request's verdict waits for the flow check.
	b.Run("cold_plain_external", func(b *testing.B) { benchJudgeEcho(b, "slack", plain, true, true) })
}

// evict empties the caches by touching sweep, a buffer larger than them.
func evict(sweep []byte) {
	for i := 0; i < len(sweep); i += 64 {
		sweep[i]++
	}
}

func benchJudgeEcho(b *testing.B, server, msg string, scan, cold bool) {
	d := newEnv(&testing.T{}, nil)
	cfg := config.Default()
	cfg.Injection.Enabled = scan
	if err := d.Reload(cfg); err != nil {
		b.Fatal(err)
	}
	u := NewStream(1, shimproto.Hello{Name: server}, "s")
	for i := range 1500 {
		judgetest.CallAndAnswer(d.judge, u, i+1, "echo", `{"message":"x"}`, fmt.Sprintf("result %d: %s", i, strings.Repeat("lorem ipsum dolor sit amet ", 100)))
	}
	req := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%%d,"method":"tools/call","params":{"name":"echo","arguments":{"message":"%s"}}}`+"\n", msg))
	resp := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%%d,"result":{"content":[{"type":"text","text":"%s"}]}}`+"\n", msg))
	if cold {
		sweep := make([]byte, 16<<20)
		var toVerdict [2]time.Duration
		n := 0
		for i := 0; b.Loop(); i++ {
			id := 100000 + i
			for k, m := range []shimproto.Message{
				{Dir: c2s, Data: []byte(fmt.Sprintf(string(req), id))},
				{Dir: s2c, Data: []byte(fmt.Sprintf(string(resp), id))},
			} {
				b.StopTimer()
				evict(sweep)
				b.StartTimer()
				start := time.Now()
				_, after := u.Judge(d.judge, m)
				toVerdict[k] += time.Since(start)
				if after != nil {
					after()
				}
			}
			n++
		}
		b.ReportMetric(float64(toVerdict[0].Microseconds())/float64(n), "req-µs")
		b.ReportMetric(float64(toVerdict[1].Microseconds())/float64(n), "resp-µs")
		return
	}
	for i := 0; b.Loop(); i++ {
		id := 100000 + i
		judgeMsg(d, u, shimproto.Message{Dir: c2s, Data: []byte(fmt.Sprintf(string(req), id))})
		judgeMsg(d, u, shimproto.Message{Dir: s2c, Data: []byte(fmt.Sprintf(string(resp), id))})
	}
}

// BenchmarkJudge10MB is flowd's work for a tools/call whose result is one
// 10 MB text: envelope, injection scan, origin recording.
func BenchmarkJudge10MB(b *testing.B) {
	d := newEnv(&testing.T{}, nil)
	u := NewStream(1, shimproto.Hello{Name: "testserver"}, "s")
	big := []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", 10_000_000) + `"}]}}` + "\n")
	req := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"bytes","arguments":{"n":10000000}}}` + "\n")
	for b.Loop() {
		judgeMsg(d, u, shimproto.Message{Dir: c2s, Data: req})
		judgeMsg(d, u, shimproto.Message{Dir: s2c, Data: big})
	}
}

// BenchmarkJudgeGranted is flowd's whole work for one 1 KB echo call sent
// on under a grant, as `go run ./bench` makes its internal side's calls,
// in the order the connection runs it (Hub.Serve): the forwarded call's
// judgement, the result's verdict, the call's held check, and the
// result's recording and records on the background worker. cpu-µs/op is
// the process's CPU time per call, the background's and the collector's
// included, which a wall-clock figure on a shared machine cannot give.
func BenchmarkJudgeGranted(b *testing.B) {
	d := newEnv(b, nil)
	cfg := config.Default()
	cfg.Classify.Servers = map[string]string{"bench-notes": "internal"} // as the bench's config says
	require.NoError(b, d.Reload(cfg))
	u := NewStream(1, shimproto.Hello{Name: "bench-notes"}, "s")
	u.grants.send = func(shimproto.Grant) error { return nil }
	for i := range 1500 {
		judgetest.CallAndAnswer(d.judge, u, i+1, "echo", `{"message":"x"}`, fmt.Sprintf("result %d: %s", i, strings.Repeat("lorem ipsum dolor sit amet ", 100)))
	}
	require.True(b, u.grants.has("echo"), "the echo tool is granted")
	msg := strings.Repeat("the quick brown fox jumps over the lazy dog while a daemon watches the stream ", 14)[:1024]
	req := fmt.Sprintf(`{"jsonrpc":"2.0","id":%%d,"method":"tools/call","params":{"name":"echo","arguments":{"message":"%s"}}}`+"\n", msg)
	resp := fmt.Sprintf(`{"jsonrpc":"2.0","id":%%d,"result":{"content":[{"type":"text","text":"%s"}]}}`+"\n", msg)
	sess := d.flows.Session("s")
	sess.Wait()
	var reqs, resps [][]byte
	for i := range 4096 {
		reqs = append(reqs, []byte(fmt.Sprintf(req, 100000+i)))
		resps = append(resps, []byte(fmt.Sprintf(resp, 100000+i)))
	}
	cpu := cputime.Process()
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		k := n % len(reqs)
		_, held := u.Judge(d.judge, shimproto.Message{Seq: uint64(2 * n), Dir: c2s, Data: reqs[k], Forwarded: true})
		_, after := u.Judge(d.judge, shimproto.Message{Seq: uint64(2*n + 1), Dir: s2c, Data: resps[k]})
		if held != nil {
			held()
		}
		if after != nil {
			d.judge.Later(after)
		}
		n++
	}
	sess.Wait()
	b.ReportMetric(float64((cputime.Process()-cpu).Nanoseconds())/1000/float64(max(n, 1)), "cpu-µs/op")
	if u.forwarded != uint64(n) {
		b.Fatalf("%d calls forwarded, want %d", u.forwarded, n)
	}
}
