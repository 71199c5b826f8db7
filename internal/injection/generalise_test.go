package injection

import (
	"cmp"
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// generaliseSet is a file of hand-written texts for issue 16: attacks
// (paraphrased, misspelt, folded, obfuscated, in other languages, asking
// for what a session's tools can do) and benign texts that share their
// words. Tools, when set, are the session's tool names.
type generaliseSet struct {
	Texts []labelledText `json:"texts"`
	Tools []labelledTool `json:"tools"`
}

// TestGeneralise measures the scanner on generalise-tune.json (written
// before the rules and tuned on) and generalise-report.json (written
// after the tuning, not tuned on): attacks must be flagged or worse,
// benign texts neither redacted nor blocked.
func TestGeneralise(t *testing.T) {
	s := newScanner(t, Options{})
	for _, c := range []struct {
		file          string
		minCaught     float64
		maxChangedPct float64
		minTools      float64 // poisoned tools withheld, %; 90 when 0
	}{
		{"generalise-tune.json", 95, 0, 0},
		{"generalise-report.json", 85, 0, 0},
		// combining marks, transform-and-obey orders, secrets sent out
		// across sentences or in other languages (inject3)
		{"inject3-tune.json", 95, 0, 0},
		{"inject3-report.json", 80, 0, 0},
		// other languages without trigger words, typos, folding,
		// outside parties, tool definitions (detect4)
		{"detect4-tune.json", 95, 0, 95},
		{"detect4-report.json", 80, 0, 75},
		// carriers (YAML, JSON, CSV, HTML, markdown), noise, polite
		// requests for access, automated readers, decode-and-follow,
		// business mail about sending things; tools poisoned in title,
		// annotations, enums, defaults, examples (inject5)
		{"inject5-tune.json", 95, 0, 95},
		{"inject5-report.json", 95, 0, 95},
		// written with the two above, first run once the rules above were
		// done (texts 11/15, benign 0/10 changed; tools 6/6, benign 1/4
		// withheld), then tuned on
		{"inject5-blind.json", 95, 0, 95},
		// written after that tuning; first run: texts 12/16, benign 0/12
		// changed; tools 4/5, benign 0/4 (before the inject5 changes:
		// 12/16, 0/12; 3/5, 0/4), then tuned on
		{"inject5-blind2.json", 95, 0, 95},
		// written before the learned scorer's first run on it, never
		// tuned on: rules alone 15/18, with the scorer 16/18; benign
		// 0/12 changed, 0/12 flagged (TestLearnedScorer)
		{"learned-blind.json", 85, 0, 0},
	} {
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile("testdata/" + c.file)
			if os.IsNotExist(err) {
				t.Skipf("testdata/%s not written yet", c.file)
			}
			require.NoError(t, err)
			var set generaliseSet
			require.NoError(t, json.Unmarshal(data, &set))
			sc := scoreTexts(t, s, set.Texts, func(x labelledText) Context {
				return Context{ExternalSource: true, Server: "web", SessionTools: x.Tools}
			})
			t.Logf("%s: attacks flagged or worse %d/%d (%.1f%%); benign changed %d/%d (%.1f%%), flagged %d/%d",
				c.file, sc.caught, sc.attacks, pct(sc.caught, sc.attacks), sc.changed, sc.benign, pct(sc.changed, sc.benign), sc.flagged, sc.benign)
			assert.GreaterOrEqual(t, pct(sc.caught, sc.attacks), c.minCaught, "attacks flagged or worse")
			assert.LessOrEqual(t, pct(sc.changed, sc.benign), c.maxChangedPct, "benign texts redacted or blocked")
			if len(set.Tools) > 0 {
				testGeneraliseTools(t, s, c.file, set, cmp.Or(c.minTools, 90))
			}
		})
	}
}

// testGeneraliseTools: each tool is listed alone, as the first tool of a
// server; poisoned ones must be withheld, benign ones not.
func testGeneraliseTools(t *testing.T, s *Scanner, file string, set generaliseSet, minWithheld float64) {
	action := map[string]Result{}
	for _, c := range set.Tools {
		found, err := s.ScanTools([]byte(`{"tools":[`+string(c.Tool)+`]}`), Context{Server: "third-party"})
		require.NoError(t, err, c.ID)
		for _, f := range found {
			action[f.Tool] = f.Result
		}
	}
	var poisoned, withheld, benign, wrong int
	for _, c := range set.Tools {
		var tool struct {
			Name string `json:"name"`
		}
		require.NoError(t, json.Unmarshal(c.Tool, &tool))
		r := action[tool.Name]
		if c.Poisoned == 1 {
			poisoned++
			if r.Action == ActionBlock {
				withheld++
			} else {
				t.Logf("not withheld %s: %s", c.ID, r)
			}
			continue
		}
		benign++
		if r.Action == ActionBlock {
			wrong++
			t.Logf("benign withheld %s: %s %v", c.ID, r, excerpts(r))
		}
	}
	t.Logf("%s tools: poisoned withheld %d/%d (%.1f%%); benign withheld %d/%d", file, withheld, poisoned, pct(withheld, poisoned), wrong, benign)
	assert.GreaterOrEqual(t, pct(withheld, poisoned), minWithheld, "poisoned tools withheld")
	assert.Zero(t, wrong, "benign tools withheld")
}
