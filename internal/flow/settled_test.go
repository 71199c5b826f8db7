package flow

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowd-dev/flowd/internal/budget"
	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/unwrap"
)

// A check told that the secrets found so far decide the call stops
// before the costlier matchers, and still names the secret's origin;
// told they do not, it is CheckWith. Where the detector's read of the
// message as written settles it, the views are not even built.
func TestCheckUntilStopsOnceSettled(t *testing.T) {
	const token = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5"
	tr := NewTracker(Options{}, detector(t))
	s := tr.Session("s")
	record(s, "vault", "GITHUB_TOKEN="+token)
	doc := strings.Repeat("the quarterly figures for the northern region rose by nine percent. ", 40)
	record(s, "files", doc)
	ext := classify.Result{Class: classify.External, CanExfiltrate: true}
	// The token raw, a copy of the document, and 64 KB of near copies
	// of the token's base64 (a view each matcher reads).
	near := base64.StdEncoding.EncodeToString([]byte(token))[:50]
	args := []byte(`{"text":"` + token + " " + doc + strings.Repeat(near+" ", 1300) + `"}`)
	views := unwrap.Views(args)
	decoded := 0
	decode := func() [][]byte { decoded++; return views }

	check := func(settled func([]string) bool) (Analysis, int64) {
		b := budget.Work(1 << 40)
		decoded = 0
		return s.CheckUntil("slack", "post", ext, args, nil, decode, b, settled), b.Spent()
	}
	check(nil) // the indexes' lazy builds, charged to the first check
	full, fullWork := check(nil)
	assert.Equal(t, 1, decoded, "the views are built once")
	undecided, undecidedWork := check(func([]string) bool { return false })
	var asked [][]string
	early, earlyWork := check(func(found []string) bool { asked = append(asked, found); return true })

	assert.Equal(t, full, undecided)
	assert.Equal(t, fullWork, undecidedWork)
	assert.Equal(t, [][]string{{"github_token"}}, asked[:1], "asked once, with what the detector found")
	assert.Len(t, asked, 1)
	assert.Zero(t, decoded, "the views are not built for a call the message as written settles")
	assert.Contains(t, full.Sources, "files", "the full check matches the document")
	assert.Equal(t, []string{"vault"}, early.Sources, "the token's origin is still named; the document is not matched")
	assert.Subset(t, full.Secrets, early.Secrets)
	assert.Contains(t, early.Secrets, "github_token")
	assert.False(t, early.Unfinished)
	assert.Less(t, earlyWork, fullWork/2, "the work past the verdict is not done")
	t.Logf("work: full %d, settled %d", fullWork, earlyWork)
}
