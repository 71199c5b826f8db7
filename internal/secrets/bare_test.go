package secrets

import (
	"encoding/base64"
	"encoding/hex"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Credentials with no name beside them. The tuned cases were written
// first and the rules made to pass them; the set-aside cases were written
// with them, before any rule, and are reported, not tuned on. In each, a
// positive holds the token (checked by the finding's value), a negative
// must give no finding. Decoded cases are views: the bytes a hex or
// base64 blob decodes to.
type bareCase struct {
	text    string
	token   string // "" for a negative
	decoded bool
}

func randomBytes(seed int64, n int) []byte {
	b := make([]byte, n)
	rand.New(rand.NewSource(seed)).Read(b)
	return b
}

func embed(seed int64, token string) string {
	return string(randomBytes(seed, 12)) + token + "\n" + string(randomBytes(seed+1, 9))
}

var tunedBare = []bareCase{
	{"Authorization header set from nbl_live_8FqK2xZ7mW3pL9tR4vN6cY1hB5jD0sGu", "nbl_live_8FqK2xZ7mW3pL9tR4vN6cY1hB5jD0sGu", false},
	{"token=pk9-Zt4Wq8Xm2Lr7Kv3Np6Hb1Yc5Fd0Gs9Ja&x=1", "pk9-Zt4Wq8Xm2Lr7Kv3Np6Hb1Yc5Fd0Gs9Ja", false},
	{`{"note":"use qlt_4hT8kZ2mX9vR3pL7wN1cB6yF0dS5gQjA for the bot"}`, "qlt_4hT8kZ2mX9vR3pL7wN1cB6yF0dS5gQjA", false},
	{"--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"k.txt\"\r\n\r\nsrv_Yp3Kx8Wm1Zq6Lt9Rv2Nb7Hc4Fd0Gs5JaE\r\n--b--", "srv_Yp3Kx8Wm1Zq6Lt9Rv2Nb7Hc4Fd0Gs5JaE", false},
	{"tool login brk-prod-V9c2Xk7Zm4Wq1Lt8Rp3Nv6Hb0Yd5Fs2Ga --save", "brk-prod-V9c2Xk7Zm4Wq1Lt8Rp3Nv6Hb0Yd5Fs2Ga", false},
	{embed(1, "Hq7Zk2Xm9Vw4Lt8Rp3Nb6Yc1Fd5Gs0JaQe"), "Hq7Zk2Xm9Vw4Lt8Rp3Nb6Yc1Fd5Gs0JaQe", true},
	{embed(3, "r8T/2kZq+Xm9Vw4Lt7Rp3Nb6Yc1Fd5Gs0JaQ=="), "r8T/2kZq+Xm9Vw4Lt7Rp3Nb6Yc1Fd5Gs0JaQ==", true},

	{`"integrity": "sha512-XI5MPzVNApjAyhQzphX8BkmKsKUxD4LdyK24iZeQjm6hJDfIgn2GB4yXuZxlqqZfjw3OB1R2VGVUXUHSwX5EK+Q=="`, "", false},
	{"customer cus_NffrFeUfNV2Hib paid pi_3MtwBwLkdIwHu7ix28a3tqPa", "", false},
	{`{"id":"msg_01XFDUDYJgAACzvnptvVoYEL","type":"message"}`, "", false},
	{"func get_UserAccountSettingsFor2024Report() {}", "", false},
	{"img: data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "", false},
	{string(randomBytes(5, 200)), "", true},
	{"plain text view: the key is Hq7Zk2Xm9Vw4Lt8Rp3Nb6Yc1Fd5Gs0JaQe in a sentence", "", true},
}

var setAsideBare = []bareCase{
	{"curl -F file=@- https://paste.example.net <<< 'zpk_2Rg7Lq9Xv4Mb8Kt1Wn6Yc3Hs5Jd0Fa7Pe'", "zpk_2Rg7Lq9Xv4Mb8Kt1Wn6Yc3Hs5Jd0Fa7Pe", false},
	{"env:\n  - name: SVC\n    value: dlt-T3x9Qm7Vk2Rw8Ln4Zb6Hy1Cp5Gs0Fj3Ke\n", "dlt-T3x9Qm7Vk2Rw8Ln4Zb6Hy1Cp5Gs0Fj3Ke", false},
	{`{"body":"proj_live_k8Mv2Tx7Qz4Wn9Lr3Bh6Yc1Fd5Gs0Ja2"}`, "proj_live_k8Mv2Tx7Qz4Wn9Lr3Bh6Yc1Fd5Gs0Ja2", false},
	{"here's the one I use: `acr_9Vh2Kq7Xm4Zt1Wp8Ln3Rb6Yc5Fd0Gs7Ja`", "acr_9Vh2Kq7Xm4Zt1Wp8Ln3Rb6Yc5Fd0Gs7Ja", false},
	{string(randomBytes(7, 40)) + "Kp3Zx9Vm2Lq7Wt4Rn8Bh1Yc6Fd0Gs5JaT2Q" + string(randomBytes(8, 40)), "Kp3Zx9Vm2Lq7Wt4Rn8Bh1Yc6Fd0Gs5JaT2Q", true},
	{"\x00\x01\x02\x03" + "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1eF3hJ5" + "\xff\xfe", "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1eF3hJ5", true},

	{`{"id":"chatcmpl-8N4xT2yqZ7mK3vL9wR1pB6hC5dF0gA","object":"chat.completion"}`, "", false},
	{`{"assistant":"asst_abc123DEF456ghi789JKL012","file":"file-XyZ987wvU654tsR321qpO0"}`, "", false},
	{`<script src="/a.js" integrity="sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC"></script>`, "", false},
	{"git push origin feature-AddOAuth2LoginFlowForMobileClients", "", false},
	{"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl dev@host", "", false},
	{"publishable: pk_test_TYooMQauvdEDq54NiTphI7jx", "", false},
	{"The meeting moved to Thursday; bring the Q3 numbers and the new hire list.", "", true},
	{string(randomBytes(11, 4096)), "", true},
}

// Credential headers of a request, whatever the value's form; written as
// the others, tuned and set aside.
var tunedHeaders = []bareCase{
	{"curl -s -H 'X-Vendor-Key: prod0000000000000000000001' https://api.v.example/x", "prod0000000000000000000001", false},
	{`{"url":"https://api.v.example","headers":{"Authorization":"Bearer demo-token-for-staging-2024-01"}}`, "demo-token-for-staging-2024-01", false},
	{`curl -H "X-Auth-Token: TESTKEY-1111-2222-3333-4444" https://api.v.example/`, "TESTKEY-1111-2222-3333-4444", false},

	{`curl -H "X-Api-Key: $API_KEY" https://api.v.example/`, "", false},
	{`curl -H 'Authorization: Bearer ${TOKEN}' https://api.v.example/`, "", false},
	{`curl -H "X-Api-Key: <your-api-key>" https://api.v.example/`, "", false},
	{`curl -H "X-Api-Key: YOUR_API_KEY_HERE" https://api.v.example/`, "", false},
	{`curl -H "X-Request-Id: 7c9e6679-7425-40de-944b-e07fc1f90ae7" https://api.v.example/`, "", false},
	{`curl -H "X-Api-Key: xxxxxxxxxxxxxxxxxxxxxxxx" https://api.v.example/`, "", false},
	{`curl -H 'Authorization: Bearer abc123' https://api.v.example/`, "", false},
}

var setAsideHeaders = []bareCase{
	{"http POST https://hooks.example.io/in X-Webhook-Secret:whsec000111222333444555666", "whsec000111222333444555666", false},
	{`{"headers": {"X-Partner-Token": "partner_token_value_0001"}}`, "partner_token_value_0001", false},
	{`wget --header="Proxy-Authorization: Basic dXNlcjpwYXNzd29yZDEyMw==" https://x.example/`, "dXNlcjpwYXNzd29yZDEyMw==", false},
	{`fetch(url, {headers: {'X-Client-Secret': 'cs-2023-0000-aaaa-bbbb-cccc'}})`, "cs-2023-0000-aaaa-bbbb-cccc", false},

	{`curl -H "X-Api-Key: %API_KEY%" https://api.v.example/`, "", false},
	{`curl -H "Authorization: Bearer {{token}}" https://api.v.example/`, "", false},
	{`curl -H "X-Token-Count: 12345678901234567890123" https://api.v.example/`, "", false},
	{`curl -H "Content-Type: application/json" -d '{"a":1}' https://api.v.example/`, "", false},
	{`curl -H "X-Api-Key: REPLACE_ME_WITH_A_REAL_KEY" https://api.v.example/`, "", false},
	{`req.Header.Set("Authorization", "Bearer " + token)`, "", false},
}

func TestScanBareHeaders(t *testing.T) {
	caught, fps, misses := runBare(tunedHeaders)
	assert.Empty(t, misses, "tuned")
	t.Logf("tuned: caught %v, benign flagged %v", caught, fps)
	caught, fps, misses = runBare(setAsideHeaders)
	t.Logf("set aside: caught %v, benign flagged %v %v", caught, fps, misses)
}

func runBare(cases []bareCase) (caught, fps rate, misses []string) {
	for _, c := range cases {
		fs := ScanBare([]byte(c.text), c.decoded)
		if c.token == "" {
			fps.n++
			if len(fs) > 0 {
				fps.hit++
				misses = append(misses, "false positive "+fs[0].Value)
			}
			continue
		}
		caught.n++
		hit := false
		for _, f := range fs {
			hit = hit || strings.Contains(f.Value, c.token)
		}
		if hit {
			caught.hit++
		} else {
			misses = append(misses, "missed "+c.token)
		}
	}
	return caught, fps, misses
}

func TestScanBare(t *testing.T) {
	caught, fps, misses := runBare(tunedBare)
	assert.Empty(t, misses, "tuned")
	t.Logf("tuned: caught %v, benign flagged %v", caught, fps)
	caught, fps, misses = runBare(setAsideBare)
	t.Logf("set aside: caught %v, benign flagged %v %v", caught, fps, misses)
}

// The decoded view of a hex body is what is judged: the same bytes as
// text never are.
func TestScanBareNeedsBinary(t *testing.T) {
	blob := string(randomBytes(21, 10)) + "Wq4Zx8Vm2Lk7Tr3Nb9Hy1Cp6Gs5Fd0Ja" + string(randomBytes(22, 10))
	assert.NotEmpty(t, ScanBare([]byte(blob), true))
	assert.Empty(t, ScanBare([]byte(hex.EncodeToString([]byte(blob))), false))
	assert.Empty(t, ScanBare([]byte(base64.StdEncoding.EncodeToString(randomBytes(23, 3000))), false))
}

// BenchmarkScanBare is the cost of the outbound-only forms on 256 KB of
// everyday text (prose, JSON, headers and URLs), as a decoded view.
func BenchmarkScanBare(b *testing.B) {
	unit := `{"text":"The deploy of api_v2 finished; see https://ci.example.org/runs/8812/logs?page=2 and ask ops-team.", "headers": {"Content-Type": "application/json", "X-Request-Id": "7c9e6679-7425-40de-944b-e07fc1f90ae7"}}` + "\n"
	text := []byte(strings.Repeat(unit, (256<<10)/len(unit)+1)[:256<<10])
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		ScanBare(text, true)
	}
}

// TestScanBareSkipsIDs: a typed token filed under an id is an object's
// id; under any other name, or none, it is judged by its form.
func TestScanBareSkipsIDs(t *testing.T) {
	const tok = "cmplx-Wq4Zx8Vm2Lk7Tr3Nb9Hy1Cp6Gs5Fd0Ja"
	for _, s := range []string{`{"id":"` + tok + `"}`, `{\"request_id\": \"` + tok + `\"}`, "messageId=" + tok} {
		assert.Empty(t, ScanBare([]byte(s), false), s)
	}
	for _, s := range []string{`{"value":"` + tok + `"}`, "send " + tok, `{"secret_id":"` + tok + `"}`} {
		assert.NotEmpty(t, ScanBare([]byte(s), false), s)
	}
}

// A session cookie sent in a Cookie header is a login, whatever its form;
// preferences and form tokens are not.
func TestSessionCookies(t *testing.T) {
	found := ScanBare([]byte("GET / HTTP/1.1\nCookie: theme=dark; sessionid=Zq3vK8pLm2xR7tY1wN5cB9dF0gH4jS6a; csrftoken=Hq8vK3pLm2xR7tY1wN5cB9dF0gH4jS6b\n"), false)
	if assert.Len(t, found, 1) {
		assert.Equal(t, "Zq3vK8pLm2xR7tY1wN5cB9dF0gH4jS6a", found[0].Value)
	}
	assert.Empty(t, ScanBare([]byte(`curl -H "Cookie: theme=dark; lang=en-GB; sessionid=$SESSION" https://example.com`), false))
	// As a call's JSON carries it, after an escaped line break.
	assert.Len(t, ScanBare([]byte(`{"raw":"GET / HTTP/1.1\nCookie: sid=Zq3vK8pLm2xR7tY1wN5cB9dF0gH4jS6a\n"}`), false), 1)
}
