package flow

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/unwrap"
)

// Key-ish names in every syntax, end to end: a text holding a credential
// of a provider no rule names is sent to an external destination, as the
// argument of a call (JSON-escaped, as it travels) or as structured
// arguments, with no origin flowd saw. The tuned cases were written
// first; the set-aside ones with them, before any change, and are
// reported, not tuned on. A template's %s is the value, of a shape picked
// in turn; a benign text must give no secret.
var keyishTuned = []string{
	`{"structuredContent":{"ZEPHYR_API_SECRET":"%s"}}`,
	"2026-05-02T10:11:12Z [DEBUG] vendor client init, Secret=%s region=eu",
	" id | name  | api_token\n----+-------+-----------\n  7 | prod  | %s\n",
	`resp = httpx.get("https://api.orbly.dev/v3/search?q=cats&apikey=%s")`,
	"curl https://api.orbly.dev/v1/me -H 'X-Orbly-Key: %s'",
	"orbctl login --access-token %s --profile prod",
	"vendors:\n  orbly:\n    client_secret: %s\n",
	"ORBLY_API_KEY=%s\nORBLY_REGION=eu\n",
	`const orblyAuth = { token: "%s" };`,
	`{"orbly": {"signingSecret": "%s"}}`,
}

var keyishSetAside = []string{
	`{"structuredContent":{"result":{"tenant":"acme","credentials":{"kestrelApiKey":"%s"}}}}`,
	"Mar 02 10:11:12 host app[311]: INFO connecting with password=%s to db",
	"+-----------+------------------------------------------+\n| service   | secret_key                               |\n+-----------+------------------------------------------+\n| mailer    | %s |\n+-----------+------------------------------------------+\n",
	`<a href="https://hooks.kestrel.app/in?token=%s">hook</a>`,
	"GET /v2/items HTTP/1.1\nHost: api.kestrel.app\nAuthorization: Token %s\n",
	"docker login -u deploy --password %s registry.kestrel.app",
	"[kestrel]\naccess_key_secret = %s\n",
	"export KESTREL_TOKEN='%s'",
	`kestrel.configure(apiSecret: "%s")`,
	"WARN retrying with auth_key=%s (attempt 2/3)",
	"| env | kestrel_pass |\n|---|---|\n| prod | %s |",
	"set KESTREL_CLIENT_SECRET=%s",
}

var keyishBenignTuned = []string{
	`"node_modules/ms": {"version": "2.1.3", "integrity": "sha512-6FlzubTLZG3J2a/NVCAleEhjzq5oxgHyaCU9yYXvcLsvoVaHJq/s5xXI6/XXP6tz7R9xAOtHnSO/tXtF3WRTlA=="}`,
	"commit 4c1d9e7a2b3f5e6d7c8b9a0f1e2d3c4b5a697887\nAuthor: Dana <dana@example.org>\n\n    fix parser",
	`{"level":"info","request_id":"9b2f1c3e-7a4d-4e8b-9c1a-2d3e4f5a6b7c","msg":"served","ms":12}`,
	`{"structuredContent":{"sha256":"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08","etag":"W/\"5e1-12f\"","version":"1.2.3"}}`,
	" id | checksum\n----+----------------------------------\n  1 | 5d41402abc4b2a76b9719d911017c592\n",
}

var keyishBenignSetAside = []string{
	"[[package]]\nname = \"serde\"\nversion = \"1.0.197\"\nchecksum = \"3fb1c873e1b9b056a4dc4c0c198b24c3ffa059243875552b2bd0933b1aee4ce2\"\n",
	"golang.org/x/sys v0.18.0 h1:DBdB3niSjOA/O0blCZBqDefyWNYveAYMNF1Wum0DYQ4=\n",
	"docker pull ghcr.io/acme/api@sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae",
	`{"structuredContent":{"trace_id":"4bf92f3577b34da6a3ce929d0e0e4736","span_id":"00f067aa0ba902b7","cursor":"eyJvZmZzZXQiOjUwfQ=="}}`,
	"[DEBUG] Using cache_key=7d865e959b2466918c9863afca942d0fb89d7c9a for build",
	"| user | token_count |\n|---|---|\n| ana | 18342 |",
}

// keyishValue returns a credential value of shape i.
func keyishValue(r *rand.Rand, i int) string {
	pick := func(alphabet string, n int) string {
		b := make([]byte, n)
		for k := range b {
			b[k] = alphabet[r.Intn(len(alphabet))]
		}
		return string(b)
	}
	const (
		lower = "abcdefghijklmnopqrstuvwxyz0123456789"
		mixed = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	)
	switch i % 6 {
	case 0:
		return pick(mixed, 32)
	case 1:
		return pick(lower, 24)
	case 2:
		return pick("0123456789abcdef", 40)
	case 3:
		return base64.StdEncoding.EncodeToString([]byte(pick(mixed+"!#$%", 33)))
	case 4:
		return strings.Join([]string{pick(lower, 8), pick(lower, 8), pick(lower, 8), pick(lower, 8)}, "-")
	}
	return pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 36)
}

func sendExternal(tr *Tracker, session string, text string) []string {
	var args []byte
	if strings.HasPrefix(text, `{"structuredContent"`) {
		args = []byte(text)
	} else {
		args, _ = json.Marshal(map[string]string{"body": text})
	}
	a := tr.Session(session).Check("web", "post", classify.Result{Class: classify.External}, args, unwrap.Views(args), nil)
	return a.Secrets
}

func runKeyish(t *testing.T, seed int64, templates, benign []string) (caught, flagged rate, notes []string) {
	tr := NewTracker(Options{}, detector(t))
	r := rand.New(rand.NewSource(seed))
	for round := 0; round < 6; round++ {
		for i, tpl := range templates {
			text := fmt.Sprintf(tpl, keyishValue(r, i+round))
			caught.n++
			if len(sendExternal(tr, fmt.Sprintf("k%d-%d", round, i), text)) > 0 {
				caught.hit++
			} else {
				notes = append(notes, fmt.Sprintf("miss %q", text))
			}
		}
	}
	for i, b := range benign {
		flagged.n++
		if s := sendExternal(tr, fmt.Sprintf("b%d", i), b); len(s) > 0 {
			flagged.hit++
			notes = append(notes, fmt.Sprintf("flagged %v %q", s, b))
		}
	}
	return caught, flagged, notes
}

func TestKeyishNamesLeaving(t *testing.T) {
	caught, flagged, notes := runKeyish(t, 51, keyishTuned, keyishBenignTuned)
	t.Logf("tuned: sent credentials denied %v, benign flagged %v", caught, flagged)
	for _, n := range notes {
		t.Log("  tuned " + n)
	}
	assert.Equal(t, caught.n, caught.hit, "tuned credentials")
	assert.Zero(t, flagged.hit, "tuned benign")
	caught, flagged, notes = runKeyish(t, 52, keyishSetAside, keyishBenignSetAside)
	t.Logf("set aside: sent credentials denied %v, benign flagged %v", caught, flagged)
	for _, n := range notes {
		t.Log("  set aside " + n)
	}
}
