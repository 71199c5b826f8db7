package flow

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/unwrap"
)

// BenchmarkCheckKnownSecrets is Check of benign calls to an external tool
// (views made beforehand) in a session that read the twelve secrets of
// the pieces8 set: what comparing the call with the secrets it knows
// costs a call that carries none. One session a call shape; each call
// goes to a server of its own, so no pieces are joined.
//
//	go test ./internal/flow -run xxx -bench CheckKnownSecrets -cpu 1
func BenchmarkCheckKnownSecrets(b *testing.B) {
	small := `{"channel":"#ops","text":"deploy done: https://ci.example.org/runs/4811?tab=logs"}`
	kb := `{"to":"team@partner.example","subject":"weekly sync","body":"Hi all, notes from Tuesday: the build for release 2.14.1 (commit 4f1c2a9e8b7d6c5a4f3e2d1c0b9a8f7e6d5c4b3a) passed; trace 5b8e2c1a-7d4f-4e9b-a3c2-1f0e9d8c7b6a is the slow request. Dashboard: https://grafana.example.net/d/a1B2c3D4e5/api-latency?orgId=1&from=now-7d&var-service=checkout. Integrity sha512-Vq3d8Yx1Qm0pL7rT2bN6kJ4hF9sW5cE3aZ8uI1oP6yR2tG7vB0nM4xK9jH3fD5sA1qW8eR6tY2uI0oP9lK7jH5gF3dS1aZ== matches. Tickets OPS-4411, OPS-4412 and OPS-4419 are closed; next step is the migration of the billing tables, owner: dana. Thanks!"}`
	for _, c := range []struct{ name, args string }{{"small", small}, {"1KB", kb}} {
		b.Run(c.name, func(b *testing.B) {
			tr := NewTracker(Options{}, detector(&testing.T{}))
			s := tr.Session("bench")
			for i, sec := range pieces8Secrets(rand.New(rand.NewSource(8))) {
				s.Begin()
				s.Record(Origin{Server: "vault", Tool: "read", Class: classify.Internal}, []byte(pieces8Origin(i, sec)))
			}
			s.Wait()
			args := []byte(c.args)
			views := unwrap.Views(args)
			ext := classify.Result{Class: classify.External}
			n := 0
			for b.Loop() {
				n++
				if a := s.Check(fmt.Sprint("mail", n), "send", ext, args, views, nil); len(a.Secrets) > 0 {
					b.Fatal("a benign call rated as carrying a secret")
				}
			}
		})
	}
}
