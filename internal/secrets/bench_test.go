package secrets

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// cleanParts are the kinds of text flowd sees in tool results: prose, source
// code, JSON, logs, HTML. They mention keys, tokens and passwords the way
// clean text does, without holding any.
var cleanParts = []string{
	"The quick review found that the cache key is derived from the request path, so two users who ask for the same page share an entry. ",
	"Passwords are hashed with argon2id before they are stored; the token bucket refills every second and the API returns 429 when it is empty. ",
	"func (s *Store) Get(key string) ([]byte, error) {\n\tv, ok := s.m[key]\n\tif !ok {\n\t\treturn nil, fmt.Errorf(\"get %s: not found\", key)\n\t}\n\treturn v, nil\n}\n",
	`{"id": 4211, "name": "report-2024-03.pdf", "size": 183204, "owner": "alice", "shared": false, "url": "https://files.example.org/d/4211"}` + "\n",
	"2024-03-11T09:12:44Z INFO request completed method=GET path=/api/v1/items status=200 duration_ms=37 user_id=812\n",
	"<div class=\"card\"><h2>Monthly summary</h2><p>Revenue grew 12% while costs stayed flat.</p><a href=\"/reports/march\">Details</a></div>\n",
	"import os\nimport json\n\ndef load(path):\n    with open(path) as f:\n        return json.load(f)\n\nconfig = load(os.path.join(base_dir, 'settings.json'))\n",
	"Set auth_mode to \"oauth\" and point token_url at your identity provider; the client id is public, the secret must stay in the vault. ",
}

func cleanText(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(cleanParts[i%len(cleanParts)])
		if i%5 == 4 {
			fmt.Fprintf(&b, "Item %d of %d processed.\n", i, i*7)
		}
	}
	return b.String()[:n]
}

// planted secrets, spread through a text at fixed intervals.
var planted = []string{
	"aws_access_key_id = AKIAZ4XQ7RT2LMNB3VCW\n",
	"export GITHUB_TOKEN=ghp_8fK2mQz7Lr4Vx1Nc9Pt6Wb3Jh5Dy0Sa2Ue7R\n",
	`{"db": "postgres://app:Xk9#vL2qPz@db.internal:5432/orders"}` + "\n",
	"password: Tr0ub4dor&3xyz\n",
}

func withSecrets(n int) string {
	clean := cleanText(n)
	var b strings.Builder
	step := max(len(clean)/(len(planted)+1), 1)
	for i, p := range planted {
		b.WriteString(clean[min(i*step, len(clean)):min((i+1)*step, len(clean))])
		b.WriteString(p)
	}
	b.WriteString(clean[min(len(planted)*step, len(clean)):])
	return b.String()
}

func BenchmarkScan(b *testing.B) {
	d, err := New()
	if err != nil {
		b.Fatal(err)
	}
	sizes := []struct {
		name string
		n    int
	}{{"200B", 200}, {"4KB", 4 << 10}, {"1MB", 1 << 20}}
	for _, sz := range sizes {
		for _, kind := range []string{"clean", "secrets"} {
			text := cleanText(sz.n)
			if kind == "secrets" {
				text = withSecrets(sz.n)
			}
			b.Run(sz.name+"/"+kind, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				b.ReportAllocs()
				for b.Loop() {
					d.Scan(text)
				}
			})
		}
	}
}

// BenchmarkScanShapes measures 1 MB texts that stress the prefilter: random
// base64, base64url and hex (one long token holding many keyword hits), JSON full of key names, and API
// documentation that says "key", "token" and "password" every sentence.
func BenchmarkScanShapes(b *testing.B) {
	d, err := New()
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewSource(1))
	raw := make([]byte, 768<<10)
	r.Read(raw)
	var js, docs strings.Builder
	for i := 0; js.Len() < 1<<20; i++ {
		fmt.Fprintf(&js, `{"id":"%x","token_type":"bearer","key":"item-%d","password_policy":"min 12","sha":"%x"},`, r.Int63(), i, r.Int63())
	}
	for docs.Len() < 1<<20 {
		docs.WriteString("To authenticate, pass your API key in the X-Api-Key header or an access token as a Bearer token. " +
			"Keys and secrets are created in the dashboard; never share your password. ")
	}
	for _, c := range []struct{ name, text string }{
		{"base64", base64.StdEncoding.EncodeToString(raw)},
		{"base64url", base64.RawURLEncoding.EncodeToString(raw)},
		{"hex", hex.EncodeToString(raw[:512<<10])},
		{"json", js.String()},
		{"apidocs", docs.String()},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.text)))
			for b.Loop() {
				if fs := d.Scan(c.text); len(fs) != 0 {
					b.Fatalf("clean %s text has findings: %+v", c.name, fs[0])
				}
			}
		})
	}
}

func TestBenchmarkTextsAreWhatTheySay(t *testing.T) {
	d, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{200, 4 << 10, 1 << 20} {
		if fs := d.Scan(cleanText(n)); len(fs) != 0 {
			t.Errorf("clean text of %d bytes has findings: %+v", n, fs)
		}
	}
	fs := d.Scan(withSecrets(4 << 10))
	types := map[string]bool{}
	for _, f := range fs {
		types[f.Type] = true
	}
	for _, want := range []string{"aws_access_key", "github_token", "db_connection_string", "password_assignment"} {
		if !types[want] {
			t.Errorf("planted %s not found; findings %+v", want, fs)
		}
	}
}
