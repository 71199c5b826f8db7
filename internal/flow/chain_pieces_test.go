package flow

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/unwrap"
	"github.com/stretchr/testify/assert"
)

// A known secret leaves whole in one call with a filler every few
// characters or each 3-character block reversed, or in pieces each
// reversed and then encoded: no call holds six of its characters in
// order. Each is the secret leaving (an edge from where it was read);
// calls that share only characters with it are not.
func TestKnownSecretUnderFillersAndReversal(t *testing.T) {
	const key = "ghp_Qm7Rw2Zp9Lx4Vb8Nc3Hd6Jf1Ks5Tg0aYeUoIiPu"
	rev := func(s string) string {
		b := []byte(s)
		for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
			b[i], b[j] = b[j], b[i]
		}
		return string(b)
	}
	filler := func(s string, every int, with string) string {
		var b strings.Builder
		for i := range len(s) {
			if i > 0 && i%every == 0 {
				b.WriteString(with)
			}
			b.WriteByte(s[i])
		}
		return b.String()
	}
	pieces := func(k int, f func(string) string) []string {
		var out []string
		for s := key; len(s) > 0; s = s[min(k, len(s)):] {
			out = append(out, f(s[:min(k, len(s))]))
		}
		return out
	}
	var blocks strings.Builder
	for _, p := range pieces(3, rev) {
		blocks.WriteString(p)
	}
	ext := classify.Result{Class: classify.External}
	tr := NewTracker(Options{}, detector(t))
	n := 0
	sends := func(calls []string) bool {
		n++
		s := tr.Session(fmt.Sprint("chain", n))
		s.Begin()
		s.Record(Origin{Server: "vault", Tool: "read", Class: classify.Internal}, []byte(`{"content":[{"type":"text","text":"`+key+`"}]}`))
		for _, c := range calls {
			args := []byte(body("note: " + c))
			a := s.Check("mail", "send", ext, args, unwrap.Views(args), nil)
			if slices.ContainsFunc(a.Edges, func(e Edge) bool { return e.Kind == "secret" && e.From.Server == "vault" }) {
				return true
			}
		}
		return false
	}
	for name, calls := range map[string][]string{
		"whole, '8' after every 4":      {filler(key, 4, "8")},
		"whole, 'e' after every 5":      {filler(key, 5, "e")},
		"whole, 3-char blocks reversed": {blocks.String()},
		// (unwrap.Views decodes base64 of at least 16 characters: 11-byte pieces)
		"pieces reversed, base64":       pieces(11, func(s string) string { return base64.StdEncoding.EncodeToString([]byte(rev(s))) }),
		"pieces reversed, hex":          pieces(9, func(s string) string { return hex.EncodeToString([]byte(rev(s))) }),
		"pieces each character doubled": pieces(9, func(s string) string { return filler(s, 1, "") }),
	} {
		assert.True(t, sends(calls), name)
	}
	for name, calls := range map[string][]string{
		"its characters sorted": {"HIJKLNPQRTUVYZabcdefghimoprsuwx0123456789"},
		"prose and code": {
			"The quick brown fox jumps over the lazy dog; seven wizards judge the match.",
			"for i := 0; i < len(tokens); i++ { sum += weights[i] * float64(tokens[i]) }",
			"see https://example.org/docs/v2/tokens?page=3 and the Q3 report",
		},
		"another token": {"ghp_Xa4Kd9Pq2Wm7Lr5Zt8Bc1Nv6Hs3Jy0eRtYuIoPa"},
	} {
		assert.False(t, sends(calls), name)
	}
}
