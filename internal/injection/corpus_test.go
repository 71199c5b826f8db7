package injection

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// corpusCase is one tool result in testdata/attacks.json or benign.json.
type corpusCase struct {
	ID       string          `json:"id"`
	Category string          `json:"category"`
	Note     string          `json:"note"`
	Result   json.RawMessage `json:"result"`
}

func loadCorpus(t *testing.T, name string) []corpusCase {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	require.NoError(t, err)
	var cases []corpusCase
	require.NoError(t, json.Unmarshal(data, &cases), "decode %s", name)
	return cases
}

// tally counts outcomes per category.
type tally struct {
	n, flagged, removed int // flagged: flag or worse; removed: redact or block
}

func printTallies(t *testing.T, title string, tallies map[string]*tally, total tally) {
	t.Helper()
	cats := make([]string, 0, len(tallies))
	for c := range tallies {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n%-22s %5s %9s %16s\n", title, "category", "n", "flagged+", "redacted/blocked")
	for _, c := range cats {
		x := tallies[c]
		fmt.Fprintf(&b, "%-22s %5d %8.0f%% %15.0f%%\n", c, x.n, pct(x.flagged, x.n), pct(x.removed, x.n))
	}
	fmt.Fprintf(&b, "%-22s %5d %8.1f%% %15.1f%%", "all", total.n, pct(total.flagged, total.n), pct(total.removed, total.n))
	t.Log(b.String())
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// TestCorpus measures the scanner on hand-written MCP results: attacks in
// realistic tool output (calendar events, mail, web pages, issues, files)
// and benign results built to look dangerous to a naive filter. Every
// result is scanned as coming from an external source, the stricter
// setting. Targets: at least 95% of attacks flagged or worse, 85% redacted
// or blocked, and at most 1% of benign results changed at all (a flag is
// a change).
func TestCorpus(t *testing.T) {
	s, err := New(Options{})
	require.NoError(t, err)
	ctx := Context{ExternalSource: true, Server: "corpus"}

	attacks := loadCorpus(t, "attacks.json")
	require.GreaterOrEqual(t, len(attacks), 60)
	tallies := map[string]*tally{}
	var total tally
	for _, c := range attacks {
		r := s.ScanResult(c.Result, ctx)
		x := tallies[c.Category]
		if x == nil {
			x = &tally{}
			tallies[c.Category] = x
		}
		x.n++
		total.n++
		if r.Action != ActionPass {
			x.flagged++
			total.flagged++
		}
		if r.Action == ActionRedact || r.Action == ActionBlock {
			x.removed++
			total.removed++
			red, err := Redact(c.Result, r)
			if assert.NoError(t, err, c.ID) {
				assert.True(t, json.Valid(red), "%s: redacted result is not JSON", c.ID)
				assert.Contains(t, string(red), "[flowd redacted: ", c.ID)
			}
		}
		if r.Action == ActionPass || testing.Verbose() {
			t.Logf("attack %-24s %s", c.ID, r)
		}
	}
	printTallies(t, "attacks", tallies, total)
	assert.GreaterOrEqual(t, pct(total.flagged, total.n), 95.0, "attack recall (flag or worse)")
	assert.GreaterOrEqual(t, pct(total.removed, total.n), 85.0, "attacks redacted or blocked")

	benign := loadCorpus(t, "benign.json")
	require.GreaterOrEqual(t, len(benign), 100)
	tallies = map[string]*tally{}
	total = tally{}
	for _, c := range benign {
		r := s.ScanResult(c.Result, ctx)
		x := tallies[c.Category]
		if x == nil {
			x = &tally{}
			tallies[c.Category] = x
		}
		x.n++
		total.n++
		if r.Action != ActionPass {
			x.flagged++
			total.flagged++
			t.Logf("benign %-24s %s %v", c.ID, r, excerpts(r))
		} else if testing.Verbose() && len(r.Detections) > 0 {
			t.Logf("benign %-24s %s", c.ID, r)
		}
		if r.Action == ActionRedact || r.Action == ActionBlock {
			x.removed++
			total.removed++
		}
	}
	printTallies(t, "benign (false positives)", tallies, total)
	assert.LessOrEqual(t, pct(total.flagged, total.n), 1.0, "benign results changed")
}

func excerpts(r Result) []string {
	var out []string
	for _, d := range r.Detections {
		out = append(out, fmt.Sprintf("%s=%.2f %q", d.Rule, d.Severity, d.Excerpt))
	}
	return out
}
