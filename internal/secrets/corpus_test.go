package secrets

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/corpora"
)

// corpusDir finds ../shared/corpora beside the repository root.
func corpusDir(t *testing.T) string {
	t.Helper()
	dir, err := corpora.Dir()
	require.NoError(t, err)
	return dir
}

type sample struct {
	Label  string `json:"label"` // "tp" holds a secret, "fp" is a hard negative
	Path   string `json:"path"`
	RuleID string `json:"rule_id"`
	Text   string `json:"text"`
}

func loadSamples(t *testing.T) []sample {
	t.Helper()
	p := filepath.Join(corpusDir(t), "dev", "gitleaks-samples", "rule_samples.generated.jsonl")
	f, err := os.Open(p)
	if os.IsNotExist(err) {
		t.Skipf("secret corpus %s is absent; skipping recall/false-positive measurement", p)
	}
	require.NoError(t, err, "open secret corpus")
	defer f.Close()
	var out []sample
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var s sample
		require.NoError(t, json.Unmarshal(sc.Bytes(), &s), "decode %q", sc.Text())
		out = append(out, s)
	}
	require.NoError(t, sc.Err())
	return out
}

// TestCorpusRecallAndFalsePositives measures the detector on the gitleaks
// samples: 6,396 lines of code and config holding a secret, and 374 hard
// negatives.
//
// How the negatives are scored. Each negative is labelled for one rule: it
// says "this text holds no <rule> secret". Many are still credentials of
// another kind (a Cloudflare global key given as a negative for the
// origin-CA rule, a real JWT in a curl Basic header, a nuget password
// outside a nuget.config path), and some are documented example keys
// (AKIAIOSFODNN7EXAMPLE), which flowd must report by design. So:
//   - a finding marked Example is counted apart, never as a false positive:
//     AKIAIOSFODNN7EXAMPLE, keys built from counting sequences
//     ("abc123xyz-456def789…"), values shown elided ("ops_eyJz..."), and keys
//     gitleaks' allowlists name one by one as publicly known (15 Google API
//     keys, two documented nuget passwords) are all reported and marked;
//   - the asserted false-positive rate counts a negative when the detector
//     reports, unmarked, the kind the negative is about (the same type, or
//     anything at all for generic-api-key negatives, whose kind is "any
//     credential");
//   - the strict rate (any unmarked finding) is logged and bounded loosely,
//     so that the cross-kind findings stay visible.
//
// Positives with no text (rules on file names) are not counted, nor are
// negatives whose exact text is also a positive: the corpus labels that text
// both ways, by file path (the same nuget password is a positive in
// nuget.config and a negative in some.xml; flowd has no paths) or by rule
// (a Cloudflare global key is a negative for the origin-CA rule and a
// positive for its own).
func TestCorpusRecallAndFalsePositives(t *testing.T) {
	samples := loadSamples(t)
	d, err := New()
	require.NoError(t, err)

	positiveText := map[string]bool{}
	for _, s := range samples {
		if s.Label == "tp" {
			positiveText[s.Text] = true
		}
	}
	contradictory := 0

	type tally struct{ n, hit int }
	perRule := map[string]*tally{}
	byType := map[string]int{}
	var pos, found, neg, sameKind, strict, examples int
	var misses, fps, exampleNegs []string
	for _, s := range samples {
		fs := d.Scan(s.Text)
		for _, f := range fs {
			require.Equal(t, s.Text[f.Start:f.End], f.Value, "value must be the exact substring")
		}
		if s.Label == "tp" {
			if s.Text == "" {
				continue
			}
			pos++
			tl := perRule[s.RuleID]
			if tl == nil {
				tl = &tally{}
				perRule[s.RuleID] = tl
			}
			tl.n++
			if len(fs) > 0 {
				found++
				tl.hit++
				byType[fs[0].Type]++
			} else {
				misses = append(misses, s.RuleID+": "+clip(s.Text))
			}
			continue
		}
		neg++
		want := typeFor(s.RuleID)
		var any, same, ex bool
		for _, f := range fs {
			if f.Example {
				ex = true
				continue
			}
			any = true
			if f.Type == want || s.RuleID == "generic-api-key" {
				same = true
			}
		}
		if ex && !any {
			examples++
			exampleNegs = append(exampleNegs, s.RuleID+" -> "+fs[0].Type+" "+clip(fs[0].Value))
		}
		if any {
			strict++
			fps = append(fps, s.RuleID+" -> "+fs[0].Type+" "+fs[0].Rule+" "+clip(fs[0].Value)+" | "+clip(s.Text))
		}
		if positiveText[s.Text] {
			contradictory++
			continue
		}
		if same {
			sameKind++
		}
	}
	recall := float64(found) / float64(pos)
	fpRate := float64(sameKind) / float64(neg-contradictory)
	strictRate := float64(strict) / float64(neg)
	t.Logf("positives: %d/%d found, recall %.2f%%", found, pos, 100*recall)
	t.Logf("negatives: %d, of which %d are also labelled positive", neg, contradictory)
	t.Logf("same-kind false positives %d/%d (%.2f%%); any-kind %d/%d (%.2f%%); example-marked only %d",
		sameKind, neg-contradictory, 100*fpRate, strict, neg, 100*strictRate, examples)

	var weak []string
	for id, tl := range perRule {
		if tl.hit < tl.n {
			weak = append(weak, id)
		}
	}
	sort.Strings(weak)
	for _, id := range weak {
		t.Logf("rule %s: %d/%d", id, perRule[id].hit, perRule[id].n)
	}
	if testing.Verbose() {
		types := make([]string, 0, len(byType))
		for ty := range byType {
			types = append(types, ty)
		}
		sort.Strings(types)
		for _, ty := range types {
			t.Logf("found as %s: %d", ty, byType[ty])
		}
		for _, m := range misses {
			t.Logf("miss %s", m)
		}
		for _, f := range fps {
			t.Logf("negative flagged %s", f)
		}
		for _, e := range exampleNegs {
			t.Logf("negative reported as example %s", e)
		}
	}
	assert.GreaterOrEqual(t, recall, 0.97, "recall")
	assert.LessOrEqual(t, fpRate, 0.03, "same-kind false-positive rate")
	assert.LessOrEqual(t, strictRate, 0.10, "any-kind false-positive rate")
}

func clip(s string) string {
	s = strings.ReplaceAll(s, "\n", `\n`)
	if len(s) > 110 {
		return s[:110] + "…"
	}
	return s
}
