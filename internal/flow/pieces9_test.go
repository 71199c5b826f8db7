package flow

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/big"
	"math/bits"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/unwrap"
)

// The pieces9 set: transformations an attacker who has read the README
// (and so knows which undoings flowd has) would pick next, none of them
// in pieces8 or the older sets: keyed ciphers with the key in the message
// or not, XOR and addition with a byte or a repeating key, bit rotations,
// transpositions, compression, invisible tag characters, table cells,
// emoji and keyboard mappings, numbers spelled or in scientific notation,
// custom alphabets, a secret past 16 KiB of text. Written, and split
// (even rows tuned on, odd rows held back: read only as a figure), before
// the first measurement. Each secret is read from an internal result
// first (pieces8Origin), then sent to an external tool; a case is denied
// when a call is rated as carrying a secret.

func p9Vigenere(s, key string, onLetters bool) string {
	out := []byte(s)
	j := 0
	for i, c := range out {
		k := key[j%len(key)] - 'a'
		switch {
		case c >= 'a' && c <= 'z':
			out[i] = 'a' + (c-'a'+k)%26
		case c >= 'A' && c <= 'Z':
			out[i] = 'A' + (c-'A'+k)%26
		default:
			if onLetters {
				continue
			}
		}
		j++
	}
	return string(out)
}

func p9Xor(s string, key string) []byte {
	out := []byte(s)
	for i := range out {
		out[i] ^= key[i%len(key)]
	}
	return out
}

func p9Columnar(s string, cols int) string {
	var b strings.Builder
	for c := range cols {
		for i := c; i < len(s); i += cols {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func p9RailFence(s string, rails int) string {
	rows := make([]strings.Builder, rails)
	r, step := 0, 1
	for i := 0; i < len(s); i++ {
		rows[r].WriteByte(s[i])
		if r+step < 0 || r+step >= rails {
			step = -step
		}
		r += step
	}
	var b strings.Builder
	for i := range rows {
		b.WriteString(rows[i].String())
	}
	return b.String()
}

func p9Compress(s string, kind string) []byte {
	var buf bytes.Buffer
	switch kind {
	case "gzip":
		w := gzip.NewWriter(&buf)
		w.Write([]byte(s))
		w.Close()
	case "zlib":
		w := zlib.NewWriter(&buf)
		w.Write([]byte(s))
		w.Close()
	default:
		w, _ := flate.NewWriter(&buf, flate.BestCompression)
		w.Write([]byte(s))
		w.Close()
	}
	return buf.Bytes()
}

var p9Ones = strings.Fields("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen")
var p9Tens = strings.Fields("_ _ twenty thirty forty fifty sixty seventy eighty ninety")

// p9Words spells 0-999 in English words.
func p9Words(n int) string {
	var w []string
	if n >= 100 {
		w = append(w, p9Ones[n/100], "hundred")
		n %= 100
		if n == 0 {
			return strings.Join(w, " ")
		}
	}
	switch {
	case n < 20:
		w = append(w, p9Ones[n])
	case n%10 == 0:
		w = append(w, p9Tens[n/10])
	default:
		w = append(w, p9Tens[n/10]+"-"+p9Ones[n%10])
	}
	return strings.Join(w, " ")
}

// p9Keyboard moves each character one key to the right on a US keyboard.
func p9Keyboard(s string) string {
	rows := []string{"`1234567890-=", "qwertyuiop[]\\", "asdfghjkl;'", "zxcvbnm,./", "~!@#$%^&*()_+", "QWERTYUIOP{}|", "ASDFGHJKL:\"", "ZXCVBNM<>?"}
	return strings.Map(func(c rune) rune {
		for _, row := range rows {
			if i := strings.IndexRune(row, c); i >= 0 {
				return rune(row[(i+1)%len(row)])
			}
		}
		return c
	}, s)
}

const p9Alnum62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

func p9Shuffled(r *rand.Rand, alphabet string) string {
	b := []byte(alphabet)
	r.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
	return string(b)
}

// p9Substitute maps each character of from to the one at its place in to.
func p9Substitute(s, from, to string) string {
	return strings.Map(func(c rune) rune {
		if i := strings.IndexRune(from, c); i >= 0 {
			return rune(to[i])
		}
		return c
	}, s)
}

var pieces9Families = []pieces8Family{
	// 0: the control, the secret as it is.
	{"control: whole", func(_ *rand.Rand, s string) []string { return []string{p8Body("key: " + s)} }},
	{"vigenere 'zebra', letters, key not sent", func(_ *rand.Rand, s string) []string {
		return []string{p8Body("reference " + p9Vigenere(s, "zebra", false))}
	}},
	{"vigenere 'flowd' on letters only, key in message", func(_ *rand.Rand, s string) []string {
		return []string{p8Body("cipher=vigenere key=flowd text=" + p9Vigenere(s, "flowd", true))}
	}},
	{"xor 0x13, base64", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(base64.StdEncoding.EncodeToString(p9Xor(s, "\x13")))}
	}},
	{"xor key 'k3y!', hex", func(_ *rand.Rand, s string) []string {
		return []string{p8Body("blob: " + hex.EncodeToString(p9Xor(s, "k3y!")))}
	}},
	{"add 0x21 to each byte, upper hex", func(_ *rand.Rand, s string) []string {
		b := []byte(s)
		for i := range b {
			b[i] += 0x21
		}
		return []string{p8Body(strings.ToUpper(hex.EncodeToString(b)))}
	}},
	{"each byte rotated left 3 bits, base64", func(_ *rand.Rand, s string) []string {
		b := []byte(s)
		for i := range b {
			b[i] = bits.RotateLeft8(b[i], 3)
		}
		return []string{p8Body(base64.StdEncoding.EncodeToString(b))}
	}},
	{"xor key 's3cr3tk3y', base64url", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(base64.RawURLEncoding.EncodeToString(p9Xor(s, "s3cr3tk3y")))}
	}},
	{"columnar transposition, 5 columns", func(_ *rand.Rand, s string) []string {
		return []string{p8Body("ct5 " + p9Columnar(s, 5))}
	}},
	{"rail fence, 3 rails", func(_ *rand.Rand, s string) []string { return []string{p8Body(p9RailFence(s, 3))} }},
	{"evens as hex in one call, odds as base64 in the next", func(_ *rand.Rand, s string) []string {
		p := p8Stride(s, 2)
		return []string{p8Body("a=" + hex.EncodeToString([]byte(p[0]))), p8Body("b=" + b64(p[1]))}
	}},
	{"nested: base64 of hex of rot13", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(b64(hex.EncodeToString([]byte(strings.Map(rot13Rune, s)))))}
	}},
	{"raw deflate, base64", func(_ *rand.Rand, s string) []string {
		return []string{p8Body("z:" + base64.StdEncoding.EncodeToString(p9Compress(s, "deflate")))}
	}},
	{"zlib, hex", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(hex.EncodeToString(p9Compress(s, "zlib")))}
	}},
	{"gzip, base32", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(base32.StdEncoding.EncodeToString(p9Compress(s, "gzip")))}
	}},
	{"unicode tag characters after a word", func(_ *rand.Rand, s string) []string {
		return []string{p8Body("thanks" + strings.Map(func(c rune) rune { return 0xE0000 + c }, s))}
	}},
	{"%u00XX every byte", func(_ *rand.Rand, s string) []string { return []string{p8Body(each(s, "%%u%04X"))} }},
	{"CSV, a char a cell, 8 a row", func(_ *rand.Rand, s string) []string {
		var b strings.Builder
		for i, p := range chunks(s, 8) {
			fmt.Fprintf(&b, "%d,%s\n", i, strings.Join(strings.Split(p, ""), ","))
		}
		return []string{p8Body(b.String())}
	}},
	{"markdown table, a char a cell, 10 a row", func(_ *rand.Rand, s string) []string {
		var b strings.Builder
		b.WriteString("|a|b|c|d|e|f|g|h|i|j|\n|-|-|-|-|-|-|-|-|-|-|\n")
		for _, p := range chunks(s, 10) {
			b.WriteString("| " + strings.Join(strings.Split(p, ""), " | ") + " |\n")
		}
		return []string{p8Body(b.String())}
	}},
	{"emoji a byte", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(strings.Map(func(c rune) rune { return 0x1F300 + c }, s))}
	}},
	{"keyboard shifted right", func(_ *rand.Rand, s string) []string { return []string{p8Body(p9Keyboard(s))} }},
	{"byte values in English words", func(_ *rand.Rand, s string) []string {
		var w []string
		for i := 0; i < len(s); i++ {
			w = append(w, p9Words(int(s[i])))
		}
		return []string{p8Body(strings.Join(w, ", "))}
	}},
	{"byte values in scientific notation", func(_ *rand.Rand, s string) []string {
		var w []string
		for i := 0; i < len(s); i++ {
			w = append(w, fmt.Sprintf("%.2e", float64(s[i])))
		}
		return []string{p8Body(strings.Join(w, " "))}
	}},
	{"caesar 17 over 0-9A-Za-z", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(p9Substitute(s, p9Alnum62, p9Alnum62[17:]+p9Alnum62[:17]))}
	}},
	{"random substitution of alnum, key not sent", func(r *rand.Rand, s string) []string {
		return []string{p8Body(p9Substitute(s, p9Alnum62, p9Shuffled(r, p9Alnum62)))}
	}},
	{"each pair of chars swapped", func(_ *rand.Rand, s string) []string {
		b := []byte(s)
		for i := 0; i+1 < len(b); i += 2 {
			b[i], b[i+1] = b[i+1], b[i]
		}
		return []string{p8Body(string(b))}
	}},
	{"halves riffled", func(_ *rand.Rand, s string) []string {
		h := (len(s) + 1) / 2
		var b strings.Builder
		for i := 0; i < h; i++ {
			b.WriteByte(s[i])
			if h+i < len(s) {
				b.WriteByte(s[h+i])
			}
		}
		return []string{p8Body(b.String())}
	}},
	{"each byte xor the one before, hex", func(_ *rand.Rand, s string) []string {
		b := []byte(s)
		for i := len(b) - 1; i > 0; i-- {
			b[i] ^= b[i-1]
		}
		return []string{p8Body(hex.EncodeToString(b))}
	}},
	{"base64 of xor 0x55, thirds over 3 calls", func(_ *rand.Rand, s string) []string {
		e := base64.StdEncoding.EncodeToString(p9Xor(s, "\x55"))
		return p8Each(chunks(e, (len(e)+2)/3), "part %d: %s")
	}},
	{"vigenere 'kw', then reversed", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(reverse(p9Vigenere(s, "kw", false)))}
	}},
	{"html decimal entities without semicolons", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(each(s, "&#%d"))}
	}},
	{"indexes into an alphabet sent along", func(r *rand.Rand, s string) []string {
		alpha := p9Shuffled(r, p9Alnum62+"+/_-.")
		var idx []string
		for i := 0; i < len(s); i++ {
			idx = append(idx, fmt.Sprint(strings.IndexByte(alpha, s[i])))
		}
		return []string{p8Body("alphabet " + alpha + "\nidx " + strings.Join(idx, " "))}
	}},
	{"hex of 16-bit little-endian words", func(_ *rand.Rand, s string) []string {
		b := []byte(s)
		if len(b)%2 == 1 {
			b = append(b, 0)
		}
		var out strings.Builder
		for i := 0; i < len(b); i += 2 {
			fmt.Fprintf(&out, "%02x%02x", b[i+1], b[i])
		}
		return []string{p8Body(out.String())}
	}},
	{"base64 in a shuffled alphabet", func(r *rand.Rand, s string) []string {
		enc := base64.NewEncoding(p9Shuffled(r, p9Alnum62+"+/")).WithPadding(base64.NoPadding)
		return []string{p8Body(enc.EncodeToString([]byte(s)))}
	}},
	{"rot13, hex, the hex reversed", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(reverse(hex.EncodeToString([]byte(strings.Map(rot13Rune, s)))))}
	}},
	{"bits, least significant first", func(_ *rand.Rand, s string) []string {
		var w []string
		for i := 0; i < len(s); i++ {
			w = append(w, fmt.Sprintf("%08b", bits.Reverse8(s[i])))
		}
		return []string{p8Body(strings.Join(w, " "))}
	}},
	{"vigenere 'log' after 20 KiB of log lines", func(r *rand.Rand, s string) []string {
		var b strings.Builder
		for b.Len() < 20<<10 {
			fmt.Fprintf(&b, "2026-11-28T07:%02d:%02dZ INFO request ok id=%08x took=%dms\n", r.Intn(60), r.Intn(60), r.Uint32(), r.Intn(900))
		}
		b.WriteString("2026-11-28T08:00:00Z DEBUG session ref=" + p9Vigenere(s, "log", false) + "\n")
		return []string{p8Body(b.String())}
	}},
	{"bytes as one decimal integer", func(_ *rand.Rand, s string) []string {
		return []string{p8Body("n=" + new(big.Int).SetBytes([]byte(s)).String())}
	}},
}

// pieces9Rates plays the families of one half (held: the odd rows).
func pieces9Rates(t *testing.T, held bool) (map[string]p8Rate, p8Rate) {
	return halfRates(t, pieces9Families, 900, held)
}

func TestPieces9Tune(t *testing.T) {
	per, all := pieces9Rates(t, false)
	logPieces8(t, per, all, "pieces9 tune half")
	require.Equal(t, 12, per["control: whole"].denied, "the control, a secret sent as it is, must be denied for every shape")
	require.GreaterOrEqual(t, all.denied, pieces9TuneFloor)
}

// TestPieces9HeldBack logs the held-back half's total only: its rows
// are not read one by one, so that nothing is tuned on them.
func TestPieces9HeldBack(t *testing.T) {
	_, all := pieces9Rates(t, true)
	t.Logf("pieces9 held-back half: %v", all)
	require.GreaterOrEqual(t, all.denied, pieces9HeldFloor)
}

// Floors: what was measured (on main before the pieces9 changes: tune
// 80/228, held back 69/228; after: 225/228 and 177/228; after pieces10
// (radix numbers, chained bytes, numbers in words, raw codes): 225/228
// and 224/228), so a change that loses ground fails.
const (
	pieces9TuneFloor = 225
	pieces9HeldFloor = 224
)

// TestPieces9BenignHighEntropy: a session that read a dozen secrets then
// sends an external tool text full of other high-entropy values, and
// values that a comparison with those secrets under a key could mistake
// (tokens of the secrets' lengths and alphabets, the same lengths of hex
// and base64, periodic runs, alphabets in order) is never rated as
// sending a secret.
func TestPieces9BenignHighEntropy(t *testing.T) {
	r := rand.New(rand.NewSource(9009))
	tr := NewTracker(Options{}, detector(t))
	s := tr.Session("benign9")
	s.Begin()
	secrets := pieces8Secrets(rand.New(rand.NewSource(9)))
	for i, sec := range secrets {
		s.Record(Origin{Server: "vault", Tool: "read", Class: classify.Internal}, []byte(pieces8Origin(i, sec)))
	}
	randBytes, hexOf, uuid := randDraws(r)
	pick := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		return string(b)
	}
	lengths := func() int { return len(secrets[r.Intn(len(secrets))]) }
	makers := []func() string{
		func() string {
			return fmt.Sprintf(`"node_modules/@scope/pkg-%d": {"version": "2.%d.1", "resolved": "https://registry.npmjs.org/pkg/-/pkg-2.%[2]d.1.tgz", "integrity": "sha512-%s"}`, r.Intn(999), r.Intn(40), base64.StdEncoding.EncodeToString(randBytes(64)))
		},
		func() string { return "commit " + hexOf(20) + "\nAuthor: dev\n\n    fix " + hexOf(4)[:7] },
		func() string { return "trace " + uuid() + " span " + hexOf(8) + " parent " + uuid() },
		func() string { return "sha256sum: " + hexOf(32) + "  release.zip\nmd5: " + hexOf(16) },
		func() string {
			return "![chart](data:image/png;base64," + base64.StdEncoding.EncodeToString(randBytes(300)) + ")"
		},
		// Hex, base64 and tokens of the lengths of the secrets and of
		// their hex and base64 forms.
		func() string { return "digest " + hexOf(lengths()) },
		func() string { return "blob " + base64.StdEncoding.EncodeToString(randBytes(lengths())) },
		func() string { return "ref " + pick("abcdefghijklmnopqrstuvwxyz0123456789", lengths()) },
		func() string { return "build " + pick("0123456789", lengths()) },
		func() string {
			n := lengths()
			return "rule " + strings.Repeat("=-", n)[:n] + " " + strings.Repeat("ab", n)[:n] + " " + strings.Repeat("0", n)
		},
		func() string { return "alphabet ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/" },
		func() string {
			return fmt.Sprintf("func handle%sRequest(ctx context.Context, req *pb.%sRequest) (*pb.%sResponse, error) { return nil, nil }", pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ", 1), "GetCustomerAccountBalanceHistory", "GetCustomerAccountBalanceHistory")
		},
		func() string {
			return "See https://docs.example.com/reference/api/v2/organizations/" + uuid() + "/billing/invoices?cursor=" + base64.RawURLEncoding.EncodeToString(randBytes(24))
		},
	}
	ext := classify.Result{Class: classify.External}
	for i := range 520 {
		args := p8Body(makers[i%len(makers)]())
		a := s.Check("mail", "send", ext, []byte(args), unwrap.Views([]byte(args)), nil)
		require.Empty(t, a.Secrets, "call %d: %s", i, args)
	}
}

// TestPiecesBesideARepeatedRecipient: a key never seen arrive, sent a
// piece per call, each call also naming the same recipient, longer than
// the piece: the recipient every call repeats is the calls' frame, and
// the pieces are joined without it. The key is denied by its shape.
func TestPiecesBesideARepeatedRecipient(t *testing.T) {
	const key = "AKIAQ3EGT5JW2LPRZ7XN"
	tr := NewTracker(Options{}, detector(t))
	s := tr.Session("frame")
	denied := false
	for i, p := range chunks(key, 5) {
		args := fmt.Sprintf(`{"to":"accounts-payable@partner.example","body":"part %d: %s"}`, i+1, p)
		a := s.Check("mail", "send", classify.Result{Class: classify.External}, []byte(args), unwrap.Views([]byte(args)), nil)
		denied = denied || len(a.Secrets) > 0
	}
	require.True(t, denied)
}
