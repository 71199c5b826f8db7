package selfguard

import "testing"

// BenchmarkCheckCommand is a Bash command of ten words or so, every one
// looked at for a path into flowd's files.
func BenchmarkCheckCommand(b *testing.B) {
	g := Current("/home/u/.config/flowd/config.toml", b.TempDir(), "/tmp/flowd-1000/flowd.sock")
	a := Action{Tool: "Bash", Commands: []string{`git commit -m "fix the parser so that it reads quoted words in nested substitutions and keeps their order" && go test ./internal/shellnorm/... ./internal/selfguard/... -run TestX -count=1 | tee /tmp/out.log`}, Dir: b.TempDir()}
	for b.Loop() {
		g.Check(a)
	}
}
