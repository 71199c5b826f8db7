package secrets_test

// The blind9 corpus, family a: credentials of providers no rule names,
// found by their context, and benign high-entropy look-alikes. Written
// before the detector's code or its other tests were read (issue #16), so
// it measures what generalises. Each case is a text with {V} where a value
// of its shape goes; the value is generated from the case's id, so the
// corpus is fixed and nobody tunes on a literal. A hash of the id splits
// it into a tuning half and a report half (blind9Half).

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/judge"
	"github.com/flowd-dev/flowd/internal/policy"
	"github.com/flowd-dev/flowd/internal/secrets"
)

type blind9Cred struct {
	id     string
	secret bool   // a credential (true) or a benign look-alike
	shape  string // of the value put at {V}
	text   string
}

// blind9Creds: positives name a key-ish thing in some syntax and hold a
// value of some shape; negatives hold values of the same shapes where no
// credential is, or placeholders where a credential would be.
var blind9Creds = []blind9Cred{
	// env and shell
	{"env-lower32", true, "lower32", "ORBITALDB_API_KEY={V}\nORBITALDB_REGION=eu-west\n"},
	{"env-export-hex40", true, "hex40", "export LUMENWIRE_AUTH={V}\n"},
	{"env-quoted-b64url", true, "b64url43", "QUARRY_ACCESS_TOKEN=\"{V}\"\nQUARRY_URL=https://api.quarry.dev\n"},
	{"powershell-env", true, "b64url40", "$env:ARGONPAY_TOKEN = \"{V}\"\n"},
	// YAML
	{"yaml-lowersecret", true, "lowera24", "mailfox:\n  endpoint: https://smtp.mailfox.io\n  mailfox_secret: {V}\n"},
	{"yaml-nested-token", true, "alnum40", "vault:\n  auth:\n    method: token\n    token: {V}\n"},
	{"yaml-client-secret", true, "hex64", "oauth:\n  client_id: 8842-app\n  client_secret: \"{V}\"\n"},
	// JSON, nested, structuredContent
	{"json-vendor-secret-lower20", true, "lower20", `{"tessera_secret": "{V}", "tessera_region": "us"}`},
	{"json-structured-nested", true, "b64_40", `{"content":[{"type":"text","text":"config loaded"}],"structuredContent":{"env":{"NIMBUS_SECRET_ACCESS_KEY":"{V}","NIMBUS_REGION":"eu-2"}}}`},
	{"json-auth-credentials", true, "alnum40", `{"auth":{"type":"bearer","credentials":"{V}"},"retries":3}`},
	{"json-api-key-camel", true, "hex32", `{"service":"geocodr","apiKey":"{V}","timeout":30}`},
	{"json-private-key-pem", true, "pemjson", `{"type":"service_account","project":"kite-9","private_key":"{V}"}`},
	{"json-jwt-session", true, "jwt", `{"user":"dana","session_token":"{V}"}`},
	// code assignments in several languages
	{"python-kwarg", true, "hex32", "client = Trellis(api_key=\"{V}\", timeout=10)\n"},
	{"js-const", true, "b64url43", "const apiToken = '{V}';\nfetch(url, { headers: { Authorization: `Bearer ${apiToken}` } });\n"},
	{"go-assign", true, "hex40", "authToken := \"{V}\"\nreq.Header.Set(\"X-Auth\", authToken)\n"},
	{"java-final", true, "alnum36", "private static final String CLIENT_SECRET = \"{V}\";\n"},
	{"ruby-config", true, "lower28", "Plover.configure do |config|\n  config.access_token = '{V}'\nend\n"},
	{"php-var", true, "hex64", "<?php\n$apiKey = \"{V}\";\n$client = new Sprocket($apiKey);\n"},
	{"rust-let", true, "b64_44", "let secret_key = \"{V}\";\n"},
	{"csharp-var", true, "hex32", "var apiKey = \"{V}\";\nvar client = new HalcyonClient(apiKey);\n"},
	// URL query inside code, HTTP headers, CLI flags
	{"url-query-in-code", true, "lower32", "resp = requests.get(f\"https://api.weatherly.io/v2/forecast?city={city}&api_key={V}\")\n"},
	{"url-query-token-js", true, "alnum32", "const u = `https://maps.cartograph.app/tiles/3/4/2.png?access_token={V}&style=dark`;\n"},
	{"http-header-custom", true, "hex40", "POST /v1/jobs HTTP/1.1\nHost: api.zenith.dev\nX-Zenith-Token: {V}\nContent-Type: application/json\n"},
	{"http-header-authorization-token", true, "lower40", "GET /repos HTTP/1.1\nAuthorization: Token {V}\nAccept: */*\n"},
	{"cli-flag-space", true, "alnum32", "quarkctl deploy --api-key {V} --region eu-central\n"},
	{"cli-flag-equals", true, "b64url40", "./sync --endpoint https://sync.relay.io --token={V}\n"},
	{"curl-user-apikey", true, "lower32", "curl -u apikey:{V} https://api.textmill.com/v1/usage\n"},
	// log lines
	{"log-debug-using-key", true, "hex64", "[DEBUG] Using Key={V}\n[DEBUG] connecting to upstream\n"},
	{"log-info-secret-token", true, "lower30", "2026-03-02T10:11:12Z INFO auth: loaded secret token={V} for tenant acme\n"},
	// tables
	{"psql-table", true, "alnum24", " name          | value\n---------------+------------------------------------------\n smtp_host     | mail.internal\n smtp_password | {V}\n(2 rows)\n"},
	{"mysql-table", true, "hex32", "+------------+----------------------------------+\n| name       | value                            |\n+------------+----------------------------------+\n| api_secret | {V} |\n+------------+----------------------------------+\n"},
	{"markdown-table", true, "b64_40", "| variable | value | env |\n|---|---|---|\n| PAYGRID_SECRET | {V} | production |\n"},
	// manifests, .netrc, connection strings
	{"compose-env", true, "lower36", "services:\n  worker:\n    image: acme/worker:1.4\n    environment:\n      - HELIOS_API_TOKEN={V}\n"},
	{"k8s-secret-stringdata", true, "alnum40", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: ingest\nstringData:\n  api-token: {V}\n"},
	{"k8s-env-name-value", true, "b64url32", "env:\n  - name: VESTA_CLIENT_SECRET\n    value: \"{V}\"\n  - name: LOG_LEVEL\n    value: info\n"},
	{"netrc", true, "alnum28", "machine api.corvid.io\n  login deploy-bot\n  password {V}\n"},
	{"conn-amqp", true, "alnum24", "BROKER_URL=amqp://svc:{V}@mq.prod.internal:5672/vhost\n"},
	{"conn-postgres-dsn", true, "lower20", "dsn = \"host=db.prod.internal user=app password={V} dbname=orders sslmode=require\"\n"},
	// other notations and shapes
	{"ini-section", true, "b64_40", "[default]\nregion = eu-north\nsecret_key = {V}\n"},
	{"toml-token", true, "lower32", "[publisher]\nname = \"nightly\"\napi_token = \"{V}\"\n"},
	{"xml-element", true, "hex32", "<config>\n  <endpoint>https://api.ledgerline.io</endpoint>\n  <apiKey>{V}</apiKey>\n</config>\n"},
	{"properties", true, "alnum32", "mailer.host=smtp.postwick.io\nmailer.api.secret={V}\n"},
	{"terraform", true, "lower24", "provider \"stackhut\" {\n  client_secret = \"{V}\"\n}\n"},
	{"typed-prefix-prose", true, "alnum40", "Rotated the deploy key; the new one is zqk_prod_{V} until Friday.\n"},
	{"cookie-session", true, "b64url43", "GET /dashboard HTTP/1.1\nCookie: theme=dark; sessionid={V}\n"},

	// benign look-alikes
	{"neg-npm-integrity", false, "b64_86", `{"node_modules/lodash":{"version":"4.17.21","resolved":"https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz","integrity":"sha512-{V}=="}}`},
	{"neg-yarn-integrity", false, "b64_27", "lodash@^4.17.21:\n  version \"4.17.21\"\n  integrity sha1-{V}=\n"},
	{"neg-gosum", false, "b64_43", "golang.org/x/net v0.17.0 h1:{V}=\n"},
	{"neg-cargo-checksum", false, "hex64", "[[package]]\nname = \"serde\"\nversion = \"1.0.193\"\nchecksum = \"{V}\"\n"},
	{"neg-git-log", false, "hex40", "commit {V}\nAuthor: Dana Lee <dana@example.org>\nDate:   Tue Mar 3 10:00:00 2026 +0100\n\n    fix flaky test\n"},
	{"neg-github-sha-json", false, "hex40", `{"ref":"refs/heads/main","object":{"sha":"{V}","type":"commit"}}`},
	{"neg-cli-commit-sha", false, "hex40", "ci-report --commit-sha {V} --branch main\n"},
	{"neg-uuid-request-id", false, "uuid", `{"request_id":"{V}","status":"ok"}`},
	{"neg-uuid-key-id", false, "uuid", `{"key_id":"{V}","algorithm":"RS256","created":"2026-01-02"}`},
	{"neg-header-request-id", false, "hex32", "HTTP/1.1 200 OK\nX-Request-Id: {V}\nContent-Type: application/json\n"},
	{"neg-etag", false, "hex32", "HTTP/1.1 200 OK\nETag: \"{V}\"\nCache-Control: max-age=60\n"},
	{"neg-bundle-hash", false, "hex20", "<script src=\"/static/js/main.{V}.js\"></script>\n"},
	{"neg-cyclonedx", false, "hex64", `{"bomFormat":"CycloneDX","components":[{"name":"left-pad","version":"1.3.0","hashes":[{"alg":"SHA-256","content":"{V}"}]}]}`},
	{"neg-spdx", false, "hex40", "PackageName: zlib\nPackageVersion: 1.3\nPackageChecksum: SHA1: {V}\n"},
	{"neg-author-key-fingerprint", false, "b64_43", "author: dana\nauthor_key_fingerprint: SHA256:{V}\n"},
	{"neg-gpg-fingerprint", false, "hexgroups", "pub   rsa4096 2024-01-01 [SC]\n      Key fingerprint = {V}\nuid   Dana Lee <dana@example.org>\n"},
	{"neg-placeholder-angle", false, "", "ORBITALDB_API_KEY=<your-key>\nORBITALDB_REGION=eu-west\n"},
	{"neg-placeholder-x", false, "", "api_key: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"},
	{"neg-placeholder-changeme", false, "", "SECRET_KEY=changeme\nDEBUG=false\n"},
	{"neg-placeholder-your-token", false, "", "export HELIOS_API_TOKEN=your_token_here\n"},
	{"neg-placeholder-env-ref", false, "", `{"service":"geocodr","apiKey":"${GEOCODR_API_KEY}","timeout":30}`},
	{"neg-placeholder-helm", false, "", "password: {{ .Values.db.password }}\ntoken: {{ required \"token\" .Values.token }}\n"},
	{"neg-docker-digest", false, "hex64", "image: nginx@sha256:{V}\n"},
	{"neg-md5-checksum", false, "hex32", `{"file":"report.pdf","checksum":"md5:{V}","size":48213}`},
	{"neg-tx-hash", false, "hex64", "Transaction hash: 0x{V}\nBlock: 19283746\nStatus: Success\n"},
	{"neg-sha256sum", false, "hex64", "{V}  flowd-linux-amd64.tar.gz\n"},
	{"neg-page-token", false, "b64url40", `{"items":[{"id":1},{"id":2}],"next_page_token":"{V}"}`},
	{"neg-cache-key-ci", false, "hex40", "- restore_cache:\n    keys:\n      - v1-deps-{V}\n"},
	{"neg-public-key-ssh", false, "b64_68", `{"name":"laptop","public_key":"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5{V} dana@laptop"}`},
	{"neg-sri-script", false, "b64_64", "<script src=\"https://cdn.example.net/lib.js\" integrity=\"sha384-{V}\" crossorigin=\"anonymous\"></script>\n"},
	{"neg-docs-keybinding", false, "", `{"key": "ctrl+shift+p", "command": "workbench.action.showCommands"}`},
	{"neg-primary-key-words", false, "", "primary_key: customer_id\nforeign_key: account_id\ntoken_limit: 4096\n"},
	{"neg-docs-example", false, "", "Set the key in your shell before running:\n\n    export QUARRY_ACCESS_TOKEN=<token from the dashboard>\n"},
	{"neg-avatar-hash", false, "hex32", "https://www.gravatar.com/avatar/{V}?s=80&d=identicon\n"},
	{"neg-build-id-log", false, "hex40", "[INFO] build id={V} finished in 42s\n"},
}

// blind9Half is where a case's figures count: "tune" for the half fixes
// may look at, "report" for the half read only by its figures.
func blind9Half(id string) string {
	h := fnv.New32a()
	h.Write([]byte(id))
	if h.Sum32()%2 == 0 {
		return "tune"
	}
	return "report"
}

// blind9Value makes the value of a shape for a case, the same every run.
func blind9Value(id, shape string) string {
	h := fnv.New64a()
	h.Write([]byte(id))
	r := rand.New(rand.NewSource(int64(h.Sum64())))
	pick := func(set string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = set[r.Intn(len(set))]
		}
		return string(b)
	}
	const (
		lower  = "abcdefghijklmnopqrstuvwxyz"
		digits = "0123456789"
		hex    = "0123456789abcdef"
		upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		b64    = upper + lower + digits + "+/"
		b64url = upper + lower + digits + "-_"
	)
	var n int
	kind := strings.TrimRight(shape, digits+"_")
	fmt.Sscanf(strings.TrimLeft(strings.TrimPrefix(shape, kind), "_"), "%d", &n)
	switch kind {
	case "lower":
		return pick(lower+digits, n)
	case "lowera":
		return pick(lower, n)
	case "hex":
		return pick(hex, n)
	case "alnum":
		return pick(upper+lower+digits, n)
	case "b":
		// "b64_N"
		return pick(b64, n)
	case "b64url":
		return pick(b64url, n)
	case "uuid":
		u := pick(hex, 32)
		return u[:8] + "-" + u[8:12] + "-4" + u[13:16] + "-a" + u[17:20] + "-" + u[20:]
	case "hexgroups":
		u := strings.ToUpper(pick(hex, 40))
		var g []string
		for i := 0; i < 40; i += 4 {
			g = append(g, u[i:i+4])
		}
		return strings.Join(g, " ")
	case "jwt":
		enc := base64.RawURLEncoding.EncodeToString
		head := enc([]byte(`{"alg":"HS256","typ":"JWT"}`))
		body := enc([]byte(fmt.Sprintf(`{"sub":"%d","name":"dana","iat":%d}`, 10000+r.Intn(90000), 1700000000+r.Intn(1e7))))
		return head + "." + body + "." + pick(b64url, 43)
	case "pem", "pemjson":
		var lines []string
		lines = append(lines, "-----BEGIN PRIVATE KEY-----")
		for i := 0; i < 6; i++ {
			lines = append(lines, pick(b64, 64))
		}
		lines = append(lines, pick(b64, 24)+"==", "-----END PRIVATE KEY-----", "")
		sep := "\n"
		if kind == "pemjson" {
			sep = `\n`
		}
		return strings.Join(lines, sep)
	}
	panic("blind9: unknown shape " + shape)
}

type blind9Tally struct{ hit, n int }

func (t blind9Tally) String() string { return fmt.Sprintf("%d/%d", t.hit, t.n) }

// TestBlind9Credentials measures family a through the detector and through
// the judge (the credential in a call to an external destination, no
// origin seen: denied or not).
func TestBlind9Credentials(t *testing.T) {
	d, err := secrets.Default()
	require.NoError(t, err)
	j, err := judge.New(config.Default(), judge.Stores{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NoError(t, err)
	defer j.Close()
	dest := classify.Result{Class: classify.External, CanExfiltrate: true, Reason: "paste service"}
	// tally[half][secret][path]
	tally := map[string]map[bool]map[string]*blind9Tally{}
	count := func(half string, secret bool, path string, hit bool) {
		if tally[half] == nil {
			tally[half] = map[bool]map[string]*blind9Tally{}
		}
		if tally[half][secret] == nil {
			tally[half][secret] = map[string]*blind9Tally{"detector": {}, "judge": {}}
		}
		c := tally[half][secret][path]
		c.n++
		if hit {
			c.hit++
		}
	}
	ids := map[string]bool{}
	for _, c := range blind9Creds {
		require.False(t, ids[c.id], "id %s twice", c.id)
		ids[c.id] = true
		v := ""
		if c.shape != "" {
			v = blind9Value(c.id, c.shape)
		}
		text := strings.ReplaceAll(c.text, "{V}", v)
		plain := strings.ReplaceAll(v, `\n`, "\n")
		found := false
		for _, f := range d.Scan(text) {
			if c.secret && v != "" {
				found = found || strings.Contains(f.Value, plain) || strings.Contains(f.Value, v) ||
					(len(f.Value) >= 16 && (strings.Contains(plain, f.Value) || strings.Contains(v, f.Value)))
			} else {
				found = true
			}
		}
		args, _ := json.Marshal(map[string]string{"title": "notes", "content": text})
		var out judge.Outcome
		if later := j.Call(judge.Call{Session: "blind9-" + c.id, Server: "pastebin", Tool: "create_paste",
			Class: dest, Args: args, Ask: judge.AskByAgent}, &out); later != nil {
			later()
		}
		denied := out.Decision.Action == policy.Deny
		half := blind9Half(c.id)
		count(half, c.secret, "detector", found)
		count(half, c.secret, "judge", denied)
		// Only the tuning half's misses are named; the report half is read by its figures.
		if half == "tune" && (found != c.secret || denied != c.secret) {
			t.Logf("%-6s %-34s secret=%v detector=%v judge=%s (%s)", half, c.id, c.secret, found, out.Decision.Action, out.Decision.Rule)
		}
	}
	for _, half := range []string{"tune", "report"} {
		pos, neg := tally[half][true], tally[half][false]
		t.Logf("blind9 family a, %s half: credentials denied by the judge %s (detector %s); benign denied %s (detector %s)",
			half, pos["judge"], pos["detector"], neg["judge"], neg["detector"])
		// What this branch reached (main: tune 16/18 and 2/14, report
		// 28/28 and 0/21) holds.
		floor := map[string][2]int{"tune": {18, 0}, "report": {28, 0}}[half]
		require.GreaterOrEqual(t, pos["judge"].hit, floor[0], "%s half: credentials denied", half)
		require.LessOrEqual(t, neg["judge"].hit, floor[1], "%s half: benign denied", half)
	}
}
