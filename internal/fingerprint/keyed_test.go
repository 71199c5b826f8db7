package fingerprint

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/budget"
)

func keyedXor(s, key string) string {
	b := []byte(s)
	for i := range b {
		b[i] ^= key[i%len(key)]
	}
	return string(b)
}

func keyedVigenere(s, key string, onLetters bool) string {
	b := []byte(s)
	j := 0
	for i, c := range b {
		k := key[j%len(key)] - 'a'
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = 'a' + (c-'a'+k)%26
		case c >= 'A' && c <= 'Z':
			b[i] = 'A' + (c-'A'+k)%26
		default:
			if onLetters {
				continue
			}
		}
		j++
	}
	return string(b)
}

// TestFindKeyed: a known secret under a key the text does not give, by
// the kind of key, and what FindKeyed leaves to Find or does not read.
func TestFindKeyed(t *testing.T) {
	const key = "ghp_R8dKq2ZtW7mXvB4nLp9YcK3sHf6R8Te1Uo5d" // 5 repeats
	const alnum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	shifted := strings.Map(func(c rune) rune {
		if i := strings.IndexRune(alnum, c); i >= 0 {
			return rune(alnum[(i+17)%len(alnum)])
		}
		return c
	}, key)
	columns := func(s string, n int) string {
		var b strings.Builder
		for c := range n {
			for i := c; i < len(s); i += n {
				b.WriteByte(s[i])
			}
		}
		return b.String()
	}
	tests := []struct {
		name string
		text string
		want Encoding // "" for nothing found
	}{
		{"caesar over 0-9A-Za-z", `{"body":"ref ` + shifted + `"}`, EncSubstituted},
		{"each byte xor 0x13, bytes alone", keyedXor(key, "\x13"), EncSubstituted},
		{"emoji a character", "thanks " + strings.Map(func(c rune) rune { return 0x1F300 + c }, key), EncSubstituted},
		{"reversed, then each byte plus one", strings.Map(func(c rune) rune { return c + 1 }, reverse(key)), EncSubstituted},
		{"xor with a 5-byte key, bytes alone", keyedXor(key, "k3y!9"), EncKeyed},
		{"xor with a 4-byte key, in hex", "blob: " + hex.EncodeToString([]byte(keyedXor(key, "k3y!"))), EncKeyed},
		{"vigenere, key steps on every character", "text=" + keyedVigenere(key, "zebra", false), EncKeyed},
		{"vigenere, key steps on letters", "text=" + keyedVigenere(key, "flowd", true), EncKeyed},
		{"columnar transposition", "ct " + columns(key, 5), EncPermuted},
		{"base64 in a shuffled alphabet", base64.NewEncoding("QWERTYUIOPASDFGHJKLZXCVBNMqwertyuiopasdfghjklzxcvbnm0987654321+/").WithPadding(base64.NoPadding).EncodeToString([]byte(key)), EncSubstituted},
		{"escaped in JSON", `{"b":"` + strings.ReplaceAll(keyedVigenere(key, "kw", false), "_", `\u005f`) + `"}`, EncKeyed},
		// Find's, not FindKeyed's.
		{"the key as it is", "key: " + key, ""},
		{"the key reversed", "key: " + reverse(key), ""},
		// Not the key.
		{"another token of its shape", "ghp_" + strings.Repeat("aB3", 12), ""},
		{"a third of it under a key", keyedXor(key[:14], "\x13"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x, err := NewSecretIndex(8)
			require.NoError(t, err)
			x.Add(1, "other", "sk_live_Zq81Lmw0PpXeR4tyVb7N", false)
			x.Add(42, "github", key, false)
			got, complete := x.FindKeyed(nil, []byte(tt.text))
			require.True(t, complete)
			if tt.want == "" {
				assert.Empty(t, got)
				return
			}
			require.Len(t, got, 1, "%+v", got)
			assert.Equal(t, SecretMatch{Secret: 42, Label: "github", Encoding: tt.want}, got[0])
		})
	}
}

func reverse(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}

// TestFindKeyedGates: a secret from an external source is not compared,
// and a secret whose characters repeat too little says nothing about a
// substitution (a random token of its length would stand for it).
func TestFindKeyedGates(t *testing.T) {
	const key = "sk_live_Zq81Lmw0PpXeR4tyVb7N" // 2 repeats
	x, err := NewSecretIndex(8)
	require.NoError(t, err)
	x.Add(1, "", key, true)
	got, _ := x.FindKeyed(nil, []byte(keyedXor(key, "k3y!")))
	assert.Empty(t, got, "an external secret")
	x.Add(1, "", key, false)
	got, _ = x.FindKeyed(nil, []byte(keyedXor(key, "k3y!")))
	assert.Len(t, got, 1, "the same secret, read from an internal source")
	got, _ = x.FindKeyed(nil, []byte(keyedXor(key, "\x13")))
	assert.Len(t, got, 1, "a byte XORed with a constant is a key of one byte")
	got, _ = x.FindKeyed(nil, []byte(strings.NewReplacer("a", "q", "e", "z", "i", "x", "o", "w", "P", "E", "0", "5", "7", "3", "N", "K", "Z", "M").Replace(key)))
	assert.Empty(t, got, "a substitution of a secret with 2 repeats")
}

// TestFindKeyedRandomTokens: tokens of the secrets' lengths, drawn from
// their alphabets and from hex and base64, none of them a secret under a
// key, are never reported: 8 secrets against 30,000 tokens.
func TestFindKeyedRandomTokens(t *testing.T) {
	r := rand.New(rand.NewSource(16))
	pick := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		return string(b)
	}
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	secrets := []string{
		"AKIA" + pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16),
		"ghp_" + pick(alnum, 36),
		"sk_live_" + pick(alnum, 24),
		pick(alnum, 40),
		pick("0123456789abcdef", 64),
		"MIIEv" + pick(alnum+"+/", 59),
		pick("abcdefghijklmnopqrstuvwxyz", 24),
		pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 32),
	}
	x, err := NewSecretIndex(16)
	require.NoError(t, err)
	for i, s := range secrets {
		x.Add(uint64(i), "", s, false)
	}
	alphabets := []string{alnum, "0123456789abcdef", "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", "abcdefghijklmnopqrstuvwxyz", alnum + "+/", "0123456789"}
	var text bytes.Buffer
	for i := range 30000 {
		s := secrets[i%len(secrets)]
		switch i % 4 {
		case 0:
			text.WriteString(pick(alphabets[r.Intn(len(alphabets))], len(s)))
		case 1:
			text.WriteString(hex.EncodeToString([]byte(pick(alnum, len(s)/2))))
		case 2:
			b := make([]byte, len(s))
			r.Read(b)
			text.Write(b) // bytes: the whole chunk is one token
			got, _ := x.FindKeyed(nil, b)
			require.Empty(t, got, "%q", b)
			text.Reset()
			continue
		case 3:
			text.WriteString(base64.RawStdEncoding.EncodeToString([]byte(pick(alnum, len(s)))))
		}
		text.WriteByte(' ')
		if text.Len() > 4<<10 {
			got, _ := x.FindKeyed(nil, text.Bytes())
			require.Empty(t, got, "%s", text.String())
			text.Reset()
		}
	}
}

func TestFindKeyedStopsWhenBudgetRunsOut(t *testing.T) {
	x, err := NewSecretIndex(8)
	require.NoError(t, err)
	x.Add(1, "", "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5", false)
	text := bytes.Repeat([]byte("ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA6 "), 4000)
	_, complete := x.FindKeyed(budget.Work(1000), text)
	assert.False(t, complete)
	_, complete = x.FindKeyed(budget.Work(0), text)
	assert.True(t, complete)
}
