package injection

import (
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStartsOf(t *testing.T) {
	tests := []struct {
		pattern string
		want    []string
	}{
		{`\b(?:silently|secretly) send\b`, []string{"secretly send", "silently send"}},
		{`\bkeep (?:this|it) from`, []string{"keep it from", "keep this from"}},
		{`\b(do not|never)\s+tell`, []string{"do not", "never"}}, // a class that is not a few letters ends the literal
		{`\b(?:is|are)\s+to`, []string{"are", "is"}},
		{`\be-?mail`, nil},      // "e" alone is too short to be worth it
		{`(?:ever )?tell`, nil}, // may start anywhere "tell" or "ever" does: not a literal start
		{`\b[a-z]+ing\b`, nil},  // a class too big to list
		{`(?:abc|x)yz`, []string{"abcyz", "xyz"}},
		{`abc(?:d|e)*f`, []string{"abc"}}, // a repeat ends the literal
		{`ABC`, []string{"abc"}},          // rules match lower-cased text
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, startsOf(regexp.MustCompile(tt.pattern)), tt.pattern)
	}
}

// Every rule that runs by its start literals must find exactly what
// searching its windows finds: the same matches, submatches included, on
// the project's corpora and on windows cut at random places (mid-word
// starts, where \b reads the byte before).
func TestStartsFindWhatTheSearchFinds(t *testing.T) {
	e, err := sharedEngine()
	require.NoError(t, err)
	var texts []string
	for _, name := range []string{"attacks.json", "benign.json"} {
		for _, c := range loadCorpus(t, name) {
			texts = append(texts, stringsIn(t, c.Result)...)
		}
	}
	// A deterministic sample of BIPIA's attacked and clean texts, when the
	// corpus is there: many more matches than the project's own corpora.
	if bipia := loadBIPIAIfPresent(t); len(bipia) > 0 {
		for i := 0; i < len(bipia); i += 31 {
			texts = append(texts, bipia[i].Text)
		}
	}
	rng := rand.New(rand.NewPCG(7, 11))
	ruled, checked := 0, 0
	for _, r := range e.rules {
		if r.starts == nil {
			continue
		}
		ruled++
		for _, text := range texts {
			lt := lowerText(text)
			if r.cased {
				lt = text
			}
			windows := []span{{0, len(lt)}}
			for range 3 {
				if len(lt) < 2 {
					break
				}
				a := rng.IntN(len(lt) - 1)
				windows = append(windows, span{a, a + 1 + rng.IntN(len(lt)-a-1)})
			}
			for _, w := range windows {
				var want [][]int
				for _, m := range r.re.FindAllStringSubmatchIndex(lt[w.start:w.end], -1) {
					if m[0] == m[1] {
						continue
					}
					for i := range m {
						if m[i] >= 0 {
							m[i] += w.start
						}
					}
					want = append(want, m)
				}
				var got [][]int
				r.matchesFrom(lt, w, nil, func(m []int) bool {
					got = append(got, append([]int(nil), m...))
					return true
				})
				require.Equal(t, want, got, "rule %s on %q", r.id, lt[w.start:w.end])
				checked += len(want)
			}
		}
	}
	t.Logf("%d of %d windowed rules run by start literals; %d matches compared in %d texts", ruled, countWindowed(e), checked, len(texts))
	assert.Positive(t, checked, "the corpora must exercise the rules, or this proves nothing")
}

// stringsIn lists the string values of a JSON document, and those of JSON
// documents inside them, as the scanner walks them.
func stringsIn(t *testing.T, doc []byte) []string {
	var out []string
	require.NoError(t, walkJSON(doc, func(_ *jsonPath, _ span, v string) bool {
		out = append(out, v)
		if json.Valid([]byte(v)) && (strings.HasPrefix(v, "{") || strings.HasPrefix(v, "[")) {
			out = append(out, stringsIn(t, []byte(v))...)
		}
		return true
	}))
	return out
}

func countWindowed(e *engine) int {
	n := 0
	for _, r := range e.rules {
		if !r.anchored {
			n++
		}
	}
	return n
}
