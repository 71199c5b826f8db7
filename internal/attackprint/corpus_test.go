package attackprint

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/corpora"
	"github.com/flowd-dev/flowd/internal/injection"
)

// TestBIPIAKnownAttacksInNewPlaces measures what prints are for: an attack
// flowd caught once, met again inside another email, table or code answer.
// BIPIA inserts each attack into many contexts. For each attack the first
// context the scanner flags teaches a print; the next contexts (up to five)
// are the test: the share the scanner catches alone, and the share it
// catches with prints. False positives: BIPIA's clean contexts matched by
// any print.
func TestBIPIAKnownAttacksInNewPlaces(t *testing.T) {
	samples, err := corpora.BIPIA()
	require.NoError(t, err)
	if samples == nil {
		p, _ := corpora.BIPIAPath()
		t.Skipf("BIPIA corpus %s is absent; skipping the known-attack measurement", p)
	}
	sc, err := injection.New(injection.DefaultOptions())
	require.NoError(t, err)
	ctx := injection.Context{ExternalSource: true, Server: "bipia"}
	flagged := func(r injection.Result) bool { return r.Action != injection.ActionPass }

	s, err := Open(t.TempDir()+"/attacks.db", Options{})
	require.NoError(t, err)
	defer s.Close()

	const perAttack = 5
	learned := map[string]bool{}
	tested := map[string]int{}
	var total, scanner, withPrints, printsOnly int
	for _, x := range samples {
		if x.Label != 1 || x.Encoding != "" && x.Encoding != "none" {
			continue
		}
		if !learned[x.Attack] {
			r := sc.ScanResult([]byte(x.Text), ctx)
			if !flagged(r) {
				continue
			}
			spans := injection.Spans([]byte(x.Text), r)
			if p, ok := Make(spans, nil, r.Score, string(r.Action), seen); ok {
				_, err := s.Add(p)
				require.NoError(t, err)
				learned[x.Attack] = true
			}
			continue
		}
		if tested[x.Attack] == perAttack {
			continue
		}
		tested[x.Attack]++
		total++
		byScanner := flagged(sc.ScanResult([]byte(x.Text), ctx))
		_, byPrint := s.Match(x.Text)
		if byScanner {
			scanner++
		}
		if byScanner || byPrint {
			withPrints++
		}
		if byPrint && !byScanner {
			printsOnly++
		}
	}
	var clean, fp int
	for _, x := range samples {
		if x.Label != 0 {
			continue
		}
		clean++
		if m, ok := s.Match(x.Text); ok {
			fp++
			t.Logf("clean %s context matched print %s by %s", x.Task, m.Print.ID, m.How)
		}
	}
	t.Logf("prints learned from %d attacks; known attacks in new contexts: scanner %d/%d, scanner or prints %d/%d (prints alone %d); clean contexts matched: %d/%d",
		s.Len(), scanner, total, withPrints, total, printsOnly, fp, clean)
	require.NotZero(t, total)
	assert.GreaterOrEqual(t, withPrints, scanner)
	assert.GreaterOrEqual(t, float64(withPrints)/float64(total), 0.97, "a known attack is known again in a new place")
	assert.LessOrEqual(t, fp, clean/200, "at most 0.5 %% of clean contexts match a print")
}
