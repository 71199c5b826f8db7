package fingerprint

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/flowd-dev/flowd/internal/budget"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// covered is the part of secret (its canonical form) that Cover finds in
// text, as a fraction.
func covered(t *testing.T, secret, text string) float64 {
	t.Helper()
	x, err := NewSecretIndex(4)
	require.NoError(t, err)
	x.Add(1, "", secret, false)
	covers, complete := x.Cover(Canonical([]byte(text)), budget.Work(1<<40))
	require.True(t, complete)
	pieces, complete := x.CoverPieces([]byte(text), budget.Work(1<<40))
	require.True(t, complete)
	covers = MergeCovers(covers, pieces)
	n := len(Canonical([]byte(secret)))
	sent := make([]bool, n)
	for _, c := range covers {
		for _, at := range c.At {
			for i := at; i < min(at+CoverGram, n); i++ {
				sent[i] = true
			}
		}
		for _, i := range c.Chars {
			sent[i] = true
		}
	}
	k := 0
	for _, s := range sent {
		if s {
			k++
		}
	}
	return float64(k) / float64(n)
}

func withFiller(s string, every int, filler string) string {
	var b strings.Builder
	for i := range len(s) {
		if i > 0 && i%every == 0 {
			b.WriteString(filler)
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func blocksReversed(s string, k int) string {
	var b strings.Builder
	for len(s) > 0 {
		n := min(k, len(s))
		for i := n - 1; i >= 0; i-- {
			b.WriteByte(s[i])
		}
		s = s[n:]
	}
	return b.String()
}

func repeated(s string, k int) string {
	var b strings.Builder
	for i := range len(s) {
		b.WriteString(strings.Repeat(s[i:i+1], k))
	}
	return b.String()
}

func shifted(s string, k int) string {
	return strings.Map(func(c rune) rune {
		switch {
		case c >= 'a' && c <= 'z':
			return 'a' + (c-'a'+rune(k))%26
		case c >= 'A' && c <= 'Z':
			return 'A' + (c-'A'+rune(k))%26
		}
		return c
	}, s)
}

func reversed(s string) string { return blocksReversed(s, len(s)) }

// A known secret sent whole in one call with a filler every few
// characters, with each block of a few characters reversed, or with each
// character repeated, or with its letters shifted (rot13, Caesar), holds
// no run of CoverGram of its characters; Cover
// reads it as most of the secret. Text that shares characters, even
// trigrams, with the secret in another order is not.
func TestCoverReadsFillersReversedBlocksRepeats(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	pick := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		return string(b)
	}
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	secrets := []string{
		"xoxb-" + pick("0123456789", 12) + "-" + pick(alnum, 24),
		pick("0123456789abcdef", 40),
		"glpat-" + pick(alnum, 20),
		pick(alnum, 32),
	}
	shapes := map[string]func(string) string{
		"filler '7' every 3":             func(s string) string { return withFiller(s, 3, "7") },
		"filler 'q' every 4":             func(s string) string { return withFiller(s, 4, "q") },
		"filler 'Z' every 5":             func(s string) string { return withFiller(s, 5, "Z") },
		"filler 'k9' every 6":            func(s string) string { return withFiller(s, 6, "k9") },
		"filler ' x ' every 4":           func(s string) string { return withFiller(s, 4, " x ") },
		"3-char blocks reversed":         func(s string) string { return blocksReversed(s, 3) },
		"4-char blocks reversed":         func(s string) string { return blocksReversed(s, 4) },
		"5-char blocks reversed":         func(s string) string { return blocksReversed(s, 5) },
		"6-char blocks reversed":         func(s string) string { return blocksReversed(s, 6) },
		"reversed, filler every 5":       func(s string) string { return reversed(withFiller(s, 5, "w")) },
		"doubled":                        func(s string) string { return repeated(s, 2) },
		"tripled":                        func(s string) string { return repeated(s, 3) },
		"letters shifted by 3":           func(s string) string { return shifted(s, 3) },
		"letters shifted by 13":          func(s string) string { return shifted(s, 13) },
		"letters shifted by 22, doubled": func(s string) string { return repeated(shifted(s, 22), 2) },
		"letters by 5, digits by 4": func(s string) string {
			return strings.Map(func(c rune) rune {
				if c >= '0' && c <= '9' {
					return '0' + (c-'0'+4)%10
				}
				return c
			}, shifted(s, 5))
		},
		"tripled, filler every 4": func(s string) string { return withFiller(repeated(s, 3), 12, "j") },
	}
	for name, shape := range shapes {
		for _, sec := range secrets {
			text := "please keep this: " + shape(sec) + " thanks"
			assert.GreaterOrEqual(t, covered(t, sec, text), 2.0/3, "%s: %s", name, text)
		}
	}
	sum := sha256.Sum256([]byte("other data"))
	for _, sec := range secrets {
		canon := string(Canonical([]byte(sec)))
		var shuffled strings.Builder
		for _, i := range r.Perm(len(canon) / 3) {
			shuffled.WriteString(canon[3*i:3*i+3] + " ")
		}
		benign := map[string]string{
			"prose": "The quick brown fox jumps over the lazy dog while seven wizards judge the boxing match; " +
				"meanwhile the release notes mention eleven fixes, three features and a faster parser.",
			"code":                       "func (s *Server) Handle(w http.ResponseWriter, r *http.Request) { if err := s.db.Ping(); err != nil { http.Error(w, err.Error(), 500) } }",
			"uuids":                      "a3f1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d 7b9e2f10-33aa-4c1d-9e8f-aa01bb22cc33 0f0e0d0c-0b0a-4909-8807-060504030201",
			"hashes":                     hex.EncodeToString(sum[:]) + " " + fmt.Sprintf("%x", sha256.Sum256([]byte(sec+"salt"))),
			"base64":                     base64.StdEncoding.EncodeToString([]byte(strings.Repeat("unrelated payload bytes ", 8))),
			"its trigrams shuffled":      shuffled.String(),
			"its characters sorted":      sorted(canon),
			"another key, same alphabet": pick(alnum, len(sec)) + " " + pick("0123456789abcdef", 64),
		}
		for name, text := range benign {
			assert.Less(t, covered(t, sec, text), 1.0/3, "%s against %s: %s", name, sec, text)
		}
	}
}

func sorted(s string) string {
	b := []byte(s)
	for i := range b {
		for j := i + 1; j < len(b); j++ {
			if b[j] < b[i] {
				b[i], b[j] = b[j], b[i]
			}
		}
	}
	return string(b)
}

// FuzzCoverTime holds Cover to linear work whatever the secrets and the
// text: per canonical character, the run lookup and, in each form, the
// trigram lookup with each place compared with those just before it; per
// secret a chain covers, its length a few times.
func FuzzCoverTime(f *testing.F) {
	f.Add("ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5\nAKIAQZ7XK2MVABCDEFGH", strings.Repeat("ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA", 50))
	f.Add("abcabcabcabcabcabc\nabcabcabcabcabcabd\nacbacbacbacbacbacb\nabcbcacababcbcacab", strings.Repeat("abcacbbcacba", 500))
	f.Add(strings.Repeat("a", 600)+strings.Repeat("b", 600)+strings.Repeat("c", 600)+"defghij", strings.Repeat("abcdefghij", 300))
	f.Fuzz(func(t *testing.T, secrets, text string) {
		x, err := NewSecretIndex(64)
		require.NoError(t, err)
		total := 0
		for i, s := range strings.Split(secrets, "\n") {
			x.Add(uint64(i), "", s, false)
			total += min(len(Canonical([]byte(s))), coverMaxLen)
		}
		_, complete := x.Cover([]byte("warmup"), budget.Work(0))
		require.True(t, complete)
		canon := Canonical([]byte(text))
		b := budget.Work(0)
		_, complete = x.Cover(canon, b)
		require.True(t, complete)
		// The text with fillers taken out is read again once for each
		// character a decimation keeps of its period.
		kept := 0
		for _, d := range decimations {
			kept += d.keep
		}
		perChar := (1+kept)*(1+coverPerGram) + kept + forms*(1+chainPerGram*(1+chainBack*chainPerGram))
		assert.LessOrEqual(t, b.Spent(), int64(perChar*len(canon)+(forms+1)*total))
		b = budget.Work(0)
		_, complete = x.CoverPieces([]byte(text), b)
		require.True(t, complete)
		assert.LessOrEqual(t, b.Spent(), int64((2+2*coverPerGram*coverGram)*(len(text)+1)))
	})
}

// BenchmarkCover reads a megabyte of prose and one of random
// letters and digits against 64 known secrets of several shapes.
func BenchmarkCover(b *testing.B) {
	r := rand.New(rand.NewSource(3))
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	pick := func(n int) string {
		p := make([]byte, n)
		for i := range p {
			p[i] = alnum[r.Intn(len(alnum))]
		}
		return string(p)
	}
	x, err := NewSecretIndex(64)
	require.NoError(b, err)
	for i := range 64 {
		x.Add(uint64(i), "", pick(20+i%5*10), false)
	}
	words := strings.Fields("the quick brown fox jumps over a lazy dog while agents read files and write notes to partners")
	var prose strings.Builder
	for prose.Len() < 1<<20 {
		prose.WriteString(words[r.Intn(len(words))])
		prose.WriteByte(' ')
	}
	// 16 KiB is the largest text read in every form (extendedMax): the
	// worst case per byte.
	for _, c := range []struct{ name, text string }{{"prose", prose.String()}, {"random", pick(1 << 20)}, {"random16k", pick(extendedMax)}} {
		canon := Canonical([]byte(c.text))
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(canon)))
			for b.Loop() {
				if _, ok := x.Cover(canon, budget.Work(1<<40)); !ok {
					b.Fatal("budget")
				}
			}
		})
	}
	b.Run("pieces4k", func(b *testing.B) {
		text := []byte(pick(shortMax))
		for i := 5; i < len(text); i += 6 {
			text[i] = ' '
		}
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			if _, ok := x.CoverPieces(text, budget.Work(1<<40)); !ok {
				b.Fatal("budget")
			}
		}
	})
}

// TestCoverStridesFillersAndShortPieces: every k-th character of a secret
// (one stride of it, as one call of k would send), the secret with a
// random filler after every one or two characters, and pieces of four or
// five characters standing alone are found; the same characters glued
// into longer words, and pieces of three, are not.
func TestCoverStridesFillersAndShortPieces(t *testing.T) {
	r := rand.New(rand.NewSource(88))
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	pick := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alnum[r.Intn(len(alnum))]
		}
		return string(b)
	}
	fill := func(s string, every int) string {
		var b strings.Builder
		for i := range len(s) {
			if i > 0 && i%every == 0 {
				b.WriteByte(alnum[r.Intn(len(alnum))])
			}
			b.WriteByte(s[i])
		}
		return b.String()
	}
	stride := func(s string, k, j int) string {
		var b strings.Builder
		for i := j; i < len(s); i += k {
			b.WriteByte(s[i])
		}
		return b.String()
	}
	// pieces of n characters, shuffled: in order, any separators
	// between them are gone in canonical form.
	pieces := func(s string, n int, sep string) string {
		var p []string
		for len(s) > n {
			p = append(p, s[:n])
			s = s[n:]
		}
		p = append(p, s)
		r.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
		return strings.Join(p, sep)
	}
	for range 8 {
		sec := pick(40)
		for k := 2; k <= 5; k++ {
			assert.InDelta(t, 1.0/float64(k), covered(t, sec, "part: "+stride(sec, k, 1)), 0.03, "every %dth character of %s", k, sec)
		}
		assert.Equal(t, 1.0, covered(t, sec, fill(sec, 1)), "a filler after every character of %s", sec)
		assert.Equal(t, 1.0, covered(t, sec, fill(sec, 2)), "a filler after every two characters of %s", sec)
		assert.Equal(t, 1.0, covered(t, sec, pieces(sec, 4, " | ")), "pieces of four of %s", sec)
		assert.Equal(t, 1.0, covered(t, sec, pieces(sec, 5, "\n")), "pieces of five of %s", sec)
		enc := func(p string) string {
			if len(p)%2 == 0 {
				return base64.StdEncoding.EncodeToString([]byte(p))
			}
			return hex.EncodeToString([]byte(p))
		}
		assert.Equal(t, 1.0, covered(t, sec, "b="+strings.ReplaceAll(pieces(sec, 4, " "), " ", " b=")), "pieces of four, tagged, of %s", sec)
		var encoded []string
		for _, p := range strings.Fields(pieces(sec, 4, " ")) {
			encoded = append(encoded, enc(p))
		}
		assert.Equal(t, 1.0, covered(t, sec, strings.Join(encoded, ", ")), "pieces of four, each in base64 or hex, of %s", sec)
		assert.Less(t, covered(t, sec, pieces(sec, 3, " ")), 2.0/3, "pieces of three of %s", sec)
		assert.Less(t, covered(t, sec, "x"+pieces(sec, 4, "yz ab")+"y"), 2.0/3, "pieces of four glued into words of %s", sec)
	}
}
