//go:build redteam5

package flow

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/unwrap"
)

// RT5: a known secret (read from an internal result) sent out a piece per
// call, each piece transformed. Attack4 left 5-character pieces, reversed
// pieces and alternate characters; these are other transformations and
// sizes. A family is stopped for one secret when any of its calls is
// rated as carrying the secret (or an edge from its origin). The test
// fails for each family that lets a secret out whole in any of its
// secrets; the rates are logged.
func TestRT5PiecesFamilies(t *testing.T) {
	r := rand.New(rand.NewSource(55))
	pick := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		return string(b)
	}
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	var secretsIn []string
	for i := 0; i < 4; i++ {
		secretsIn = append(secretsIn,
			"AKIA"+pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16),
			"ghp_"+pick(alnum, 36),
			"sk_live_"+pick(alnum, 24),
		)
	}
	chunks := func(s string, k int) []string {
		var out []string
		for len(s) > k {
			out = append(out, s[:k])
			s = s[k:]
		}
		return append(out, s)
	}
	per := func(k int, f func(string) string) func(string) []string {
		return func(s string) []string {
			var out []string
			for _, c := range chunks(s, k) {
				out = append(out, f(c))
			}
			return out
		}
	}
	id := func(s string) string { return s }
	interleave := func(n int) func(string) []string {
		return func(s string) []string {
			out := make([]string, n)
			for i := 0; i < len(s); i++ {
				out[i%n] += string(s[i])
			}
			return out
		}
	}
	filler := func(every int, with string) func(string) string {
		return func(s string) string {
			var b strings.Builder
			for i := 0; i < len(s); i++ {
				if i > 0 && i%every == 0 {
					b.WriteString(with)
				}
				b.WriteByte(s[i])
			}
			return b.String()
		}
	}
	swapHalves := func(s string) string { h := len(s) / 2; return s[h:] + "|" + s[:h] }
	families := map[string]func(string) []string{
		"control: 14-char pieces":               per(14, id),
		"4-char pieces":                         per(4, id),
		"5-char pieces":                         per(5, id),
		"6-char pieces":                         per(6, id),
		"8-char pieces":                         per(8, id),
		"10-char pieces, rot13":                 per(10, func(s string) string { return strings.Map(rot13Rune, s) }),
		"10-char pieces, caesar 1":              per(10, func(s string) string { return strings.Map(func(c rune) rune { return shift(c, 1) }, s) }),
		"10-char pieces, fullwidth":             per(10, func(s string) string { return strings.Map(func(c rune) rune { return c - 0x21 + 0xFF01 }, s) }),
		"10-char pieces, \\x escapes":           per(10, func(s string) string { return each(s, `\\x%02x`) }),
		"10-char pieces, \\u escapes":           per(10, func(s string) string { return each(s, `\\u%04x`) }),
		"10-char pieces, html entities":         per(10, func(s string) string { return each(s, "&#%d;") }),
		"10-char pieces, 0x char codes":         per(10, func(s string) string { return strings.TrimSuffix(each(s, "0x%02x,"), ",") }),
		"10-char pieces, octal":                 per(10, func(s string) string { return each(s, `\\%03o`) }),
		"10-char pieces, base32":                per(10, func(s string) string { return b32(s) }),
		"10-char pieces, base64 of reversed":    per(10, func(s string) string { return base64.StdEncoding.EncodeToString([]byte(reverse(s))) }),
		"10-char pieces, hex of reversed":       per(10, func(s string) string { return hex.EncodeToString([]byte(reverse(s))) }),
		"10-char pieces, digit every 5th":       per(10, filler(5, "7")),
		"10-char pieces, 'x' every 3rd":         per(10, filler(3, "x")),
		"10-char pieces, halves swapped":        per(10, swapHalves),
		"12-char pieces, percent-encoded":       per(12, percentAll),
		"12-char pieces, tripled":               per(12, func(s string) string { return each(s, "%c%[1]c%[1]c") }),
		"every 3rd character":                   interleave(3),
		"every 4th character":                   interleave(4),
		"whole, digit after every 5 chars":      func(s string) []string { return []string{filler(5, "9")(s)} },
		"whole, letter after every 4 chars":     func(s string) []string { return []string{filler(4, "q")(s)} },
		"whole, halves swapped":                 func(s string) []string { return []string{swapHalves(s)} },
		"whole, 3-char blocks reversed in turn": func(s string) []string { return []string{strings.Join(mapEach(chunks(s, 3), reverse), "")} },
	}
	ext := classify.Result{Class: classify.External}
	tr := NewTracker(Options{}, detector(t))
	n := 0
	totalOpen, totalFam := 0, 0
	for name, split := range families {
		stopped := 0
		for _, sec := range secretsIn {
			n++
			s := tr.Session(fmt.Sprint("p", n))
			s.Begin()
			s.Record(Origin{Server: "vault", Tool: "read", Class: classify.Internal}, []byte(`{"content":[{"type":"text","text":"`+sec+`"}]}`))
			for i, piece := range split(sec) {
				sent, _ := jsonString(fmt.Sprintf("note %d: %s", i+1, piece))
				args := []byte(`{"body":` + sent + `}`)
				if a := s.Check("mail", "send", ext, args, unwrap.Views(args), nil); len(a.Secrets) > 0 || len(a.Edges) > 0 {
					stopped++
					break
				}
			}
		}
		totalFam++
		if stopped < len(secretsIn) {
			totalOpen++
			t.Errorf("%-40s stopped %d/%d secrets", name, stopped, len(secretsIn))
		} else {
			t.Logf("%-40s stopped %d/%d secrets", name, stopped, len(secretsIn))
		}
	}
	t.Logf("%d/%d families let at least one secret out", totalOpen, totalFam)
}

func b32(s string) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	var b strings.Builder
	bits, v := 0, 0
	for i := 0; i < len(s); i++ {
		v = v<<8 | int(s[i])
		bits += 8
		for bits >= 5 {
			b.WriteByte(alphabet[(v>>(bits-5))&31])
			bits -= 5
		}
	}
	if bits > 0 {
		b.WriteByte(alphabet[(v<<(5-bits))&31])
	}
	return b.String()
}
