package unwrap

import (
	"bytes"
	"compress/gzip"
	"encoding/ascii85"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/big"
	mathrand "math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestViewsUndoOtherRadixes: a token in the encodings and spellings whose
// alphabets are not base64's, and in the reorderings of its characters,
// is back whole in some view. Each case fails without the undoing it
// names.
func TestViewsUndoOtherRadixes(t *testing.T) {
	const tok = "tok_9fQ2xLr7Vm4Kp8Zs1Wd6Hy3N"
	each := func(format string) string {
		var b strings.Builder
		for _, c := range []byte(tok) {
			fmt.Fprintf(&b, format, c)
		}
		return b.String()
	}
	a85 := func(s []byte) string {
		b := make([]byte, ascii85.MaxEncodedLen(len(s)))
		return string(b[:ascii85.Encode(b, s)])
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(tok))
	zw.Close()
	odd, even := "", ""
	for i := range len(tok) {
		if i%2 == 0 {
			even += tok[i : i+1]
		} else {
			odd += tok[i : i+1]
		}
	}
	// even+even woven with odd+odd is tok twice
	cases := map[string]string{
		"base58":              b58(tok),
		"base32hex":           base32.HexEncoding.EncodeToString([]byte(tok)),
		"bits":                each("%08b"),
		"bits spaced":         strings.TrimSpace(each("%08b ")),
		"octal digits":        strings.TrimSpace(each("%03o ")),
		"octal, unpadded":     strings.TrimSpace(each("%o ")),
		"ascii85":             "<~" + a85([]byte(tok)) + "~>",
		"ascii85 in json":     `{"v":"` + strings.ReplaceAll(strings.ReplaceAll(a85([]byte(tok)), `\`, `\\`), `"`, `\"`) + `"}`,
		"ascii85 gzip":        `{"v":"<~` + strings.ReplaceAll(strings.ReplaceAll(a85(gz.Bytes()), `\`, `\\`), `"`, `\"`) + `~>"}`,
		"base85":              `{"v":"` + b85(tok) + `"}`,
		"z85":                 `{"v":"payload ` + z85(tok) + `"}`,
		"decimal number":      "n=" + bigIn(tok, "0123456789"),
		"octal number":        bigIn(tok, "01234567"),
		"base36 number":       bigIn(tok, "0123456789abcdefghijklmnopqrstuvwxyz"),
		"base62 number":       bigIn(tok, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"),
		"base62, lower first": bigIn(tok, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"),
		"uuencode":            `{"v":"begin 644 k\n` + strings.ReplaceAll(strings.ReplaceAll(uu(tok), `\`, `\\`), "\n", `\n`) + "`\\nend\\n\"}",
		"css escapes":         each(`\%x `),
		"swapped case":        strings.Map(func(r rune) rune { return rune(swapCase(byte(r))) }, tok),
		"filler after":        each("%cq"),
		// Halves of minRun characters or more: shorter tokens are words.
		"evens then odds":  even + even + " " + odd + odd,
		"concatenated":     `"tok_9f" + "Q2xLr" + "7Vm4Kp8" + "Zs1Wd6Hy3N"`,
		"concatenated php": `'tok_9fQ2' . 'xLr7Vm4Kp8Zs1' . 'Wd6Hy3N'`,
		"python chr":       strings.TrimSuffix(each("chr(%d)+"), "+"),
		"sql char":         strings.TrimSuffix(each("CHAR(%d)||"), "||"),
		"powershell char":  strings.TrimSuffix(each("[char]%d+"), "+"),
	}
	lowerCases := map[string]string{
		"morse": "-- --- .-. ... . / .-.. ..- -. --.- -..-. -.- ...-- .-- ----. --.. ...-- .-. -.... -- .---- ...- ....- -.--",
	}
	for name, enc := range lowerCases {
		t.Run(name, func(t *testing.T) {
			views := Views([]byte(enc))
			assert.True(t, slices.ContainsFunc(views, func(v []byte) bool { return bytes.Contains(v, []byte("morselunq/k3w9z3r6m1v4y")) }), "%q: %q", enc, views)
		})
	}
	for name, enc := range cases {
		t.Run(name, func(t *testing.T) {
			views := Views([]byte(enc))
			assert.True(t, slices.ContainsFunc(views, func(v []byte) bool { return bytes.Contains(v, []byte(tok)) }), "%q: %q", enc, views)
		})
	}
}

// TestRadixViewsNeedText: words and identifiers that happen to fit an
// alphabet give no view; what they would decode to is no text.
func TestRadixViewsNeedText(t *testing.T) {
	for _, s := range []string{
		"internationalisation deinstitutionalisation",
		`{"v":"!function(e){var t={};return e.call(t)}"}`,
		`{"v":"a=b&&c||d;e<f?g:h>>2;x[0]+=y[1]*z"}`,
		"1101001011010011 0110100101001011",
	} {
		for _, v := range Views([]byte(s)) {
			_, base58 := decodeBase58(v)
			assert.False(t, base58)
		}
		assert.Empty(t, radixViews(nil, []byte(s)), s)
	}
	// Runs read as one number give nothing unless the number is text.
	for _, run := range []string{
		"internationalisation", "deinstitutionalisation", "20261128105042123456789012",
		"4f1c2a9e8b7d6c5a4f3e2d1c0b9a8f7e6d5c4b3a1", "GetCustomerAccountBalanceHistory",
		"01234567012345670123456701234567", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
	} {
		assert.Empty(t, decodeRadixNumber(nil, []byte(run)), run)
	}
}

func b58(s string) string {
	const alpha = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
	x := new(big.Int).SetBytes([]byte(s))
	var out []byte
	m := new(big.Int)
	for x.Sign() > 0 {
		x.DivMod(x, big.NewInt(58), m)
		out = append([]byte{alpha[m.Int64()]}, out...)
	}
	return string(out)
}

func b85(s string) string {
	b := []byte(s)
	pad := (4 - len(b)%4) % 4
	b = append(b, make([]byte, pad)...)
	var out []byte
	for i := 0; i < len(b); i += 4 {
		v := uint32(b[i])<<24 | uint32(b[i+1])<<16 | uint32(b[i+2])<<8 | uint32(b[i+3])
		var c [5]byte
		for k := 4; k >= 0; k-- {
			c[k] = b85Alphabet[v%85]
			v /= 85
		}
		out = append(out, c[:]...)
	}
	return string(out[:len(out)-pad])
}

// z85 is ZeroMQ's base85, the input zero-padded to a multiple of four.
func z85(s string) string {
	const alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"
	b := []byte(s)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	var out []byte
	for i := 0; i < len(b); i += 4 {
		v := uint32(b[i])<<24 | uint32(b[i+1])<<16 | uint32(b[i+2])<<8 | uint32(b[i+3])
		var c [5]byte
		for k := 4; k >= 0; k-- {
			c[k] = alphabet[v%85]
			v /= 85
		}
		out = append(out, c[:]...)
	}
	return string(out)
}

// bigIn writes s's bytes as one number in alphabet's radix.
func bigIn(s, alphabet string) string {
	x := new(big.Int).SetBytes([]byte(s))
	r, m := big.NewInt(int64(len(alphabet))), new(big.Int)
	var out []byte
	for x.Sign() > 0 {
		x.DivMod(x, r, m)
		out = append([]byte{alphabet[m.Int64()]}, out...)
	}
	return string(out)
}

func uu(s string) string {
	b := []byte(s)
	out := []byte{byte(32 + len(b))}
	for len(b)%3 != 0 {
		b = append(b, 0)
	}
	for i := 0; i < len(b); i += 3 {
		v := uint(b[i])<<16 | uint(b[i+1])<<8 | uint(b[i+2])
		for k := 18; k >= 0; k -= 6 {
			c := byte(v>>uint(k)&63) + 32
			if c == 32 {
				c = '`'
			}
			out = append(out, c)
		}
	}
	return string(out) + "\n"
}

// TestRunViewsDecodeJoinedTokens: tokens joined from pieces (base32 in
// lower case, Z85, a base62 number) decode whole; a join of words gives
// nothing.
func TestRunViewsDecodeJoinedTokens(t *testing.T) {
	const tok = "tok_9fQ2xLr7Vm4Kp8Zs1Wd6Hy3N"
	for _, joined := range []string{
		strings.ToLower(strings.TrimRight(base32.StdEncoding.EncodeToString([]byte(tok)), "=")),
		z85(tok),
		bigIn(tok, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"),
	} {
		views := RunViews([]byte(joined))
		assert.True(t, slices.ContainsFunc(views, func(v []byte) bool { return bytes.Contains(v, []byte(tok)) }), "%q: %q", joined, views)
	}
	assert.Empty(t, RunViews([]byte("thanksforthereviewseeyoutomorrowatnine")))
}

// TestViewsUndoChainedBytes: bytes each written together with the one
// before (XOR with the plain byte or the written one, delta coding),
// sent in hex or base64, are back as text in some view; a random digest
// gives no such view.
func TestViewsUndoChainedBytes(t *testing.T) {
	const tok = "tok_9fQ2xLr7Vm4Kp8Zs1Wd6Hy3N"
	plainXor, writtenXor, delta := []byte(tok), []byte(tok), []byte(tok)
	for i := len(tok) - 1; i > 0; i-- {
		plainXor[i] ^= tok[i-1]
		delta[i] -= tok[i-1]
	}
	for i := 1; i < len(tok); i++ {
		writtenXor[i] ^= writtenXor[i-1]
	}
	for name, enc := range map[string]string{
		"xor the plain byte before, hex":   hex.EncodeToString(plainXor),
		"xor the written byte before, b64": base64.StdEncoding.EncodeToString(writtenXor),
		"delta, hex":                       hex.EncodeToString(delta),
	} {
		views := Views([]byte(enc))
		assert.True(t, slices.ContainsFunc(views, func(v []byte) bool { return bytes.Contains(v, []byte(tok)) }), "%s: %q", name, views)
	}
	for _, v := range Views([]byte("sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")) {
		assert.False(t, asciiText(v) && len(v) == 32, "%q", v)
	}
}

// TestLeadsPrintableKeepsText: the estimate from the leading digits
// never turns away a number that is printable text, in any radix read,
// and turns away most random tokens.
func TestLeadsPrintableKeepsText(t *testing.T) {
	const printable = " !#$%&()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~"
	r := mathrand.New(mathrand.NewPCG(1, 2))
	for range 2000 {
		s := make([]byte, 16+r.IntN(120))
		for i := range s {
			s[i] = printable[r.IntN(len(printable))]
		}
		for alphabet, a := range map[string]*digitAlphabet{"01234567": octalDigits, "0123456789": decDigits,
			"0123456789abcdefghijklmnopqrstuvwxyz": lower36, "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz": upperFirst62} {
			run := bigIn(string(s), alphabet)
			assert.True(t, leadsPrintable([]byte(run), a), "%q in %d digits: %s", s, len(alphabet), run)
		}
	}
	passed := 0
	for range 1000 {
		tok := make([]byte, 24)
		for i := range tok {
			tok[i] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"[r.IntN(62)]
		}
		if leadsPrintable(tok, upperFirst62) {
			passed++
		}
	}
	assert.Less(t, passed, 400, "random tokens read further: %d/1000", passed)
}
