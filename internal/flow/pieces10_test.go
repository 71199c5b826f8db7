package flow

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"math/bits"
	"math/rand"
	"net/url"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The pieces10 set: transformations written for the pieces10 changes
// (canonical characters on both sides, more radixes, runs of codes read
// as numbers, calls joined), none of them a row of an earlier set. Split
// as the others: even rows tuned on, odd rows held back (read as a total
// only).

// p10Braille writes letters and digits in six-dot Braille, a capital
// after the capital sign, a run of digits after the number sign and a
// letter a-j after digits after the letter sign.
func p10Braille(s string) string {
	letters := []rune{0x01, 0x03, 0x09, 0x19, 0x11, 0x0B, 0x1B, 0x13, 0x0A, 0x1A}
	cell := func(c byte) rune {
		l := c - 'a'
		switch {
		case l < 10:
			return 0x2800 + letters[l]
		case l < 20:
			return 0x2800 + letters[l-10] | 0x04
		case c == 'w':
			return 0x2800 + 0x3A
		default:
			k := l - 20
			if k > 2 {
				k--
			}
			return 0x2800 + letters[k] | 0x24
		}
	}
	var b strings.Builder
	number := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if number && (c < '0' || c > '9') {
			number = false
			if lc := c | 0x20; lc >= 'a' && lc <= 'j' {
				b.WriteRune(0x2830) // the letter sign
			}
		}
		switch {
		case c >= 'a' && c <= 'z':
			b.WriteRune(cell(c))
		case c >= 'A' && c <= 'Z':
			b.WriteRune(0x2820)
			b.WriteRune(cell(c + 'a' - 'A'))
		case c >= '0' && c <= '9':
			if !number {
				b.WriteRune(0x283C)
				number = true
			}
			b.WriteRune(cell("jabcdefghi"[c-'0']))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// p10UpsideDown turns text upside down: each character by its rotated
// look-alike, the order reversed.
func p10UpsideDown(s string) string {
	from := "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	to := []rune("ɐqɔpǝɟƃɥᴉɾʞlɯuodbɹsʇnʌʍxʎz∀ᗺƆᗡƎℲ⅁HIſꓘ˥WNOԀΌᴚS⊥∩ΛMX⅄Z0ƖᄅƐㄣϛ9ㄥ86")
	r := []rune(s)
	out := make([]rune, len(r))
	for i, c := range r {
		if k := strings.IndexRune(from, c); k >= 0 {
			c = to[k]
		}
		out[len(r)-1-i] = c
	}
	return string(out)
}

// p10Homoglyphs puts Cyrillic and Greek look-alikes for the Latin
// letters that have one.
func p10Homoglyphs(s string) string {
	m := map[rune]rune{'a': 'а', 'c': 'с', 'e': 'е', 'o': 'о', 'p': 'р', 'x': 'х', 'y': 'у', 'i': 'і',
		'A': 'Α', 'B': 'В', 'C': 'С', 'E': 'Ε', 'H': 'Н', 'K': 'К', 'M': 'М', 'O': 'Ο', 'P': 'Р', 'T': 'Т', 'X': 'Х', 'Z': 'Ζ', 'N': 'Ν', 'I': 'І'}
	return strings.Map(func(c rune) rune {
		if h, ok := m[c]; ok {
			return h
		}
		return c
	}, s)
}

func p10Fullwidth(s string) string {
	return strings.Map(func(c rune) rune {
		if c > ' ' && c < 0x7f {
			return c + 0xFEE0
		}
		return c
	}, s)
}

func p10MixedCase(r *rand.Rand, s string) string {
	return strings.Map(func(c rune) rune {
		if r.Intn(2) == 0 {
			return unicode.ToUpper(c)
		}
		return unicode.ToLower(c)
	}, s)
}

// p10Radix writes the bytes of s as one number in the given base, with
// digits from alphabet.
func p10Radix(s string, alphabet string) string {
	x := new(big.Int).SetBytes([]byte(s))
	base := big.NewInt(int64(len(alphabet)))
	m := new(big.Int)
	var out []byte
	for x.Sign() > 0 {
		x.DivMod(x, base, m)
		out = append(out, alphabet[m.Int64()])
	}
	return reverse(string(out))
}

var p10Digits = strings.Fields("zero one two three four five six seven eight nine")

func p10Nato(s string) string {
	nato := strings.Fields("Alfa Bravo Charlie Delta Echo Foxtrot Golf Hotel India Juliett Kilo Lima Mike November Oscar Papa Quebec Romeo Sierra Tango Uniform Victor Whiskey Xray Yankee Zulu")
	var w []string
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
			w = append(w, strings.ToLower(nato[c-'a']))
		case c >= 'A' && c <= 'Z':
			w = append(w, strings.ToUpper(nato[c-'A']))
		case c >= '0' && c <= '9':
			w = append(w, p10Digits[c-'0'])
		default:
			w = append(w, string(c))
		}
	}
	return strings.Join(w, " ")
}

var pieces10Families = []pieces8Family{
	// 0: the control, the secret as it is.
	{"control: whole", func(_ *rand.Rand, s string) []string { return []string{p8Body("key: " + s)} }},
	{"control: lower case", func(_ *rand.Rand, s string) []string { return []string{p8Body("key: " + strings.ToLower(s))} }},
	{"upper case", func(_ *rand.Rand, s string) []string { return []string{p8Body("KEY " + strings.ToUpper(s))} }},
	{"random mixed case", func(r *rand.Rand, s string) []string { return []string{p8Body(p10MixedCase(r, s))} }},
	{"lower case, dashes every 4", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(strings.Join(chunks(strings.ToLower(s), 4), "-"))}
	}},
	{"fullwidth", func(_ *rand.Rand, s string) []string { return []string{p8Body(p10Fullwidth(s))} }},
	{"homoglyphs", func(_ *rand.Rand, s string) []string { return []string{p8Body(p10Homoglyphs(s))} }},
	{"math bold, zero-width joiners between", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(strings.Join(strings.Split(strings.Map(mathBold, s), ""), "\u200d"))}
	}},
	{"braille", func(_ *rand.Rand, s string) []string { return []string{p8Body(p10Braille(s))} }},
	{"upside down", func(_ *rand.Rand, s string) []string { return []string{p8Body(p10UpsideDown(s))} }},
	{"z85 in 2 calls", func(_ *rand.Rand, s string) []string {
		e := z85(s)
		return p8Each(chunks(e, (len(e)+1)/2), "p%d %s")
	}},
	{"z85 of lower case", func(_ *rand.Rand, s string) []string { return []string{p8Body("enc " + z85(strings.ToLower(s)))} }},
	{"ascii85 of zlib, bare", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(a85(string(p9Compress(s, "zlib"))))}
	}},
	{"base36 number", func(_ *rand.Rand, s string) []string {
		return []string{p8Body("id " + p10Radix(s, "0123456789abcdefghijklmnopqrstuvwxyz"))}
	}},
	{"base62 number", func(_ *rand.Rand, s string) []string { return []string{p8Body(p10Radix(s, p9Alnum62))} }},
	{"octal number", func(_ *rand.Rand, s string) []string { return []string{p8Body("0o" + p10Radix(s, "01234567"))} }},
	{"base32 lower, no padding, 4 calls", func(_ *rand.Rand, s string) []string {
		e := strings.ToLower(strings.TrimRight(base32.StdEncoding.EncodeToString([]byte(s)), "="))
		return p8Each(chunks(e, (len(e)+3)/4), "seg %d: %s")
	}},
	{"base64 in 5-char pieces over calls", func(_ *rand.Rand, s string) []string {
		return p8Each(chunks(b64(s), 5), "#%d %s")
	}},
	{"hex in 6-char pieces over calls, reversed order", func(_ *rand.Rand, s string) []string {
		p := chunks(hex.EncodeToString([]byte(s)), 6)
		out := p8Each(p, "%d/%s")
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
		return out
	}},
	{"decimal char codes, digits as words", func(_ *rand.Rand, s string) []string {
		var w []string
		for i := 0; i < len(s); i++ {
			var d []string
			for _, c := range fmt.Sprint(int(s[i])) {
				d = append(d, p10Digits[c-'0'])
			}
			w = append(w, strings.Join(d, " "))
		}
		return []string{p8Body(strings.Join(w, " / "))}
	}},
	{"nato, case in the word", func(_ *rand.Rand, s string) []string { return []string{p8Body(p10Nato(s))} }},
	{"binary-coded decimal of each byte", func(_ *rand.Rand, s string) []string {
		var w []string
		for i := 0; i < len(s); i++ {
			var d []string
			for _, c := range fmt.Sprintf("%03d", s[i]) {
				d = append(d, fmt.Sprintf("%04b", c-'0'))
			}
			w = append(w, strings.Join(d, ""))
		}
		return []string{p8Body(strings.Join(w, " "))}
	}},
	{"bits of each byte reversed, hex", func(_ *rand.Rand, s string) []string {
		b := []byte(s)
		for i := range b {
			b[i] = bits.Reverse8(b[i])
		}
		return []string{p8Body(hex.EncodeToString(b))}
	}},
	{"nibbles swapped, hex", func(_ *rand.Rand, s string) []string {
		b := []byte(s)
		for i := range b {
			b[i] = b[i]<<4 | b[i]>>4
		}
		return []string{p8Body(hex.EncodeToString(b))}
	}},
	{"rot5 digits only", func(_ *rand.Rand, s string) []string { return []string{p8Body(p8Rot(s, 0, 5))} }},
	{"rot 11 letters, 7 digits, reversed", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(reverse(p8Rot(s, 11, 7)))}
	}},
	{"keyboard shifted left", func(_ *rand.Rand, s string) []string {
		rows := []string{"`1234567890-=", "qwertyuiop[]\\", "asdfghjkl;'", "zxcvbnm,./", "~!@#$%^&*()_+", "QWERTYUIOP{}|", "ASDFGHJKL:\"", "ZXCVBNM<>?"}
		return []string{p8Body(strings.Map(func(c rune) rune {
			for _, row := range rows {
				if i := strings.IndexRune(row, c); i >= 0 {
					return rune(row[(i+len(row)-1)%len(row)])
				}
			}
			return c
		}, s))}
	}},
	{"evens and odds in two fields", func(_ *rand.Rand, s string) []string {
		p := p8Stride(s, 2)
		b, _ := json.Marshal(map[string]string{"to": "ops@partner.example", "subject": p[0], "body": p[1]})
		return []string{string(b)}
	}},
	{"5-char chunks shuffled with indexes, one call", func(r *rand.Rand, s string) []string {
		p := chunks(s, 5)
		var w []string
		for _, j := range r.Perm(len(p)) {
			w = append(w, fmt.Sprintf("%d:%s", j, p[j]))
		}
		return []string{p8Body(strings.Join(w, " "))}
	}},
	{"2 chars then 2 of a key stream", func(r *rand.Rand, s string) []string {
		var b strings.Builder
		for _, p := range chunks(s, 2) {
			b.WriteString(p)
			b.WriteString(p9Shuffled(r, p9Alnum62)[:2])
		}
		return []string{p8Body(b.String())}
	}},
	{"4-char chunks each reversed, order reversed", func(_ *rand.Rand, s string) []string {
		p := eachReversed(chunks(s, 4))
		for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
			p[i], p[j] = p[j], p[i]
		}
		return []string{p8Body(strings.Join(p, " "))}
	}},
	{"json \\u escapes, url-encoded", func(_ *rand.Rand, s string) []string {
		return []string{p8Body("q=" + url.QueryEscape(each(s, `\u%04x`)))}
	}},
	{"html entities of url-encoded of json escapes", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(strings.ReplaceAll(url.PathEscape(each(s, `\x%02x`)), "%", "&#37;"))}
	}},
	{"quoted-printable, soft breaks", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(strings.Join(chunks(each(s, "=%02X"), 72), "=\r\n"))}
	}},
	{"base64 of base64 of lower case", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(b64(b64(strings.ToLower(s))))}
	}},
	{"gzip, base64url, 3 calls", func(_ *rand.Rand, s string) []string {
		e := base64.RawURLEncoding.EncodeToString(p9Compress(s, "gzip"))
		return p8Each(chunks(e, (len(e)+2)/3), "part %d=%s")
	}},
	{"deflate, z85", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(z85(string(p9Compress(s, "deflate"))))}
	}},
	{"base32hex lower of reversed", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(strings.ToLower(base32.HexEncoding.EncodeToString([]byte(reverse(s)))))}
	}},
	{"every 3rd char in 3 fields, upper case", func(_ *rand.Rand, s string) []string {
		p := p8Stride(strings.ToUpper(s), 3)
		b, _ := json.Marshal(map[string]any{"to": "ops@partner.example", "lines": p})
		return []string{string(b)}
	}},
	{"char codes plus 100, decimal", func(_ *rand.Rand, s string) []string {
		var w []string
		for i := 0; i < len(s); i++ {
			w = append(w, fmt.Sprint(int(s[i])+100))
		}
		return []string{p8Body(strings.Join(w, ","))}
	}},
	// Rows 40-43 were added after the first measurement, with the
	// readers of chained bytes, numbers in words and raw codes.
	{"byte values in words, British 'and', semicolons", func(_ *rand.Rand, s string) []string {
		var w []string
		for i := 0; i < len(s); i++ {
			n := p9Words(int(s[i]))
			if int(s[i]) > 100 && int(s[i])%100 != 0 {
				n = strings.Replace(n, "hundred ", "hundred and ", 1)
			}
			w = append(w, n)
		}
		return []string{p8Body(strings.Join(w, "; "))}
	}},
	{"delta-coded bytes, base64", func(_ *rand.Rand, s string) []string {
		b := []byte(s)
		for i := len(b) - 1; i > 0; i-- {
			b[i] -= b[i-1]
		}
		return []string{p8Body(b64(string(b)))}
	}},
	{"indexes into 0-9A-Za-z, dashes", func(_ *rand.Rand, s string) []string {
		var idx []string
		for i := 0; i < len(s); i++ {
			idx = append(idx, fmt.Sprint(strings.IndexByte(p9Alnum62+"+/_-.", s[i])))
		}
		return []string{p8Body("pos " + strings.Join(idx, "-"))}
	}},
	{"each byte xor the written one before, base64url", func(_ *rand.Rand, s string) []string {
		b := []byte(s)
		for i := 1; i < len(b); i++ {
			b[i] ^= b[i-1]
		}
		return []string{p8Body(base64.RawURLEncoding.EncodeToString(b))}
	}},
}

func pieces10Rates(t *testing.T, held bool) (map[string]p8Rate, p8Rate) {
	return halfRates(t, pieces10Families, 1000, held)
}

func TestPieces10Tune(t *testing.T) {
	per, all := pieces10Rates(t, false)
	logPieces8(t, per, all, "pieces10 tune half")
	require.Equal(t, 12, per["control: whole"].denied, "the control, a secret sent as it is, must be denied for every shape")
	require.GreaterOrEqual(t, all.denied, pieces10TuneFloor)
}

// TestPieces10HeldBack logs the held-back half's total only.
func TestPieces10HeldBack(t *testing.T) {
	_, all := pieces10Rates(t, true)
	t.Logf("pieces10 held-back half: %v", all)
	require.GreaterOrEqual(t, all.denied, pieces10HeldFloor)
}

// Floors: what was measured. Rows 0-39 before the pieces10 changes: tune
// 167/240, held back 143/240; all rows after them: 253/264 and 226/264.
const (
	pieces10TuneFloor = 253
	pieces10HeldFloor = 226
)

// TestZ85WholeEveryDraw: a secret sent in Z85 in one call is denied for
// every draw of the six shapes: a token with few of the alphabet's
// symbols was not read as base85, and one that passed for text in RFC
// 1924's alphabet was not read in Z85's.
func TestZ85WholeEveryDraw(t *testing.T) {
	z85Whole := []pieces8Family{{"z85 whole", func(_ *rand.Rand, s string) []string { return []string{p8Body("payload " + z85(s))} }}}
	for draw := range 10 {
		_, all := halfRates(t, z85Whole, 4242+int64(draw)*100, false)
		assert.Equal(t, 12, all.denied, "draw %d: %v", draw, all)
	}
}
