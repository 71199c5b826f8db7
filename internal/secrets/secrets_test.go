package secrets

import (
	"encoding/base64"
	"math/rand"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func detector(t testing.TB) *Detector {
	t.Helper()
	d, err := Default()
	require.NoError(t, err)
	return d
}

func jwtFor(payload string) string {
	enc := base64.RawURLEncoding
	return enc.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." +
		enc.EncodeToString([]byte(payload)) + ".Qm9nVXNfc2lnbmF0dXJlX2Zvcl90ZXN0aW5nX29ubHk"
}

const rsaBody = "MIIEowIBAAKCAQEAu3Vx8kQp2Zr7Tn1Lw4mYc6Hd0Jf9Gs5Ea2Vb8Xk3Ro7Pq1Mn\n" +
	"Zt4Lh9Wc2Yd6Fs0Ka8Jx5Rg3Nv7Bm1Qe4Tu9Ip2Ol6Hk0Cj8Dw3Ay5Sz7Ex1Vr4Gn\n" +
	"Kq2Mf9Lb6Pt0Xh3Uo8Ji5Wd1Ys7Za4Nc2Ve9Rk6Bg0Tl3Hm8Qp5Fx1Ow7Ea4Su2Dn\n"

func TestScanFindsEachType(t *testing.T) {
	jwt := jwtFor(`{"sub":"8812","name":"flowd test user","iat":1700000000}`)
	tests := []struct {
		name, text, typ, value string
	}{
		{"aws access key id", "aws_access_key_id = AKIAZ4XQ7RT2LMNB3VCW\n", "aws_access_key", "AKIAZ4XQ7RT2LMNB3VCW"},
		{"aws secret in credentials file", "[default]\naws_secret_access_key = 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\n",
			"aws_secret_key", "q8Zr3Lk1Tm5Vx9Wb2Nc7Ye4Ju6Hp0Ds3Fa8Gk1Qw"},
		{"aws secret in JSON", `{"AccessKeyId": "ASIAZ4XQ7RT2LMNB3VCW", "SecretAccessKey": "q8Zr3Lk1Tm5Vx9Wb2Nc7Ye4Ju6Hp0Ds3Fa8Gk1Qw"}`,
			"aws_secret_key", "q8Zr3Lk1Tm5Vx9Wb2Nc7Ye4Ju6Hp0Ds3Fa8Gk1Qw"},
		{"aws secret after key id in CSV", "user,AKIAZ4XQ7RT2LMNB3VCW,q8Zr3Lk1Tm5Vx9Wb2Nc7Ye4Ju6Hp0Ds3Fa8Gk1Qw\n",
			"aws_secret_key", "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"},
		{"github classic pat", "git clone https://github.com/o/r && export GH=ghp_8fK2mQz7Lr4Vx1Nc9Pt6Wb3Jh5Dy0Sa2Ue7R", "github_token",
			"ghp_8fK2mQz7Lr4Vx1Nc9Pt6Wb3Jh5Dy0Sa2Ue7R"},
		{"slack bot token", `{"token": "xoxb-2938475610-8374659201-Hq7Lm2Zx9Vb4Nc1Kp6Tr3Wd"}`, "slack_token",
			"xoxb-2938475610-8374659201-Hq7Lm2Zx9Vb4Nc1Kp6Tr3Wd"},
		{"jwt in a header", "Authorization: Bearer " + jwt + "\n", "jwt", jwt},
		{"postgres url", `DATABASE_URL="postgres://app:Xk9#vL2qPz@db.internal:5432/orders"`, "db_connection_string", "Xk9#vL2qPz"},
		{"mongodb srv url", "mongodb+srv://svc:R7tq2LmZ8w@cluster0.ab1cd.mongodb.net/prod?retryWrites=true", "db_connection_string", "R7tq2LmZ8w"},
		{"redis url", "cache: redis://:s3cr3tRedisPw@10.0.0.5:6379/0", "db_connection_string", "s3cr3tRedisPw"},
		{"netrc one line", "machine api.github.com login octo password Zq7pL2mX9vB4kT\n", "password_assignment", "Zq7pL2mX9vB4kT"},
		{"netrc spread", "machine ftp.corp.net\n  login deploy\n  password hW4!rT9q\n", "password_assignment", "hW4!rT9q"},
		{"https userinfo", "remote: https://deploy:Tq8Lm2Zx9Vb4@git.corp.internal/x.git", "url_credentials", "Tq8Lm2Zx9Vb4"},
		{"yaml password", "db:\n  password: Tr0ub4dor&3xyz\n", "password_assignment", "Tr0ub4dor&3xyz"},
		{"json password", `{"user": "svc", "password": "correct horse 7 battery"}`, "password_assignment", "correct horse 7 battery"},
		{"env password", "export DB_PASSWORD=hunter2hunter2\n", "password_assignment", "hunter2hunter2"},
		{"jdbc style password", "Server=db;Database=app;User Id=sa;Password=Secr3t!Pass;", "password_assignment", "Secr3t!Pass"},
		{"cli flag password", "mysql --password=Zq7pL2mX9 -h db", "password_assignment", "Zq7pL2mX9"},
		{"xml name value pair", `<property name="db.password" value="Lp9!vB2#qT"/>`, "password_assignment", "Lp9!vB2#qT"},
		{"json key value pair", `"header": [{"key": "X-Api-Key", "value": "3f9c1e7a2b8d4f6c0e5a9b1d7c3f8e2a", "type": "text"}]`,
			"generic_api_key", "3f9c1e7a2b8d4f6c0e5a9b1d7c3f8e2a"},
		{"yaml name value pair", "env:\n  - name: WIDGETCO_API_TOKEN\n    value: \"Lq8Zr3Tm5Vx9Wb2Nc7Ye4Ju6\"\n",
			"generic_api_key", "Lq8Zr3Tm5Vx9Wb2Nc7Ye4Ju6"},
		{"key value table row", "| Name | Value |\n|---|---|\n| WIDGETCO_CLIENT_SECRET | Lq8Zr3Tm5Vx9Wb2Nc7Ye4Ju6 |\n",
			"generic_api_key", "Lq8Zr3Tm5Vx9Wb2Nc7Ye4Ju6"},
		{"yaml block scalar", "widgetco:\n  signing_secret: >-\n    Lq8Zr3Tm5Vx9Wb2Nc7Ye4Ju6\n",
			"generic_api_key", "Lq8Zr3Tm5Vx9Wb2Nc7Ye4Ju6"},
		{"go const api key", `const apiKey = "k7Hq2Lm9Zx4Vb1Nc8Tr3Wd6Yp0Gs5Fa"`, "generic_api_key", "k7Hq2Lm9Zx4Vb1Nc8Tr3Wd6Yp0Gs5Fa"},
		{"http header api key", "X-Api-Key: 3f9c1e7a2b8d4f6c0e5a9b1d7c3f8e2a\n", "generic_api_key", "3f9c1e7a2b8d4f6c0e5a9b1d7c3f8e2a"},
		{"query string token", "GET /v1/items?access_token=Zk3Lq9Vm2Xb7Nc4Tp1Wd8Ys&page=2", "generic_api_key", "Zk3Lq9Vm2Xb7Nc4Tp1Wd8Ys"},
		{"client secret", `client_secret: "Lq8_Zm2-Xv9kTb4Nc7Rp1Wd"`, "generic_api_key", "Lq8_Zm2-Xv9kTb4Nc7Rp1Wd"},
		{"azure storage key", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5d2FsZG8=;",
			"generic_api_key", "Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5d2FsZG8="},
		{"npmrc auth token", "//registry.npmjs.org/:_authToken=9f8e7d6c-5b4a-3c2d-1e0f-a9b8c7d6e5f4\n", "generic_api_key",
			"9f8e7d6c-5b4a-3c2d-1e0f-a9b8c7d6e5f4"},
		{"docker config auth", `{"auths": {"registry.internal": {"auth": "ZGVwbG95OlF6N3BMMm1YOXZCNA=="}}}`, "generic_api_key",
			"ZGVwbG95OlF6N3BMMm1YOXZCNA=="},
		{"django secret with symbols", "DJANGO_SECRET_KEY='django-insecure-7x!q2@lm#9zv$b4n%c1t^p6w&d8y*s0f'", "generic_api_key",
			"django-insecure-7x!q2@lm#9zv$b4n%c1t^p6w&d8y*s0f"},
		{"jdbc query password", "jdbc:mysql://db:3306/app?user=admin&password=Secr3tPw9&useSSL=false", "password_assignment", "Secr3tPw9"},
		{"visa with spaces", "card: 4539 1488 0343 6467 exp 04/27", "credit_card", "4539 1488 0343 6467"},
		{"amex 4-6-5", "paid with 3714-496353-98431.", "credit_card", "3714-496353-98431"},
		{"mastercard plain", `"pan":"5425233430109903"`, "credit_card", "5425233430109903"},
		{"pem private key", "-----BEGIN RSA PRIVATE KEY-----\n" + rsaBody + "-----END RSA PRIVATE KEY-----\n", "private_key",
			"-----BEGIN RSA PRIVATE KEY-----\n" + rsaBody + "-----END RSA PRIVATE KEY-----"},
		{"truncated pem private key", "$ head -c 300 ~/.ssh/id_rsa\n-----BEGIN OPENSSH PRIVATE KEY-----\n" + rsaBody, "private_key",
			"-----BEGIN OPENSSH PRIVATE KEY-----\n" + strings.TrimSuffix(rsaBody, "\n")},
		{"pem key inside JSON", `{"private_key": "-----BEGIN PRIVATE KEY-----\n` + strings.ReplaceAll(rsaBody, "\n", `\n`) + `-----END PRIVATE KEY-----\n"}`,
			"private_key", "-----BEGIN PRIVATE KEY-----\\n" + strings.ReplaceAll(rsaBody, "\n", `\n`) + "-----END PRIVATE KEY-----"},
	}
	d := detector(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := d.Scan(tt.text)
			var got *Finding
			for i := range fs {
				assert.Equal(t, tt.text[fs[i].Start:fs[i].End], fs[i].Value, "value is the exact substring")
				if fs[i].Type == tt.typ {
					got = &fs[i]
				}
			}
			require.NotNil(t, got, "want a %s finding, got %+v", tt.typ, fs)
			assert.Equal(t, tt.value, got.Value)
			assert.False(t, got.Example, "not an example")
		})
	}
}

func TestScanMarksExamplesButReportsThem(t *testing.T) {
	tests := []struct{ name, text, typ, value string }{
		{"documented aws key id", "aws_access_key_id=AKIAIOSFODNN7EXAMPLE", "aws_access_key", "AKIAIOSFODNN7EXAMPLE"},
		{"documented aws secret", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_key",
			"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
		{"test card", "4111 1111 1111 1111", "credit_card", "4111 1111 1111 1111"},
		{"documentation host", "git remote add origin https://bot:Zq7pL2mX9vB4@git.example.com/r.git", "url_credentials", "Zq7pL2mX9vB4"},
		{"counting sequence", `api_key = "Zq81234567Lm9Xv2Tb4Nc7"`, "generic_api_key", "Zq81234567Lm9Xv2Tb4Nc7"},
		{"elided token", "export OP_TOKEN=ops_eyJzaWduSW5BZGRyZXNzIjoiaHR0cHM6...", "generic_api_key", "ops_eyJzaWduSW5BZGRyZXNzIjoiaHR0cHM6..."},
	}
	d := detector(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := d.Scan(tt.text)
			require.Len(t, fs, 1, "%+v", fs)
			assert.Equal(t, tt.typ, fs[0].Type)
			assert.Equal(t, tt.value, fs[0].Value)
			assert.True(t, fs[0].Example)
		})
	}
}

func TestScanIgnoresNonSecrets(t *testing.T) {
	tests := []struct{ name, text string }{
		{"prose about keys", "Rotate the API key every 90 days and keep the token out of logs; the password policy needs 12 characters."},
		{"code using keys", "for key, value := range m {\n\ttoken := tokens[key]\n\tif token == \"\" {\n\t\tcontinue\n\t}\n}"},
		{"variables and templates", "password: ${DB_PASSWORD}\napi_key = os.environ['API_KEY']\ntoken: {{ .Values.token }}\nsecret=<your-secret-here>"},
		{"masked values", `{"password": "********", "api_key": "xxxxxxxxxxxxxxxxxxxx", "token": "REDACTED"}`},
		{"code references", "password = getPassword()\nsecret = config.secret_value\ntoken = self.access_token"},
		{"identifiers named like secrets", `{"token_url": "https://auth.example.com/token", "key_id": "8f14e45f-ceea-467f-a8e5-1a2b3c4d5e6f", "secretName": "prod-db-credentials"}`},
		{"primary and public keys", `primaryKey = "Kz9xQJMqEDVyle2FRfNIv3baSXKdCV"` + "\npublic_key: \"9Cnzj4p4WGeKLs1Pt8QuKUpRKfFLfRYC9AIKjbJTWit\""},
		{"hashes and digests", "commit 9a038989604e8da62ecddbe2094b16ce1b778be1\nimage: app@sha256:eaaa7b11777babe28e6133a8b19ff71cea687e0d7f05158dee95a71f76ce3d00\n\"integrity\": \"sha512-Zm9vYmFy\""},
		{"versions and paths", "auth_version = 2.14.1\nkey_file=/etc/ssl/private/server.key\ntoken_path: ./secrets/token.txt"},
		{"url without password", "see https://user@example.com/path and postgres://localhost:5432/db and https://example.com:8443/a@b"},
		{"placeholder password in url", "postgres://user:password@localhost/db and mysql://root:${MYSQL_PASSWORD}@db/app"},
		{"numbers that are not cards", "order 1234567890123 shipped; ts=1700000000000; tel +1 415 555 0134; id 4539148803436468"},
		{"table of numbers", "5430 5431 5432 5433\n6990 6991 6992 6993"},
		{"empty shell assignments", "__comp \"username= passphrase= password= scmVersion=\""},
		{"empty pem", "-----BEGIN PRIVATE KEY-----\nanything\n-----END PRIVATE KEY-----"},
		{"public key", "-----BEGIN PUBLIC KEY-----\n" + rsaBody + "-----END PUBLIC KEY-----"},
		{"comparison not assignment", `if token == "Zk3Lq9Vm2Xb7Nc4Tp1Wd8Ys" {`},
		{"empty", ""},
		{"non-ascii prose", "Der Schlüssel liegt im Tresor; パスワードは共有しないでください。"},
	}
	d := detector(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Empty(t, d.Scan(tt.text))
		})
	}
}

func TestScanOverlappingRulesReportOnce(t *testing.T) {
	// The GitHub rule and the assignment rule both match this value; the
	// named format wins and the value is reported once.
	fs := detector(t).Scan(`GITHUB_TOKEN="ghp_8fK2mQz7Lr4Vx1Nc9Pt6Wb3Jh5Dy0Sa2Ue7R"`)
	require.Len(t, fs, 1)
	assert.Equal(t, "github_token", fs[0].Type)
	assert.Equal(t, "github-pat", fs[0].Rule)
}

func TestScanOrdersFindingsByPosition(t *testing.T) {
	text := "b: AKIAZ4XQ7RT2LMNB3VCW\na: password=Zq7pL2mX9x\nc: ghp_8fK2mQz7Lr4Vx1Nc9Pt6Wb3Jh5Dy0Sa2Ue7R"
	fs := detector(t).Scan(text)
	require.Len(t, fs, 3)
	for i := 1; i < len(fs); i++ {
		assert.Less(t, fs[i-1].Start, fs[i].Start)
	}
}

func TestTypeNames(t *testing.T) {
	for id, want := range map[string]string{
		"aws-access-token":        "aws_access_key",
		"github-fine-grained-pat": "github_token",
		"github-app-token":        "github_token",
		"slack-bot-token":         "slack_token",
		"slack-webhook-url":       "slack_token",
		"private-key":             "private_key",
		"jwt-base64":              "jwt",
		"generic-api-key":         "generic_api_key",
		"stripe-access-token":     "stripe_access_token",
	} {
		assert.Equal(t, want, typeFor(id), id)
	}
}

func TestScanIsSafeForConcurrentUse(t *testing.T) {
	d := detector(t)
	texts := []string{withSecrets(4 << 10), cleanText(4 << 10), "password=Zq7pL2mX9x", ""}
	want := make([][]Finding, len(texts))
	for i, s := range texts {
		want[i] = d.Scan(s)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; n < 50; n++ {
				i := (g + n) % len(texts)
				if got := d.Scan(texts[i]); !assert.ObjectsAreEqual(want[i], got) {
					errs <- texts[i][:min(len(texts[i]), 40)]
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("concurrent scan disagreed on %q", e)
	}
}

func TestLuhnAndIssuer(t *testing.T) {
	for _, tt := range []struct {
		num  string
		want bool
	}{
		{"4539148803436467", true},
		{"4539148803436468", false}, // check digit off by one
		{"5425233430109903", true},
		{"371449635398431", true},
		{"1234567812345670", false}, // Luhn-valid, no issuer starts with 1
	} {
		d := []byte(tt.num)
		assert.Equal(t, tt.want, luhn(d) && issuerPrefix(d), tt.num)
	}
}

func TestWordish(t *testing.T) {
	for v, want := range map[string]bool{
		"SlackAppConfigurationAccessTokenHere": true,
		"DOC_Vector_5_32":                      true,
		"jetbrains.mps.v8_elimination":         true,
		"Zf3D0LXCM3EIMbgJpUNnkRtOfOueHznB":     false,
		"lr0lk34gzxnxf4ha":                     false,
		"dafa7817-e246-48f3-91a7-e87653d587b8": false,
	} {
		assert.Equal(t, want, wordish(v), v)
	}
}

func TestHasDigit8(t *testing.T) {
	for s, want := range map[string]bool{
		"abcdefgh": false, "abcdefg7": true, "0bcdefgh": true, "::////;;": false,
		"\xff\xfe\xc0\x80abcd": false, "abc9\xffxyz": true, "ABCDEFGH": false,
	} {
		assert.Equal(t, want, hasDigit8(s), "%q", s)
	}
}

func TestAutomatonFindsEveryOccurrence(t *testing.T) {
	a, err := buildAutomaton([]string{"key", "ey", "secret_key", "://"})
	require.NoError(t, err)
	text := "KEY=1 SECRET_KEY=2 https://x monkey"
	hits, _ := a.scan(text, 0, len(text), 0, len(text), nil)
	var got []string
	for _, h := range hits {
		got = append(got, strings.ToLower(text[h.pos:h.pos+h.n]))
	}
	assert.Equal(t, []string{"key", "ey", "secret_key", "key", "ey", "://", "key", "ey"}, got,
		"by end, longer first")
}

// A block read as two halves, in blocks of any size, finds the hits of one
// pass in the same order.
func TestAutomatonBlocksMatchOnePass(t *testing.T) {
	a, err := buildAutomaton([]string{"key", "ey", "secret_key", "://", "s.", "keykeykey"})
	require.NoError(t, err)
	rng := rand.New(rand.NewSource(3))
	pieces := []string{"key", "KEY", "secret_key", "monkey", "https://", "s.", "keykeykey", " ", "x", "e", "y"}
	for range 200 {
		var b strings.Builder
		for b.Len() < 50+rng.Intn(3000) {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		text := b.String()
		want, _ := a.scan(text, 0, len(text), 0, len(text), nil)
		for _, size := range []int{minSplit, 300, 1000, len(text)} {
			var got []hit
			var s uint32
			for lo := 0; lo < len(text); lo += size {
				var ha, hb []hit
				ha, hb, s = a.block(text, lo, min(len(text), lo+size), s, nil, nil)
				for h := range onePassOrder(ha, hb) {
					got = append(got, h)
				}
			}
			require.Equal(t, want, got, "blocks of %d in %q", size, text)
		}
	}
}

func TestAnchoredFormMatchesLikeTheRule(t *testing.T) {
	r, err := newRegexRule("t", `(?i)[\w.-]{0,50}?(?:acme)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|:)[\x60'"\s=]{0,5}([a-z0-9]{24})\b`,
		0, 0, []string{"acme"})
	require.NoError(t, err)
	require.NotNil(t, r.anchored, "generic provider rules get an anchored form")
	assert.Equal(t, r.re.NumSubexp(), r.anchored.NumSubexp())
	text := `my_ACME_token = "q7lm2zx9vb4nc1kp6tr3wd8y"`
	m := r.anchored.FindStringSubmatchIndex(text[strings.Index(text, "ACME"):])
	require.NotNil(t, m)
	assert.Equal(t, "q7lm2zx9vb4nc1kp6tr3wd8y", text[strings.Index(text, "ACME"):][m[2]:m[3]])

	r, err = newRegexRule("t", `\b((?:A3T[A-Z0-9]|AKIA|ASIA)[A-Z2-7]{16})\b`, 0, 0, []string{"a3t", "akia", "asia"})
	require.NoError(t, err)
	require.NotNil(t, r.anchored)
	assert.ElementsMatch(t, []string{"a3t", "akia", "asia"}, r.prefixes)
	assert.Equal(t, 20, r.minSecret)
	assert.False(t, r.holds("xAKIA", 1), `\b before the keyword is checked at the hit`)
	assert.True(t, r.holds(" AKIA", 1))
}

func TestResolveKeepsTheMostSpecific(t *testing.T) {
	f := func(start, end int, typ string, generic bool) finding {
		return finding{generic: generic, Finding: Finding{Type: typ, Start: start, End: end}}
	}
	got := resolve([]finding{
		f(50, 60, "credit_card", true),
		f(10, 30, "generic_api_key", true),
		f(12, 30, "github_token", false),
		f(0, 5, "jwt", false),
	})
	var types []string
	for _, g := range got {
		types = append(types, g.Type)
	}
	assert.Equal(t, []string{"jwt", "github_token", "credit_card"}, types)
}

func FuzzScan(f *testing.F) {
	for _, s := range []string{withSecrets(600), "password=Zq7pL2mX9x", "-----BEGIN RSA PRIVATE KEY-----\n" + rsaBody, "4539 1488 0343 6467", "x://a:b@c"} {
		f.Add(s)
	}
	d := detector(f)
	f.Fuzz(func(t *testing.T, text string) {
		fs := d.Scan(text)
		for i, x := range fs {
			if x.Start < 0 || x.End > len(text) || x.Start >= x.End || text[x.Start:x.End] != x.Value || x.Type == "" {
				t.Fatalf("bad finding %+v", x)
			}
			if i > 0 && fs[i-1].End > x.Start {
				t.Fatalf("overlapping findings %+v %+v", fs[i-1], x)
			}
		}
	})
}

// TestPiecesUnderCredentialNames: values too short to be a credential,
// random in form, under credential names near one another, are one
// credential whatever their order; words, numbers and placeholders under
// such names are not.
func TestPiecesUnderCredentialNames(t *testing.T) {
	d, err := New()
	require.NoError(t, err)
	for _, s := range []string{
		"svc:\n  secret_2: Tq7vL2pR\n  secret_1: x9Wz4Kc8\n  secret_3: Hn3Jb6Ms\n",
		"APP_TOKEN_B=Tq7vL2pR\nAPP_TOKEN_A=x9Wz4Kc8\nAPP_TOKEN_C=Hn3Jb6Ms\n",
	} {
		fs := d.Scan(s)
		require.Len(t, fs, 1, s)
		assert.Equal(t, "pieced-assignment", fs[0].Rule)
	}
	for _, s := range []string{
		"secret_1: Alice\nsecret_2: Bob\nsecret_3: Chloe\n",
		"token_1=482913\ntoken_2=771204\ntoken_3=100293\n",
		"key_1=${KEY_ONE}\nkey_2=${KEY_TWO}\n",
		"secret_1: Tq7vL2pR\n" + strings.Repeat("filler line of text\n", 10) + "secret_2: x9Wz4Kc8\n",
	} {
		assert.Empty(t, d.Scan(s), s)
	}
}
