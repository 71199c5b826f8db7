package judge

import (
	"strings"
	"testing"

	"github.com/flowd-dev/flowd/internal/cputime"
)

// BenchmarkReadArgs is what reading a call's arguments for commands,
// fetches and credential reads adds to its verdict, by shape.
func BenchmarkReadArgs(b *testing.B) {
	prose := `{"message":"` + strings.Repeat("the quick brown fox jumps over the lazy dog ", 23) + `"}`
	script := `{"command":"` + strings.Repeat(`for f in *.go; do gofmt -l \"$f\" | grep -v vendor && echo ok; done; `, 50) + `"}`
	for _, c := range []struct{ name, tool, args, shell string }{
		{"prose_1KB", "echo", prose, ""},
		{"read_file", "read_file", `{"path":"/home/u/project/src/main.go"}`, ""},
		{"webfetch", "WebFetch", `{"url":"https://go.dev/doc/effective_go","prompt":"summarise"}`, ""},
		{"bash_short", "Bash", `{}`, "go test ./internal/... && git status --short"},
		{"exec_4KB", "run_command", script, ""},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.args) + len(c.shell)))
			cpu := cputime.Process()
			n := 0
			for b.Loop() {
				readArgs(c.tool, []byte(c.args), c.shell)
				n++
			}
			// CPU time, not wall time: the machine's other work says
			// nothing about this code.
			b.ReportMetric(float64((cputime.Process()-cpu).Nanoseconds())/1000/float64(max(n, 1)), "cpu-µs/op")
		})
	}
}
