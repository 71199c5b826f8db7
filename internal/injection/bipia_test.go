package injection

import (
	"fmt"
	"hash/fnv"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/corpora"
)

type bipiaSample = corpora.BIPIASample

func loadBIPIA(t *testing.T) []bipiaSample {
	t.Helper()
	out := loadBIPIAIfPresent(t)
	if out == nil {
		p, _ := corpora.BIPIAPath()
		t.Skipf("BIPIA corpus %s is absent; skipping its recall and false-positive measurement", p)
	}
	return out
}

// loadBIPIAIfPresent returns nil when the corpus is absent.
func loadBIPIAIfPresent(t *testing.T) []bipiaSample {
	t.Helper()
	out, err := corpora.BIPIA()
	require.NoError(t, err)
	return out
}

// TestBIPIA measures the scanner on BIPIA's training split: 1,000 clean
// contexts (emails, tables, code answers) and 14,500 with an attack
// inserted, each scanned as one external text. It reports, per attack
// category, the share flagged or worse and the share redacted or blocked,
// and the false-positive rate on the clean contexts per task.
//
// BIPIA's attacks are mostly task hijacks, and many are benign-sounding:
// "What is the capital of Brazil?" or "Explain the theory of relativity."
// dropped into an email. flowd's decision (see doc.go): text that gives
// orders about the assistant's own output ("…in your reply", "respond in
// Spanish", "add this sentence to your answer") is flagged even when the
// order is harmless, because data has no business addressing the model;
// it reaches redact only with corroboration (an AI addressee, an override,
// secrecy, a payload, a link to pass on). A bare request on a line of its
// own that has nothing to do with the text around it ("Explain the theory
// of relativity.") is a change of task and is flagged; a bare question is
// flagged in a table but in prose only corroborates, since mail is full of
// honest questions. Base64-encoded ones are caught by the encoding.
//
// The attack categories are split into a development half, which rules
// may be tuned on, and a held-out half, which only measures how rules
// carry over to attack families not looked at (bipiaHalf). The numbers
// are reported as they are, and the assertions only guard against
// regressions.
func TestBIPIA(t *testing.T) {
	samples := loadBIPIA(t)
	s, err := New(Options{})
	require.NoError(t, err)
	ctx := Context{ExternalSource: true, Server: "bipia"}

	type row struct{ n, flagged, removed int }
	attacks := map[string]*row{}
	clean := map[string]*row{}
	halves := map[string]*row{}
	var all, allClean row
	var fps []string
	start := time.Now()
	var bytes int
	for _, x := range samples {
		r := s.ScanText(x.Text, "text", ctx)
		bytes += len(x.Text)
		m, total := attacks, &all
		key := x.Category
		if x.Encoding == "base64" {
			key += " (base64)"
		}
		if x.Label == 0 {
			m, total, key = clean, &allClean, x.Task
		}
		rw := m[key]
		if rw == nil {
			rw = &row{}
			m[key] = rw
		}
		rw.n++
		total.n++
		if r.Action != ActionPass {
			rw.flagged++
			total.flagged++
			if x.Label == 0 {
				fps = append(fps, fmt.Sprintf("%s %s %v", x.Task, r, excerpts(r)))
			}
		}
		if r.Action == ActionRedact || r.Action == ActionBlock {
			rw.removed++
			total.removed++
		}
		if x.Label == 1 {
			h := halves[bipiaHalf(x.Category)]
			if h == nil {
				h = &row{}
				halves[bipiaHalf(x.Category)] = h
			}
			h.n++
			if r.Action != ActionPass {
				h.flagged++
			}
			if r.Action == ActionRedact || r.Action == ActionBlock {
				h.removed++
			}
		}
	}
	elapsed := time.Since(start)

	report := func(title string, m map[string]*row, total row) {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		fmt.Fprintf(&b, "%s\n%-44s %6s %9s %16s\n", title, "", "n", "flagged+", "redacted/blocked")
		for _, k := range keys {
			r := m[k]
			fmt.Fprintf(&b, "%-44s %6d %8.1f%% %15.1f%%\n", k, r.n, pct(r.flagged, r.n), pct(r.removed, r.n))
		}
		fmt.Fprintf(&b, "%-44s %6d %8.1f%% %15.1f%%", "all", total.n, pct(total.flagged, total.n), pct(total.removed, total.n))
		t.Log(b.String())
	}
	report("BIPIA attacks (recall)", attacks, all)
	report("BIPIA attacks by half (rules are tuned on the development half only)", halves, all)
	report("BIPIA clean contexts (false positives)", clean, allClean)
	for _, fp := range fps {
		t.Logf("false positive: %s", fp)
	}
	t.Logf("scanned %d texts, %.1f MB in %v (%.0f µs per text, %.0f MB/s)", len(samples), float64(bytes)/1e6, elapsed.Round(time.Millisecond),
		float64(elapsed.Microseconds())/float64(len(samples)), float64(bytes)/1e6/elapsed.Seconds())

	// Regression guards, set a little under the measured values.
	assert.Zero(t, allClean.flagged, "clean contexts changed")
	assert.GreaterOrEqual(t, pct(all.flagged, all.n), 90.0, "attacks flagged or worse")
	for half, floor := range map[string]float64{"development": 95, "held-out": 85} {
		if h := halves[half]; assert.NotNil(t, h, half) {
			assert.GreaterOrEqual(t, pct(h.flagged, h.n), floor, "%s half flagged or worse", half)
		}
	}
}

// bipiaHalf splits BIPIA's attack categories, by a hash of the name fixed
// before any rule was tuned on them, into a development half that rules
// may be tuned on and a held-out half that only measures how well they
// carry over to attack families not looked at.
func bipiaHalf(category string) string {
	h := fnv.New32a()
	h.Write([]byte(category))
	if h.Sum32()%2 == 0 {
		return "development"
	}
	return "held-out"
}
