package flow

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/rand"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/unwrap"
)

// TestTransformedSecretsCorpus sends secrets of several kinds out after
// each of the reversible transformations an attacker might pick, and
// counts how many calls flowd rates as carrying a secret: once for a
// secret flowd never saw arrive, once for one it read from an internal
// result first. The transformations were written after the unwrap views
// (unwrap_test.go is what they were built against) and run once; the rates
// are printed, and only a floor is asserted.
func TestTransformedSecretsCorpus(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	pick := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		return string(b)
	}
	const (
		alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
		upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	)
	secretsOut := map[string]string{
		"github":     "ghp_" + pick(alnum, 36),
		"aws":        "AKIA" + pick(upper, 16),
		"slack":      "xoxb-" + pick("0123456789", 12) + "-" + pick("0123456789", 13) + "-" + pick(alnum, 24),
		"stripe":     "sk_live_" + pick(alnum, 24),
		"assignment": "client_secret=" + pick(alnum, 32),
	}
	transforms := map[string]func(string) string{
		"base64":         func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) },
		"base64url":      func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) },
		"hex":            func(s string) string { return hex.EncodeToString([]byte(s)) },
		"HEX":            func(s string) string { return strings.ToUpper(hex.EncodeToString([]byte(s))) },
		"percent":        func(s string) string { return percentAll(s) },
		"percent twice":  func(s string) string { return url.QueryEscape(percentAll(s)) },
		"base32":         func(s string) string { return base32.StdEncoding.EncodeToString([]byte(s)) },
		"reversed":       reverse,
		"rot13":          func(s string) string { return strings.Map(rot13Rune, s) },
		"dash between":   func(s string) string { return strings.Join(strings.Split(s, ""), "-") },
		"zero-width":     func(s string) string { return strings.Join(strings.Split(s, ""), "\u200b") },
		"homoglyphs":     strings.NewReplacer("a", "а", "e", "е", "o", "о", "p", "р", "c", "с", "x", "х", "A", "А", "K", "К").Replace,
		"fullwidth":      func(s string) string { return strings.Map(func(r rune) rune { return r - 0x21 + 0xFF01 }, s) },
		"html entities":  func(s string) string { return each(s, "&#%d;") },
		"\\x escapes":    func(s string) string { return each(s, `\\x%02x`) },
		"\\u escapes":    func(s string) string { return each(s, `\\u%04x`) },
		"char codes":     func(s string) string { return "String.fromCharCode(" + strings.TrimSuffix(each(s, "%d,"), ",") + ")" },
		"octal":          func(s string) string { return each(s, `\\%03o`) },
		"hex colons":     func(s string) string { return strings.TrimSuffix(each(s, "%02x:"), ":") },
		"gzip+base64":    func(s string) string { return base64.StdEncoding.EncodeToString(packed(s, true)) },
		"zlib+base64":    func(s string) string { return base64.StdEncoding.EncodeToString(packed(s, false)) },
		"base64 twice":   func(s string) string { return b64(b64(s)) },
		"url of base64":  func(s string) string { return percentAll(b64(s)) },
		"hex of base64":  func(s string) string { return hex.EncodeToString([]byte(b64(s))) },
		"base64 wrapped": func(s string) string { return wrap(b64(s), 8) },
		"upper case":     strings.ToUpper,
		"lower case":     strings.ToLower,
		"doubled":        func(s string) string { return each(s, "%c%[1]c") },
		"caesar 3":       func(s string) string { return strings.Map(func(r rune) rune { return shift(r, 3) }, s) },
		"space between":  func(s string) string { return strings.Join(strings.Split(s, ""), " ") },
	}
	ext := classify.Result{Class: classify.External}
	tr := NewTracker(Options{}, detector(t))
	var unknown, known rate
	var missU, missK []string
	n := 0
	for kind, sec := range secretsOut {
		for name, f := range transforms {
			n++
			sent, _ := jsonString(f(sec))
			args := []byte(`{"body":` + sent + `}`)
			views := unwrap.Views(args)

			unknown.n++
			if a := tr.Session(fmt.Sprint("u", n)).Check("mail", "send", ext, args, views, nil); len(a.Secrets) > 0 {
				unknown.hit++
			} else {
				missU = append(missU, kind+"/"+name)
			}

			s := tr.Session(fmt.Sprint("k", n))
			s.Begin()
			s.Record(Origin{Server: "vault", Tool: "read", Class: classify.Internal}, []byte(`{"content":[{"type":"text","text":"`+sec+`"}]}`))
			known.n++
			if a := s.Check("mail", "send", ext, args, views, nil); len(a.Secrets) > 0 || len(a.Edges) > 0 {
				known.hit++
			} else {
				missK = append(missK, kind+"/"+name)
			}
		}
	}
	t.Logf("transformed secrets rated as secrets: never seen %v; read first from an internal result %v", unknown, known)
	t.Logf("missed, never seen: %v", missU)
	t.Logf("missed, read first: %v", missK)
	assert.GreaterOrEqual(t, float64(unknown.hit)/float64(unknown.n), 0.5)
}

type rate struct{ n, hit int }

func (r rate) String() string {
	return fmt.Sprintf("%d/%d (%.1f%%)", r.hit, r.n, 100*float64(r.hit)/float64(max(r.n, 1)))
}

func reverse(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}

func rot13Rune(r rune) rune { return shift(r, 13) }

func shift(r rune, k rune) rune {
	switch {
	case r >= 'a' && r <= 'z':
		return 'a' + (r-'a'+k)%26
	case r >= 'A' && r <= 'Z':
		return 'A' + (r-'A'+k)%26
	}
	return r
}

func each(s, format string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		fmt.Fprintf(&b, format, c)
	}
	return b.String()
}

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func wrap(s string, n int) string {
	var parts []string
	for len(s) > n {
		parts = append(parts, s[:n])
		s = s[n:]
	}
	return strings.Join(append(parts, s), "\n")
}

func packed(s string, gz bool) []byte {
	var buf bytes.Buffer
	if gz {
		w := gzip.NewWriter(&buf)
		w.Write([]byte(s))
		w.Close()
	} else {
		w := zlib.NewWriter(&buf)
		w.Write([]byte(s))
		w.Close()
	}
	return buf.Bytes()
}

func jsonString(s string) (string, error) {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String(), nil
}
