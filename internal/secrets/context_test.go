package secrets

import (
	"encoding/base64"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The context corpus: credentials of providers no rule names, each given
// by a key-ish name in one notation and a value of one shape, and benign
// text full of high-entropy values that are not credentials. It is written
// for this test, in two parts: the tuned part was written first and the
// detector was improved against it; the fresh part was written afterwards,
// with names, syntaxes and shapes not in the tuned part, and nothing was
// changed for it. The rates of both are printed; the fresh part's are the
// honest ones.

// randomValue returns a value of a shape, from r.
func randomValue(r *rand.Rand, shape string) string {
	pick := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		return string(b)
	}
	const (
		lower = "abcdefghijklmnopqrstuvwxyz0123456789"
		mixed = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
		hexs  = "0123456789abcdef"
	)
	switch shape {
	case "lower24":
		return pick(lower, 24)
	case "lower20":
		return pick(lower, 20)
	case "mixed32":
		return pick(mixed, 32)
	case "mixed40":
		return pick(mixed, 40)
	case "hex32":
		return pick(hexs, 32)
	case "hex64":
		return pick(hexs, 64)
	case "b64_40":
		return base64.StdEncoding.EncodeToString([]byte(pick(mixed+"+/!#", 30)))
	case "prefixed":
		return pick("abcdefghijklmnopqrstuvwxyz", 4) + "_live_" + pick(mixed, 28)
	case "dashed":
		return pick(lower, 8) + "-" + pick(lower, 8) + "-" + pick(lower, 8)
	case "jwt":
		h := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))
		p := base64.RawURLEncoding.EncodeToString([]byte(fmt.Sprintf(`{"sub":"%s","iat":%d}`, pick(lower, 8), 1700000000+r.Intn(1e6))))
		return h + "." + p + "." + pick(mixed+"-_", 43)
	case "upper_digits28":
		return pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 28)
	case "password":
		return pick("abcdefghijkmnpqrstuvwxyz", 5) + pick("!#%&*", 1) + pick("ABCDEFGHJKLMNP", 2) + pick("23456789", 3)
	}
	panic(shape)
}

// notation writes name = value one way; the name is given in the case the
// notation uses (env names upper-cased, headers dashed).
type notation struct {
	name string
	f    func(name, value string) string
}

func envName(n string) string { return strings.ToUpper(strings.ReplaceAll(n, "-", "_")) }

func headerName(n string) string {
	parts := strings.FieldsFunc(n, func(r rune) bool { return r == '_' || r == '-' })
	for i, p := range parts {
		parts[i] = strings.ToUpper(p[:1]) + p[1:]
	}
	return strings.Join(parts, "-")
}

var tunedSyntaxes = []notation{
	{"env", func(n, v string) string { return envName(n) + "=" + v }},
	{"export", func(n, v string) string { return "export " + envName(n) + "=\"" + v + "\"\n" }},
	{"yaml", func(n, v string) string { return "service:\n  " + n + ": " + v + "\n  region: eu-west-1\n" }},
	{"json", func(n, v string) string { return `{"config": {"` + n + `": "` + v + `", "timeout": 30}}` }},
	{"structured", func(n, v string) string { return "structuredContent: config: " + envName(n) + ": " + v }},
	{"python", func(n, v string) string { return "client = Client()\n" + n + " = '" + v + "'\n" }},
	{"url query", func(n, v string) string {
		return "see https://api.vendor.example/v2/items?" + n + "=" + v + "&limit=10"
	}},
	{"header", func(n, v string) string { return "X-" + headerName(n) + ": " + v }},
	{"cli flag", func(n, v string) string {
		return "vendorctl deploy --" + strings.ReplaceAll(n, "_", "-") + " " + v + " --region eu"
	}},
	{"log line", func(n, v string) string {
		return "2026-03-11 09:12:44 [DEBUG] Using " + headerName(n) + "=" + v + " for upload"
	}},
	{"psql table", func(n, v string) string {
		return " id | service | " + n + "\n----+---------+" + strings.Repeat("-", len(n)+2) + "\n  1 | billing | " + v + "\n(1 row)\n"
	}},
}

var tunedNames = []string{"api_key", "apiToken", "client_secret", "access_token", "auth_token", "secret_key", "acme_secret", "db_password", "private_key", "service_key"}

var tunedShapes = []string{"lower24", "mixed32", "hex32", "b64_40", "prefixed", "jwt", "password"}

// The fresh part: other names, syntaxes and shapes.
var freshSyntaxes = []notation{
	{"toml", func(n, v string) string { return "[vendor]\n" + n + " = \"" + v + "\"\n" }},
	{"go", func(n, v string) string { return "var " + n + " = \"" + v + "\"" }},
	{"js object", func(n, v string) string { return "const cfg = { " + n + ": '" + v + "', retries: 3 };" }},
	{"ini", func(n, v string) string { return "[default]\n" + n + "=" + v + "\n" }},
	{"docker env", func(n, v string) string { return "docker run -e " + envName(n) + "=" + v + " vendor/app:1.4" }},
	{"markdown table", func(n, v string) string {
		return "| env | " + n + " |\n|---|---|\n| prod | " + v + " |\n"
	}},
	{"xml", func(n, v string) string { return "<config><" + n + ">" + v + "</" + n + "></config>" }},
	{"kv log", func(n, v string) string { return "level=info msg=\"auth ok\" " + n + "=" + v + " took=3ms" }},
	{"curl header", func(n, v string) string {
		return "curl -H '" + headerName(n) + ": " + v + "' https://api.vendor.example/v1/me"
	}},
}

var freshNames = []string{"webhook_secret", "signing_key", "refresh_token", "consumer_secret", "bot_token", "app_password", "encryption_key", "session_token", "master_key", "license_key"}

var freshShapes = []string{"lower20", "mixed40", "hex64", "upper_digits28", "dashed"}

// The held-out part, written last and run once: names, notations and
// shapes in neither part above.
var heldNotations = []notation{
	{"properties", func(n, v string) string {
		return "spring.datasource.url=jdbc:mysql://db/app\napp." + n + "=" + v + "\n"
	}},
	{"ruby hash", func(n, v string) string { return "config = { " + n + ": \"" + v + "\", timeout: 5 }" }},
	{"php define", func(n, v string) string { return "define('" + envName(n) + "', '" + v + "');" }},
	{"k8s secret", func(n, v string) string {
		return "apiVersion: v1\nkind: Secret\nstringData:\n  " + strings.ReplaceAll(n, "_", "-") + ": \"" + v + "\"\n"
	}},
	{"powershell", func(n, v string) string { return "$env:" + envName(n) + " = \"" + v + "\"" }},
	{"tsv export", func(n, v string) string { return "tenant\t" + n + "\tplan\nacme\t" + v + "\tpro\n" }},
	{"json in text", func(n, v string) string {
		return "The tool returned {\"ok\":true,\"data\":{\"" + n + "\":\"" + v + "\"}} after 2 retries."
	}},
	{"http form", func(n, v string) string {
		return "POST /oauth HTTP/1.1\n\ngrant_type=client_credentials&" + n + "=" + v
	}},
}

var heldNames = []string{"stripeSecret", "SLACK_SIGNING_SECRET", "partner_api_key", "oauth_client_secret", "admin_pass", "hmac_key", "accessKey", "jwt_secret"}

var heldShapes = []string{"mixed32", "lower20", "hex32", "b64_40", "prefixed", "password", "upper_digits28"}

var heldBenign = []string{
	"sri: sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC",
	"go.sum: golang.org/x/text v0.14.0/go.mod h1:18ZOQIKpY8NJVqYksKHtTdi31H5itFRjB5/qKTNYzSU=",
	"$ git log --oneline\n1a2b3c4 fix build\ne83c5163316f89bfbde7d9ab23ca2e25604af290 initial",
	"request_id=7c9e6679-7425-40de-944b-e07fc1f90ae7 status=200",
	"docker pull nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31",
	"TOKEN=your_token_here\nSECRET=changeme\nAPI_KEY=<insert key>",
	"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7 deploy@ci",
	"| id | hash |\n|---|---|\n| 1 | 5d41402abc4b2a76b9719d911017c592 |",
	"idempotency_key: 8c6f1e2a-3b4d-4e5f-9a0b-1c2d3e4f5a6b",
	"nextPageToken: CAoQAA\ncursor: eyJpZCI6MTIzNH0",
	"author_key_fingerprint: SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8",
	"bitmap: AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA//////////8=",
}

// benignCases are high-entropy values that are not credentials, in the
// syntaxes above; tunedBenign was written first, freshBenign afterwards.
var tunedBenign = []string{
	`"node_modules/left-pad": {"version": "1.3.0", "resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz", "integrity": "sha512-XI5MPzVNApjAyhQzphX8BkmKsKUxD4LdyK24iZeQjm6hJDfIgn2GB4yXuZxlqqZfjw3OB1R2VGVUXUHSwX5EK+Q=="}`,
	"github.com/stretchr/testify v1.9.0 h1:HtqpIVDClZ4nwg75+f6Lvsy/wHu+3BoSGCbBAcpTsTg=",
	"commit 9fceb02d0ae598e95dc970b74767f19372d61af8\nAuthor: Dana <dana@example.org>",
	"X-Request-Id: 3f8e2a1c-4b5d-6e7f-8a9b-0c1d2e3f4a5b",
	"image: registry.example.org/app@sha256:4c1e1b7a9f3d2e8c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c",
	"API_KEY=${API_KEY}\nDB_PASSWORD=<your-password-here>\nTOKEN=xxxxxxxxxxxxxxxxxxxx",
	"public_key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl user@host",
	"cache_key: v1-deps-{{ checksum \"go.sum\" }}\nprimary_key: id\ntoken_count: 18342",
	`<input type="hidden" name="csrf_token" value="a8f5f167f44f4964e6c998dee827110c">`,
	"page_token: CgkIARCAgICAgICAgAEaDAiAg8KjBhCA8ey7Aw",
	`<script nonce="r4nd0mN0nc3V4lu3xyz" src="/app.js"></script>`,
	"etag: W/\"5e15153d-120f\"\ncontent-md5: Q2h1Y2sgSW5nZXJzb2xs",
	"session_id | user | created\n-----------+------+--------\n 8f14e45fceea167a5a36dedd4bea2543 | ana | 2026-01-02",
}

var freshBenign = []string{
	"sha256sum: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  empty.txt",
	`{"trace_id": "4bf92f3577b34da6a3ce929d0e0e4736", "span_id": "00f067aa0ba902b7"}`,
	"checksum = \"7d865e959b2466918c9863afca942d0fb89d7c9ac0c99bafc3749504ded97730\"",
	"Cargo.lock: checksum = \"a4a8b5f3e2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5\"",
	"yarn.lock: integrity sha1-7dEsWg8RyvLeQPu5JplHd2eOMHk=",
	"  resolved \"https://registry.yarnpkg.com/ms/-/ms-2.1.2.tgz#d09d1f357b443f493382a8eb3ccd183872ae6009\"",
	"merge 3e7a9c1 into 5b2d8f4; parent 2fd4e1c67a2d28fced849ee1bb76e7391b93eb12",
	"correlation-id: 0b9e3c7a-2f4d-4a1e-9c8b-7d6e5f4a3b2c",
	"thumbnail: data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
	"object_key: uploads/2026/03/7f3a9c2e1b4d5f6a.jpg\nbucket_key: media-prod",
	"font-family: Inter; color: #3b82f6; --tw-ring-offset-shadow: 0 0 #0000;",
	"token_type: Bearer\nexpires_in: 3600\ntoken_url: https://auth.example.org/oauth/token",
	"password_min_length: 12\npassword_policy: strong\npasswordless: enabled",
	"| key | description |\n|---|---|\n| api_key | the key you get from the dashboard |\n",
}

type rate struct{ n, hit int }

func (r rate) String() string {
	return fmt.Sprintf("%d/%d (%.1f%%)", r.hit, r.n, 100*float64(r.hit)/float64(max(r.n, 1)))
}

func runContextCorpus(t *testing.T, d *Detector, seed int64, syntaxes []notation, names, shapes []string, benign []string) (caught, flagged rate, misses, fps []string) {
	r := rand.New(rand.NewSource(seed))
	for _, sx := range syntaxes {
		for i, name := range names {
			shape := shapes[(i+len(sx.name))%len(shapes)]
			v := randomValue(r, shape)
			text := sx.f(name, v)
			caught.n++
			hit := false
			for _, f := range d.Scan(text) {
				hit = hit || strings.Contains(f.Value, v) || strings.Contains(v, f.Value) && len(f.Value) >= 16
			}
			if hit {
				caught.hit++
			} else {
				misses = append(misses, fmt.Sprintf("%s/%s/%s: %q", sx.name, name, shape, text))
			}
		}
	}
	for _, b := range benign {
		flagged.n++
		if fs := d.Scan(b); len(fs) > 0 {
			flagged.hit++
			fps = append(fps, fmt.Sprintf("%s %q in %q", fs[0].Type, fs[0].Value, b))
		}
	}
	return caught, flagged, misses, fps
}

func TestContextCorpus(t *testing.T) {
	d, err := New()
	require.NoError(t, err)
	for _, part := range []struct {
		name     string
		seed     int64
		syntaxes []notation
		names    []string
		shapes   []string
		benign   []string
		minCatch float64
	}{
		{"tuned", 1, tunedSyntaxes, tunedNames, tunedShapes, tunedBenign, 0.95},
		{"fresh (not tuned on)", 2, freshSyntaxes, freshNames, freshShapes, freshBenign, 0.0},
		{"held out (written last, run once)", 3, heldNotations, heldNames, heldShapes, heldBenign, 0.0},
	} {
		caught, flagged, misses, fps := runContextCorpus(t, d, part.seed, part.syntaxes, part.names, part.shapes, part.benign)
		t.Logf("%s: credentials caught %v; benign flagged %v", part.name, caught, flagged)
		for _, m := range misses {
			t.Logf("  %s miss %s", part.name, m)
		}
		for _, f := range fps {
			t.Logf("  %s false positive %s", part.name, f)
		}
		assert.GreaterOrEqual(t, float64(caught.hit)/float64(caught.n), part.minCatch, part.name)
	}
}

// A value of lower-case letters only under a credential name is a
// credential when it reads as drawn at random, not as words run together.
func TestLowerCaseLettersOnly(t *testing.T) {
	d, err := Default()
	require.NoError(t, err)
	for _, text := range []string{
		"  quill_token: hbtkwrzpqmdsvfnclxgaye",
		"QUILL_TOKEN=skknctkcmyghbiezfn",
		`{"tessera_secret": "ghreewiixftuipgxqnsutosp"}`,
	} {
		assert.NotEmpty(t, d.Scan(text), text)
	}
	for _, text := range []string{
		"secret_name: mysupersecretpassword",
		"api_key_header: authorizationheader",
		"token_type: refreshtokenrotation",
	} {
		assert.Empty(t, d.Scan(text), text)
	}
}

// A value that names its hash algorithm is a digest, whatever name it
// stands under, and a typed token's type is never a hash algorithm.
func TestDigestsAreNoCredentials(t *testing.T) {
	d, err := Default()
	require.NoError(t, err)
	for _, text := range []string{
		"author_key_fingerprint: SHA256:3KJaqAmIhNQG4bvEgXF33afQE+bd3pYUDwuq+J0C68Y",
		`signing_key_digest = "sha512:9f2c4e1a7b3d5f60a8c2e4b6d8f0a1c3e5b7d9f1a2c4e6b8d0f2a4c6e8b0d2f4"`,
	} {
		assert.Empty(t, d.Scan(text), text)
	}
	sri := []byte(`<script integrity="sha384-HpdTB2tC17mnyPRyn8QpiOgzWNDTRjPbv5DXBPunUytUKjnWUJY8whTYIqRxgMpO"></script>`)
	assert.Empty(t, ScanBare(sri, false))
	assert.NotEmpty(t, ScanBare([]byte(`token zqk_prod_HpdTB2tC17mnyPRyn8QpiOgzWNDTRjPbv5DXBPunUytU`), false), "a typed token still is one")
}
