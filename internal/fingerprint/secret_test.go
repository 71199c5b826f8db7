package fingerprint

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSecretIndexFinds(t *testing.T) {
	const key = "AKIAIOSFODNN7EXAMPLE/wJalrXUtnFEMI+K7MDENG"
	jsonEscaped := strings.NewReplacer("A", `\u0041`, "/", `\/`).Replace(key)
	// A longer payload embeds the key at each byte alignment.
	blob := func(prefix string, enc *base64.Encoding) string {
		return enc.EncodeToString([]byte(prefix + "aws_secret=" + key + "\nregion=eu-west-1\n"))
	}
	// Every 3-byte group of tildes encodes to "fn5+", "fn5-" in base64url,
	// so this secret's base64url form differs at every alignment.
	const tildes = "tok~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~"
	tests := []struct {
		name string
		text string
		want Encoding
	}{
		{"raw", "please post " + key + " to the channel", EncRaw},
		{"json unicode escapes", `{"body":"` + jsonEscaped + `"}`, EncJSON},
		{"url query escape", "https://evil.example/c?k=" + url.QueryEscape(key), EncURL},
		{"url every byte escaped", "x=" + strings.ToLower(percentAll(key)), EncURL},
		{"hex lower", "data=" + hex.EncodeToString([]byte(key)), EncHex},
		{"hex upper", "data=" + strings.ToUpper(hex.EncodeToString([]byte(key))), EncHex},
		{"base64 alone", base64.StdEncoding.EncodeToString([]byte(key)), EncBase64},
		{"base64 in blob, alignment 0", blob("", base64.StdEncoding), EncBase64},
		{"base64 in blob, alignment 1", blob("x", base64.StdEncoding), EncBase64},
		{"base64 in blob, alignment 2", blob("xy", base64.StdEncoding), EncBase64},
		{"base64url in blob", base64.URLEncoding.EncodeToString([]byte("x=" + tildes + ";")), EncBase64URL},
		{"base64 wrapped at 76 columns", wrap(blob("xy", base64.StdEncoding), 76), EncBase64},
		{"base64 inside JSON with escaped newlines", `{"b64":"` + strings.ReplaceAll(wrap(blob("", base64.StdEncoding), 20), "\n", `\n`) + `"}`, EncBase64},
		{"escaped twice", `{"text":"{\\"k\\":\\"` + strings.ReplaceAll(jsonEscaped, `\`, `\\`) + `\\"}"}`, EncJSON},
		{"split across two fields", `{"id":"` + key[:20] + `","secret":"` + key[20:] + `"}`, EncFragment},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, err := NewSecretIndex(10)
			require.NoError(t, err)
			x.Add(1, "", "unrelated-secret-value-123", false)
			x.Add(42, "", key, false)
			x.Add(43, "", tildes, false)
			got := find(x, []byte(tt.text))
			require.NotEmpty(t, got)
			assert.True(t, slices.ContainsFunc(got, func(m SecretMatch) bool { return m.Encoding == tt.want }), "%+v", got)
			id := uint64(42)
			if strings.Contains(tt.name, "base64url") {
				id = 43
			}
			for _, m := range got {
				assert.Equal(t, id, m.Secret)
			}
		})
	}
}

func TestSecretIndexCaseOnlyForSingleCaseSecrets(t *testing.T) {
	x, err := NewSecretIndex(10)
	require.NoError(t, err)
	const hexKey = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
	x.Add(1, "", hexKey, false)
	x.Add(2, "", "GEZDGNBVGY3TQOJQGEZDGNBV", false) // a base32 TOTP seed
	x.Add(3, "", "xoxb-Mixed-Case-Token-Value-1", false)
	got := find(x, []byte("k="+strings.ToUpper(hexKey)+" seed="+strings.ToLower("GEZDGNBVGY3TQOJQGEZDGNBV")))
	assert.ElementsMatch(t, []SecretMatch{{1, "", EncCase}, {2, "", EncCase}}, got)
	assert.Empty(t, find(x, []byte(strings.ToLower("xoxb-Mixed-Case-Token-Value-1"))), "a mixed-case secret in another case is another string")
	whole := find(x, []byte(hexKey))
	assert.Equal(t, []SecretMatch{{1, "", EncRaw}}, whole, "pieces of a secret found whole are not reported")
}

func TestSecretIndexIgnores(t *testing.T) {
	x, err := NewSecretIndex(10)
	require.NoError(t, err)
	x.Add(1, "", "ghp_16C7e42F292c6912E7710c838347Ae178B4a", false)
	x.Add(2, "", "short", false)
	// Most of a secret is a leak: it is found as a fragment.
	assert.Equal(t, []SecretMatch{{1, "", EncFragment}}, find(x, []byte("ghp_16C7e42F292c6912E7710c838347Ae17 is cut short")))
	for _, text := range []string{
		"ghp_16C7e42F29 and 2c6912E7710c8 cut into pieces shorter than a fragment",
		"short",
		base64.StdEncoding.EncodeToString([]byte("ghp_16C7e42F292c")),
		"",
	} {
		assert.Empty(t, find(x, []byte(text)), text)
	}
}

func TestSecretIndexForgetsOldest(t *testing.T) {
	x, err := NewSecretIndex(2)
	require.NoError(t, err)
	x.Add(1, "", "first-secret-aaaa", false)
	x.Add(2, "", "second-secret-bbbb", false)
	x.Add(3, "", "third-secret-cccc", false)
	x.Add(4, "", "second-secret-bbbb", false)
	assert.Empty(t, find(x, []byte("first-secret-aaaa")))
	assert.Equal(t, []SecretMatch{{4, "", EncRaw}}, find(x, []byte("second-secret-bbbb")))
	assert.Equal(t, []SecretMatch{{3, "", EncHex}}, find(x, []byte(hex.EncodeToString([]byte("third-secret-cccc")))))
	_, err = NewSecretIndex(0)
	assert.Error(t, err)
}

// Secrets sharing a needle prefix (the hex of every AWS key starts the
// same) and cycling through reused slots are still told apart.
func TestSecretIndexKeepsRecentSecretsApartThroughReuse(t *testing.T) {
	const keep = 5
	x, err := NewSecretIndex(keep)
	require.NoError(t, err)
	key := func(i int) string { return fmt.Sprintf("AKIA%016d", i) }
	for i := range 50 {
		x.Add(uint64(i), "", key(i), false)
	}
	for i := range 50 {
		got := find(x, []byte("x="+hex.EncodeToString([]byte(key(i)))))
		if i < 50-keep {
			assert.Empty(t, got, "forgotten key %d", i)
			continue
		}
		assert.Equal(t, []SecretMatch{{uint64(i), "", EncHex}}, got, "key %d", i)
	}
}

func percentAll(s string) string {
	var b strings.Builder
	for i := range len(s) {
		b.WriteString("%" + strings.ToUpper(hex.EncodeToString([]byte{s[i]})))
	}
	return b.String()
}

func wrap(s string, n int) string {
	var b strings.Builder
	for len(s) > n {
		b.WriteString(s[:n] + "\n")
		s = s[n:]
	}
	b.WriteString(s)
	return b.String()
}

func BenchmarkSecretFind(b *testing.B) {
	x, err := NewSecretIndex(1000)
	require.NoError(b, err)
	c := newCorpus(11)
	for i := range 200 {
		tok := make([]byte, 20)
		for j := range tok {
			tok[j] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"[c.rng.IntN(62)]
		}
		x.Add(uint64(i), "", "ghp_"+string(tok), false)
	}
	text := toolCall(map[string]any{"body": c.prose(4000)})
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		x.Find(text, nil)
	}
}

// find is Find with no budget, which always completes.
func find(x *SecretIndex, text []byte) []SecretMatch {
	got, complete := x.Find(text, nil)
	if !complete {
		panic("an unlimited Find stopped")
	}
	return got
}

// TestSecretIndexFindsAcrossChunks hides a secret in views that Find reads
// a chunk at a time (viewChunks: decoded blobs, text without its white
// space), at every few bytes around where one chunk, or one decoded
// segment, ends and the next begins: it is found wherever it lies.
func TestSecretIndexFindsAcrossChunks(t *testing.T) {
	const key = "sk_live_4eC39HqLyjWDarjtT1zdp7dcQx9Zrb2W"
	x, err := NewSecretIndex(10)
	require.NoError(t, err)
	x.Add(42, "", key, false)
	const hexKey = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b"
	x.Add(43, "", hexKey, false)
	// A longer secret makes the chunks' overlap longer than key.
	x.Add(1, "", strings.Repeat("Zq7", 40), false)
	filler := func(n int) []byte {
		b := make([]byte, n)
		v := uint32(7)
		for i := range b {
			v = v*1664525 + 1013904223
			b[i] = "bcdfghjkmnpqrstvwxz"[v>>16%19]
		}
		return b
	}
	spaced := func(s string) string { // in groups of four, as a key is read out
		var b strings.Builder
		for i := 0; i < len(s); i += 4 {
			b.WriteString(s[i:min(i+4, len(s))] + " ")
		}
		return b.String()
	}
	tests := []struct {
		name string
		want SecretMatch
		// text puts key at about byte at of the view named.
		text func(at int) string
	}{
		{"base64 blob", SecretMatch{Secret: 42, Encoding: EncBase64}, func(at int) string {
			return "data=" + base64.StdEncoding.EncodeToString(slices.Concat(filler(at), []byte(key), filler(4000)))
		}},
		{"base64 blob wrapped and indented", SecretMatch{Secret: 42, Encoding: EncBase64}, func(at int) string {
			return "data:\n  " + strings.ReplaceAll(wrap(base64.StdEncoding.EncodeToString(slices.Concat(filler(at), []byte(key), filler(4000))), 76), "\n", "\n  ")
		}},
		{"hex blob", SecretMatch{Secret: 42, Encoding: EncHex}, func(at int) string {
			return "data=" + hex.EncodeToString(slices.Concat(filler(at), []byte(key), filler(4000)))
		}},
		{"spaced out, in the other case", SecretMatch{Secret: 43, Encoding: EncCase}, func(at int) string {
			return spaced(string(filler(at))) + spaced(strings.ToUpper(hexKey)) + spaced(string(filler(4000)))
		}},
	}
	// Where chunks end (the first is viewChunk and its overlap long), and
	// where the first decoded segment does.
	var ats []int
	for _, end := range []int{segLen * 3 / 4, viewChunk, 2 * viewChunk} {
		for d := -len(key) - 160; d <= 40; d += 7 {
			ats = append(ats, end+d)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, at := range ats {
				got := find(x, []byte(tt.text(at)))
				assert.True(t, slices.Contains(got, tt.want), "key at %d: %+v", at, got)
			}
		})
	}
}
