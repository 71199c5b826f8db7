package flow

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/fingerprint"
	"github.com/flowd-dev/flowd/internal/unwrap"
)

// recordAs records text as a result of server, of class c.
func recordAs(s *Session, c classify.Class, server, text string) {
	s.Begin()
	s.Record(Origin{Server: server, Tool: "read", Class: c}, []byte(fmt.Sprintf(`{"content":[{"type":"text","text":%q}]}`, text)))
	s.Wait()
}

var toExternal = classify.Result{Class: classify.External}

// A flood of small results from external sources does not evict what was
// read from a source that may hold the user's data: each kind has its own
// max_origins.
func TestExternalFloodKeepsOtherOrigins(t *testing.T) {
	for _, c := range []classify.Class{classify.Internal, classify.Hybrid, classify.Unknown} {
		t.Run(string(c), func(t *testing.T) {
			tr := NewTracker(Options{MaxOrigins: 200}, detector(t))
			s := tr.Session("s")
			memo := prose(300, 99)
			recordAs(s, c, "db", memo)
			for i := range 201 {
				recordAs(s, classify.External, "web", fmt.Sprintf("page %d: %s", i, prose(60, int64(i))))
			}
			a := s.Check("mail", "send", toExternal, []byte(`{"body":"`+memo[50:250]+`"}`), nil, nil)
			require.NotEmpty(t, a.Edges, "the %s origin was evicted by external results", c)
			assert.Equal(t, "db", a.Edges[0].From.Server)
			assert.Equal(t, "internal→external", a.FlowType)
			assert.Equal(t, RiskHigh, a.Risk)
		})
	}
	// Results of the same kind still evict each other, oldest first.
	tr := NewTracker(Options{MaxOrigins: 200}, detector(t))
	s := tr.Session("s")
	memo := prose(300, 98)
	recordAs(s, classify.Internal, "db", memo)
	for i := range 200 {
		recordAs(s, classify.Internal, "fs", prose(60, int64(1000+i)))
	}
	assert.Empty(t, s.Check("mail", "send", toExternal, []byte(`{"body":"`+memo[50:250]+`"}`), nil, nil).Edges)
}

// The attack run's figure, at the default max_origins: 10,001 small
// results from outside, then the internal origin is sent.
func TestTenThousandExternalResultsKeepTheInternalOrigin(t *testing.T) {
	if testing.Short() {
		t.Skip("records 10,001 results; skipped in -short mode")
	}
	tr := NewTracker(Options{}, nil)
	s := tr.Session("s")
	memo := prose(400, 97)
	recordAs(s, classify.Internal, "fs", memo)
	for i := range 10_001 {
		recordAs(s, classify.External, "web", fmt.Sprintf("result %d", i))
	}
	a := s.Check("mail", "send", toExternal, []byte(`{"body":"`+memo[100:300]+`"}`), nil, nil)
	require.NotEmpty(t, a.Edges)
	assert.Equal(t, "fs", a.Edges[0].From.Server)
	assert.Equal(t, classify.Internal, a.SourceClass)
}

// fakeKeyPage is a fetched page of about n bytes full of strings shaped
// like keys of several providers, all made up.
func fakeKeyPage(r *rand.Rand, n int) string {
	const upper, alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	pick := func(set string, k int) string {
		b := make([]byte, k)
		for i := range b {
			b[i] = set[r.IntN(len(set))]
		}
		return string(b)
	}
	var sb strings.Builder
	for sb.Len() < n {
		switch r.IntN(4) {
		case 0:
			fmt.Fprintf(&sb, "key id %s\n", "AKIA"+pick(upper, 16))
		case 1:
			fmt.Fprintf(&sb, "export GITHUB_TOKEN=ghp_%s\n", pick(alnum, 36))
		case 2:
			fmt.Fprintf(&sb, "aws_access_key_id=%s aws_secret_access_key=%s\n", "ASIA"+pick(upper, 16), pick(alnum, 40))
		default:
			fmt.Fprintf(&sb, "slack: xoxb-%d-%d-%s\n", 1e11+r.IntN(1e11), 1e11+r.IntN(1e11), pick(alnum, 24))
		}
	}
	return sb.String()
}

// password is a made-up password that the secrets detector recognises
// only beside its name (DB_PASSWORD=…), not alone: sent alone, only
// the secret index, which remembers it from the result it was read in,
// knows it is a secret.
func password(r *rand.Rand) string {
	const set = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789!@_"
	b := make([]byte, 18)
	for i := range b {
		b[i] = set[r.IntN(len(set))]
	}
	return string(b)
}

// Key-shaped strings from external pages neither displace nor take over
// a secret read from an internal source: sent alone, it is still a secret
// from that source (critical), whatever the pages held, including the
// secret itself, and however much memory they took.
func TestExternalKeysDoNotWeakenAnInternalSecret(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		// echo: the pages repeat the internal secret (a page that
		// reflects what it was sent, or a guess).
		echo bool
	}{
		{name: "pages of fake keys"},
		{name: "pages that repeat the secret", echo: true},
		// Past the memory budget, what came from outside is forgotten
		// first: forgetting the session would lose the secret, and the
		// call would be judged as internal data (ask → warn) instead.
		{name: "pages past the memory budget", opts: Options{MaxBytes: 1 << 20}},
		{name: "pages past the memory budget, repeating it", opts: Options{MaxBytes: 1 << 20}, echo: true},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(i), 15))
			pass := password(r)
			tr := NewTracker(tt.opts, detector(t))
			s := tr.Session("s")
			recordAs(s, classify.Internal, "fs", "# .env\nDB_HOST=db.internal\nDB_PASSWORD="+pass+"\n")
			args := []byte(`{"body":"` + pass + `"}`)
			require.Empty(t, detector(t).Scan(string(args)), "the test needs a secret known only from its origin")
			before := s.Check("paste", "create", toExternal, args, nil, nil)
			require.Equal(t, RiskCritical, before.Risk)

			for p := range 5 {
				page := fakeKeyPage(r, 60_000)
				if tt.echo {
					page = page[:30_000] + "\npassword: " + pass + "\n" + page[30_000:]
				}
				recordAs(s, classify.External, fmt.Sprintf("web%d", p), page)
			}
			a := s.Check("paste", "create", toExternal, args, nil, nil)
			assert.Equal(t, RiskCritical, a.Risk)
			assert.Equal(t, before.Secrets, a.Secrets)
			assert.Equal(t, classify.Internal, a.SourceClass)
			assert.Equal(t, []string{"fs"}, a.Sources)
			assert.False(t, a.Forgotten)
			if tt.opts.MaxBytes > 0 {
				assert.LessOrEqual(t, tr.Bytes(), tt.opts.MaxBytes)
			}
		})
	}
}

// flow.max_origins is validated against what an index can hold.
func TestMaxOriginsLimitMatchesTheIndex(t *testing.T) {
	assert.Equal(t, fingerprint.LimitMaxOrigins, config.MaxOriginsLimit)
	_, err := fingerprint.NewIndex(fingerprint.Options{MaxOrigins: config.MaxOriginsLimit})
	assert.NoError(t, err)
}

// A flood of small results of the same kind evicts the origin a secret
// came from, but not the secret: sent encoded afterwards it is still
// found, and named by the origin it came from. Found by red team RT6: the
// secret index still matched it, but its hit named an origin no longer
// there and was dropped. A key-shaped string from an external source is
// not kept so: its origin goes, and with it the hit.
func TestSameKindFloodKeepsTheSecret(t *testing.T) {
	const secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	enc := []byte(`{"text":"` + base64.StdEncoding.EncodeToString([]byte(secret)) + `"}`)
	for _, tt := range []struct {
		class classify.Class
		kept  bool
	}{{classify.Internal, true}, {classify.Hybrid, true}, {classify.External, false}} {
		t.Run(string(tt.class), func(t *testing.T) {
			tr := NewTracker(Options{MaxOrigins: 200}, detector(t))
			s := tr.Session("s")
			recordAs(s, tt.class, "vault", "AWS_SECRET_ACCESS_KEY="+secret+"\n")
			for i := range 201 {
				recordAs(s, tt.class, "notes", fmt.Sprintf("note %d", i))
			}
			a := s.Check("slack", "send", toExternal, enc, unwrap.Views(enc), nil)
			if !tt.kept {
				assert.Empty(t, a.Edges)
				return
			}
			require.NotEmpty(t, a.Edges, "the secret's origin was evicted, and the secret with it")
			assert.Equal(t, "vault", a.Edges[0].From.Server)
			assert.Equal(t, []string{"aws_secret_key"}, a.Secrets)
			// Benign: a note after the flood carries nothing.
			plain := []byte(`{"text":"note 3 is done"}`)
			assert.Empty(t, s.Check("slack", "send", toExternal, plain, unwrap.Views(plain), nil).Edges)
		})
	}
}
