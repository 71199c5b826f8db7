package fingerprint

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/flowd-dev/flowd/internal/budget"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// matchWork is the work MatchWithin reports for text.
func matchWork(t testing.TB, x *Index, text []byte) ([]Match, int64) {
	b := budget.Work(0)
	got, complete := x.MatchWithin(b, text)
	require.True(t, complete)
	return got[0], b.Spent()
}

// matchBound is the most work Match may report for n bytes: the bytes
// read by each nesting level of JSON and decoded, normalised and hashed,
// each window looked up and each hit followed.
func matchBound(n int) int64 { return int64(24*n + 256) }

// matchShapes are texts made to cost a matcher more per byte: copies of
// indexed origins (every window hits), many short strings (a unit each),
// JSON nested in strings, escapes, whitespace, open brackets.
func matchShapes(origin string) []struct{ name, unit string } {
	nested := `{"a":"{\"b\":\"{\\\"c\\\":\\\"` + strings.Repeat("x", 24) + `\\\"}\"}"}`
	return []struct{ name, unit string }{
		{"benign prose", "the quick brown fox jumps over the lazy dog while seven wizards judge "},
		{"a copy of an origin", origin},
		{"an origin's string values", `"` + origin[:200] + `",`},
		{"many short strings", `"abcdefghijklmnopqrstuvwxyz",`},
		{"JSON nested in strings", `"` + strings.ReplaceAll(strings.ReplaceAll(nested, `\`, `\\`), `"`, `\"`) + `",`},
		{"unicode escapes", `\u0041\u00e9\ud83d\ude00`},
		{"backslashes", `\\\\\\\\`},
		{"whitespace", " \n\t "},
		{"open brackets", `[{"a":`},
		{"base64", base64.StdEncoding.EncodeToString([]byte(origin[:300]))},
		{"hex", hex.EncodeToString([]byte(origin[:300]))},
	}
}

// A text of n bytes costs Match at most matchBound(n) work, whatever it
// holds: the shapes above, 1 KB to 16 MB, bare and as a tool call's JSON.
func TestMatchWorkIsLinearOnAttackShapes(t *testing.T) {
	x := newTestIndex(t, Options{})
	c := newCorpus(3)
	origin := c.prose(8000)
	x.Add(1, mcpResult(origin))
	x.Add(2, []byte(origin))
	for i := range 200 {
		x.Add(uint64(10+i), c.result())
	}
	sizes := []int{1 << 10, 64 << 10, 1 << 20}
	// 16 MB only without the race detector: the work counted is the
	// same with it, and it stretches these single-goroutine runs past
	// the package's timeout on a loaded machine (.ci/run runs them again
	// without it).
	if !testing.Short() && !raceEnabled {
		sizes = append(sizes, 16<<20)
	}
	for _, s := range matchShapes(origin) {
		for _, n := range sizes {
			if n == 16<<20 && s.name != "a copy of an origin" && s.name != "JSON nested in strings" {
				continue // two shapes at 16 MB keep the test short; the rest are linear at 1 MB
			}
			body := bytes.Repeat([]byte(s.unit), n/len(s.unit)+1)[:n]
			for form, text := range map[string][]byte{
				"bare": body,
				"json": append(append([]byte(`{"name":"send","arguments":[`), body...), `"x"]}`...),
			} {
				_, work := matchWork(t, x, text)
				assert.LessOrEqual(t, work, matchBound(len(text)), "%s, %s, %d bytes", s.name, form, n)
				if n == 1<<20 {
					t.Logf("%-28s %s %9d bytes: %.2f work/byte", s.name, form, n, float64(work)/float64(len(text)))
				}
			}
		}
	}
}

// FuzzMatchTime holds Match to linear work whatever the origins and the
// text: for n bytes, at most matchBound(n) units.
func FuzzMatchTime(f *testing.F) {
	c := newCorpus(5)
	origin := c.prose(3000)
	for _, s := range matchShapes(origin) {
		f.Add(origin, strings.Repeat(s.unit, 4096/len(s.unit)+1))
	}
	f.Add(`{"a":["x","y"]}`, `{"a":"{\"a\":\"{\\\"a\\\":[1,2,\\\"`+strings.Repeat("q", 40)+`\\\"]}\"}"}`)
	f.Fuzz(func(t *testing.T, origin, text string) {
		x := newTestIndex(t, Options{})
		x.Add(1, []byte(origin))
		x.Add(2, mcpResult(origin))
		_, work := matchWork(t, x, []byte(text))
		assert.LessOrEqual(t, work, matchBound(len(text)), "%d bytes", len(text))
	})
}

// A budget that runs out stops Match, which says so; what it found
// before stays.
func TestMatchStopsWhenBudgetRunsOut(t *testing.T) {
	x := newTestIndex(t, Options{})
	c := newCorpus(4)
	origin := c.prose(4000)
	x.Add(1, mcpResult(origin))
	text := []byte(strings.Repeat(c.prose(4000)+" ", 64) + origin)
	got, complete := x.MatchWithin(budget.Work(int64(len(text))), text)
	assert.False(t, complete)
	assert.Empty(t, got[0])
	got, complete = x.MatchWithin(budget.Work(0), text, []byte(origin))
	assert.True(t, complete)
	require.Len(t, got, 2)
	assert.NotEmpty(t, got[0])
	assert.NotEmpty(t, got[1])
}
