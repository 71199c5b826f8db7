package secrets

import (
	"fmt"
	"regexp/syntax"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/budget"
)

// workBound is the most work a scan of n bytes reports: the allowance,
// plus what one keyword hit can add past it before the scan looks (a
// scanner's read, and the regexes of its report's allowlists).
func workBound(n int) int64 { return int64(workPerByte*n + workSlack + 2*regexWork*maxMultiWindow) }

func scanWork(t testing.TB, d *Detector, text string) (complete bool, work int64) {
	b := budget.Work(0)
	_, complete = d.ScanWithin(text, b)
	return complete, b.Spent()
}

// Text built to make the scanners slow (keywords repeated so that each
// hit's stretch of text overlaps the next) costs at most the allowance,
// from 1 KB to 1 MB; where it would cost more, the scan says it is
// incomplete rather than run on.
func TestScanWorkIsLinearOnAttackShapes(t *testing.T) {
	d, err := Default()
	require.NoError(t, err)
	for _, unit := range []string{
		"the quick brown fox jumps over the lazy dog ",
		"password=", "token=://", "aws_secret_access_key=", "api_key=${X}",
		"ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA", "AKIA", "AKIAQZ7XK2MVABCDEFGH ",
		"-----BEGIN RSA PRIVATE KEY-----\n", "eyJhbGciOiJIUzI1NiJ9.", "xoxb-", "Bearer ", "sk-",
		"://a:b@", "machine x login y password ", "4111 1111 1111 1111 ",
	} {
		for _, n := range []int{1 << 10, 64 << 10, 1 << 20} {
			text := strings.Repeat(unit, n/len(unit)+1)[:n]
			complete, work := scanWork(t, d, text)
			assert.LessOrEqual(t, work, workBound(n), "%q × %d bytes", unit, n)
			if n == 1<<20 {
				t.Logf("%-45q %.1f work/byte, complete %v", unit, float64(work)/float64(n), complete)
			}
		}
	}
}

// Ordinary text, secrets included, is scanned to the end, well inside the
// allowance: the allowance is for text made to be slow.
func TestScanCompletesOnCorpus(t *testing.T) {
	d, err := Default()
	require.NoError(t, err)
	worst := 0.0
	for _, s := range loadSamples(t) {
		if s.Text == "" {
			continue
		}
		complete, work := scanWork(t, d, s.Text)
		require.True(t, complete, "%s sample for %s: %q", s.Label, s.RuleID, clip(s.Text))
		worst = max(worst, float64(work)/float64(len(s.Text)))
	}
	t.Logf("most work per byte on the corpus: %.1f (allowance %d)", worst, workPerByte)
}

// A scan runs in time linear in its text whatever the text: its reported
// work never passes the allowance.
func FuzzScanTime(f *testing.F) {
	for _, s := range []string{"password=password=password=", "token=://token=://x", "-----BEGIN RSA PRIVATE KEY-----\nMIIE",
		"AKIAQZ7XK2MVABCDEFGH wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "machine h login u password p4ssw0rd",
		"postgres://u:hunter2@db/x", "api_key=sk_live_abcdefghijklmnop1234"} {
		f.Add(strings.Repeat(s, 20))
	}
	d, err := Default()
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, text string) {
		_, work := scanWork(t, d, text)
		assert.LessOrEqual(t, work, workBound(len(text)))
	})
}

// Prose that names a rule's keyword every few lines merges that rule's
// windows into one as long as the text; the regex reads only the stretches
// near the rarest literal every match needs ("kind:" of a Kubernetes
// secret), so documentation about secrets is scanned whole, cheaply.
func TestScanReadsMergedWindowsNearNeededLiterals(t *testing.T) {
	d, err := Default()
	require.NoError(t, err)
	var b strings.Builder
	lines := []string{
		"Rotate the secret before the release and tell the on-call team.\n",
		"The secret store keeps one version per service; old ones expire.\n",
		"Ask in the channel when a secret looks stale or was shared by mistake.\n",
	}
	for i := 0; b.Len() < 1<<20; i++ {
		if i == 5000 {
			b.WriteString("apiVersion: v1\nkind: ConfigMap\ndata:\n  mode: fast\n")
		}
		b.WriteString(lines[i%len(lines)])
	}
	complete, work := scanWork(t, d, b.String())
	assert.True(t, complete)
	assert.LessOrEqual(t, float64(work)/float64(b.Len()), 8.0, "work per byte")
}

// Every match of a curl rule holds the option it is about ("-u" or
// "--user"): API documentation with a curl example every few lines, none
// passing a password, is not read by that rule's regex at each example,
// and is scanned whole within the allowance; an example that does pass
// one is still found.
func TestScanSkipsWindowsWithoutARequiredAlternative(t *testing.T) {
	re, err := syntax.Parse(`\bcurl\b.*[ \t](?:-u|--user)(?:=|[ \t]{0,5})(\S+)`, syntax.Perl)
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"-u", "--user"}}, requiredAlternatives(re))

	d, err := Default()
	require.NoError(t, err)
	var b strings.Builder
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "## Listing resource %d\n\nPages of fifty; the cursor comes back in the reply.\n\n```\ncurl -s https://api.example.com/v1/items/%d?limit=50\n```\n\n", i, i)
	}
	complete, work := scanWork(t, d, b.String())
	assert.True(t, complete)
	assert.LessOrEqual(t, float64(work)/float64(b.Len()), 16.0, "work per byte")

	found, complete := d.ScanWithin(b.String()+"curl -u deploy:Xk29vLq7Zr4 https://api.example.com/v1/items\n", nil)
	assert.True(t, complete)
	rules := []string{}
	for _, f := range found {
		rules = append(rules, f.Rule)
	}
	assert.Contains(t, rules, "curl-auth-user")
}

// Key IDs one after another (2,048 AWS-key-shaped strings a fetched page
// planted, sent back raw) are each tried by the AWS rule's regex anchored
// where they start, reading no further than a match can reach: before,
// all but every third fell into the rule's merged windows, one window as
// long as the text, which the regex read unanchored, and a megabyte of
// them ran out of the allowance (66 units a byte). The search for a
// secret key after each reads a run the search after an earlier one read
// whole only once: each read the next ten key IDs (40 units a byte,
// now 32).
func TestScanTriesAdjacentKeysAnchored(t *testing.T) {
	d, err := Default()
	require.NoError(t, err)
	var b strings.Builder
	for b.Len() < 1<<20 {
		for i := range 64 {
			fmt.Fprintf(&b, "AKIAQZ7XK2MV%08d ", i)
		}
	}
	complete, work := scanWork(t, d, b.String())
	assert.True(t, complete)
	assert.LessOrEqual(t, float64(work)/float64(b.Len()), 36.0, "work per byte")

	// A real key among them is still found.
	found, complete := d.ScanWithin(b.String()+"AKIAQZ7XK2MVWJRT5PLB\n", nil)
	assert.True(t, complete)
	var values []string
	for _, f := range found {
		values = append(values, f.Value)
	}
	assert.Contains(t, values, "AKIAQZ7XK2MVWJRT5PLB")
}
