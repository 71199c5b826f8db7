package daemon

import (
	"fmt"
	"strings"
	"testing"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/shimproto"
)

// BenchmarkJudgeEcho is flowd's work for one 1 KB tools/call round trip
// (the request's verdict, then the response's verdict and its recording)
// in a session that already holds 1,500 results, with and without the
// prompt-injection scan of the result.
func BenchmarkJudgeEcho(b *testing.B) {
	b.Run("injection", func(b *testing.B) { benchJudgeEcho(b, true) })
	b.Run("no_injection", func(b *testing.B) { benchJudgeEcho(b, false) })
}

func benchJudgeEcho(b *testing.B, scan bool) {
	d := testDaemon(&testing.T{}, nil)
	cfg := config.Default()
	cfg.Injection.Enabled = scan
	if err := d.Reload(cfg); err != nil {
		b.Fatal(err)
	}
	u := newUpstream(1, shimproto.Hello{Name: "testserver"}, "s")
	for i := range 1500 {
		callAndAnswer(d, u, i+1, "echo", `{"message":"x"}`, fmt.Sprintf("result %d: %s", i, strings.Repeat("lorem ipsum dolor sit amet ", 100)))
	}
	words := strings.Fields("the quick brown fox jumps over a lazy dog while seven wizards quietly judge boxing matches near the old harbour")
	var sb strings.Builder
	for i := 0; sb.Len() < 1024; i++ {
		sb.WriteString(words[(i*7)%len(words)] + " ")
	}
	msg := sb.String()
	req := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%%d,"method":"tools/call","params":{"name":"echo","arguments":{"message":"%s"}}}`+"\n", msg))
	resp := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%%d,"result":{"content":[{"type":"text","text":"%s"}]}}`+"\n", msg))
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		id := 100000 + i
		judge(d, u, shimproto.Message{Dir: c2s, Data: []byte(fmt.Sprintf(string(req), id))})
		judge(d, u, shimproto.Message{Dir: s2c, Data: []byte(fmt.Sprintf(string(resp), id))})
	}
}

// BenchmarkJudge10MB is flowd's work for a tools/call whose result is one
// 10 MB text: envelope, injection scan, origin recording.
func BenchmarkJudge10MB(b *testing.B) {
	d := testDaemon(&testing.T{}, nil)
	u := newUpstream(1, shimproto.Hello{Name: "testserver"}, "s")
	big := []byte(`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"` + strings.Repeat("x", 10_000_000) + `"}]}}` + "\n")
	req := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"bytes","arguments":{"n":10000000}}}` + "\n")
	for b.Loop() {
		judge(d, u, shimproto.Message{Dir: c2s, Data: req})
		judge(d, u, shimproto.Message{Dir: s2c, Data: big})
	}
}
