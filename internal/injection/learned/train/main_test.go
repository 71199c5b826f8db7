package main

import (
	"errors"
	"math"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/corpora"
	"github.com/flowd-dev/flowd/internal/injection/learned"
)

// The embedded model scores its own training and held-out text, read
// through the features this program trains on (learned.WordFeatures),
// exactly as Score does: the same window sums of quantised weights, so
// the same probability bit for bit. Score is built for speed apart from
// WordFeatures; this holds the two together on the data the weights
// come from (every family of injections, the benign text trained on and
// held out), a sample of each.
func TestScoreMatchesTrainingFeatures(t *testing.T) {
	requireBIPIA(t)
	d, err := loadData(1, false)
	require.NoError(t, err)
	m, err := learned.Embedded()
	require.NoError(t, err)
	var texts []string
	for _, set := range []map[string][]string{d.attacks, d.benign, d.heldBenign} {
		for _, k := range sortedKeys(set) {
			for i, s := range set[k] {
				if i%7 == 0 {
					texts = append(texts, s)
				}
			}
		}
	}
	require.Greater(t, len(texts), 2000)
	for _, s := range texts {
		want, got := featureScore(m, s), m.Score(s).P
		if want != got {
			t.Fatalf("%.200q: from WordFeatures %v, Score %v", s, want, got)
		}
	}
	t.Logf("%d texts: the same probability", len(texts))
}

// featureScore is the best window's probability computed plainly from
// WordFeatures, in Score's arithmetic.
func featureScore(m *learned.Model, text string) float64 {
	fs := learned.WordFeatures(text)
	if len(fs) < learned.MinWords {
		return 0
	}
	mask := uint32(1)<<m.Bits - 1
	w := min(m.Window, len(fs))
	best := float32(math.Inf(-1))
	for a := 0; a+w <= len(fs); a++ {
		var sumW, sumN int32
		for _, f := range fs[a : a+w] {
			for _, h := range f {
				sumW += int32(m.Weights[h&mask])
			}
			sumN += int32(len(f))
		}
		if z := float32(sumW) * m.Scale / float32(math.Sqrt(float64(sumN))); z > best {
			best = z
		}
	}
	return 1 / (1 + math.Exp(-float64(m.Bias+best)))
}

// With -grammar the data gain the grammar's five families and its clean
// look-alikes; without it they are what the shipped weights were trained
// on (TestScoreMatchesTrainingFeatures reads them so).
func TestGrammarData(t *testing.T) {
	requireBIPIA(t)
	plain, err := loadData(1, false)
	require.NoError(t, err)
	withGrammar, err := loadData(1, true)
	require.NoError(t, err)
	for _, f := range grammarFamilies {
		require.NotContains(t, plain.attacks, f.name)
		require.Len(t, withGrammar.attacks[f.name], perFamily, f.name)
	}
	require.Equal(t, len(plain.benign["written"]), len(withGrammar.benign["written"]))
	require.NotEqual(t, plain.benign["written"], withGrammar.benign["written"], "the look-alikes join the written benign text")
}

// requireBIPIA skips a test that builds the training data where BIPIA's
// training split, which the data are made of, is absent.
func requireBIPIA(t *testing.T) {
	t.Helper()
	p, err := corpora.BIPIAPath()
	require.NoError(t, err)
	if _, err := os.Stat(p); errors.Is(err, os.ErrNotExist) {
		t.Skipf("BIPIA's training split is not at %s: the training data cannot be built without it", p)
	}
}
