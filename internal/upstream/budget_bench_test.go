package upstream

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/cputime"
	"github.com/flowd-dev/flowd/internal/judge/judgetest"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

// BenchmarkVerdictCrafted is the time to the verdict on a tools/call to an
// external destination whose arguments are built to make flowd's matchers
// slow (issue 15's attack shapes), next to benign arguments of the same
// size, in a session that holds a GitHub token read internally and 2,048
// planted AWS-key-shaped strings from fetched pages. The default
// flow.check_budget (2 s) applies: a call it cuts short is denied. The
// first call builds the secrets' automaton. Besides the time to the
// verdict (worst-ms: the slowest of the calls), cpu-ms is the process's
// CPU time per call, which a busy machine does not inflate.
func BenchmarkVerdictCrafted(b *testing.B) {
	const token = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
	var planted strings.Builder
	for i := range 2048 {
		fmt.Fprintf(&planted, "AKIAQZ7XK2MV%08d ", i)
	}
	shapes := []struct{ name, unit string }{
		{"benign", "the quick brown fox jumps over the lazy dog while seven wizards judge "},
		{"secret_near_miss", token[:len(token)-1] + " "},
		{"hex_near_miss", hex.EncodeToString([]byte(token))[:2*len(token)-2]},
		{"planted_keys_hex", hex.EncodeToString([]byte(planted.String()[:21*64]))},
		{"assignments", "password="},
	}
	for _, size := range []int{1 << 10, 64 << 10, 1 << 20, 16 << 20} {
		for _, s := range shapes {
			b.Run(fmt.Sprintf("%s/%dKB", s.name, size>>10), func(b *testing.B) {
				d := newEnv(&testing.T{}, nil)
				if err := d.Reload(config.Default()); err != nil {
					b.Fatal(err)
				}
				fs := NewStream(1, shimproto.Hello{Name: "testserver"}, "s")
				judgetest.CallAndAnswer(d.judge, fs, 1, "read", `{}`, "GITHUB_TOKEN="+token)
				web := NewStream(2, shimproto.Hello{Name: "fetch"}, "s")
				for p := 0; p*60000 < planted.Len(); p++ {
					judgetest.CallAndAnswer(d.judge, web, 10+p, "fetch", `{}`, planted.String()[p*60000:min(planted.Len(), (p+1)*60000)])
				}
				slack := NewStream(3, shimproto.Hello{Name: "slack"}, "s")
				body := bytes.Repeat([]byte(s.unit), size/len(s.unit)+1)[:size]
				req := []byte(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"post_message","arguments":{"text":"` + string(body) + `"}}}` + "\n")
				var worst, cpu time.Duration
				denied, n := 0, 0
				for i := 0; b.Loop(); i++ {
					n++
					cpu0 := cputime.Process()
					m := shimproto.Message{Dir: c2s, Data: bytes.Replace(req, []byte("%d"), []byte(fmt.Sprint(1000+i)), 1)}
					start := time.Now()
					v, after := slack.Judge(d.judge, m)
					worst = max(worst, time.Since(start))
					cpu += cputime.Process() - cpu0
					if v.Action != shimproto.Pass {
						denied++
					}
					if after != nil {
						after()
					}
				}
				b.SetBytes(int64(size))
				b.ReportMetric(float64(worst.Microseconds())/1000, "worst-ms")
				b.ReportMetric(float64(worst.Microseconds())/1000/(float64(size)/(1<<20)), "worst-ms/MB")
				b.ReportMetric(float64(denied), "denied")
				// The CPU the process spent per verdict, a check cut short
				// and left to finish included when it finished in time.
				b.ReportMetric(float64(cpu.Microseconds())/1000/float64(max(n, 1)), "cpu-ms")
			})
		}
	}
}
