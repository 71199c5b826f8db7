package flow

import (
	"bufio"
	"bytes"
	"encoding/ascii85"
	"encoding/base32"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand"
	"os"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/unwrap"
)

// The blind sets of testdata/blind6 and blind6Transforms were written
// before the changes they measure and run on the code as it was first:
// providers no rule names, in syntaxes and value shapes none of the
// other corpora use, hard negatives, and transformations the other
// transformation corpora do not have. They are reported with their
// denominators; the floors asserted are what the code reached, so a
// change that loses ground fails.

// blindLines reads a testdata file of one case a line: '#' starts a
// comment line, \n and \t stand for a line break and a tab.
func blindLines(t *testing.T, name string) []string {
	f, err := os.Open("testdata/blind6/" + name)
	require.NoError(t, err)
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		out = append(out, strings.NewReplacer(`\n`, "\n", `\t`, "\t").Replace(l))
	}
	require.NoError(t, sc.Err())
	return out
}

// blindValue is a credential value of shape i: shapes the other corpora
// do not draw (short, dotted, symbol-laden, base64 of bytes, long hex).
func blindValue(r *rand.Rand, i int) string {
	pick := func(alphabet string, n int) string {
		b := make([]byte, n)
		for k := range b {
			b[k] = alphabet[r.Intn(len(alphabet))]
		}
		return string(b)
	}
	const (
		lower = "abcdefghijklmnopqrstuvwxyz0123456789"
		mixed = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	)
	switch i % 8 {
	case 0:
		return pick(mixed+"-_", 43)
	case 1:
		return pick(lower, 18)
	case 2:
		return pick("abcdefghijklmnopqrstuvwxyz", 3) + "-" + pick(mixed, 40)
	case 3:
		return pick("0123456789abcdef", 48)
	case 4:
		return pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 24)
	case 5:
		return pick("0123456789", 12) + "." + pick(mixed, 32)
	case 6:
		return pick(mixed, 5) + pick("!@#%^*", 1) + pick(mixed, 4) + pick("!@#%^*", 1) + pick(mixed, 6)
	}
	b := make([]byte, 24)
	r.Read(b)
	return base64.StdEncoding.EncodeToString(b)
}

// sendBlind sends text to an external destination in a fresh session:
// as the call's arguments when it is a JSON object, else as a string
// argument.
func sendBlind(tr *Tracker, session, text string) Analysis {
	args := []byte(text)
	if !json.Valid(args) || !strings.HasPrefix(text, "{") {
		args, _ = json.Marshal(map[string]string{"body": text})
	}
	return tr.Session(session).Check("web", "post", classify.Result{Class: classify.External}, args, unwrap.Views(args), nil)
}

func TestBlindKeyish(t *testing.T) {
	tr := NewTracker(Options{}, detector(t))
	r := rand.New(rand.NewSource(616))
	var caught, flagged rate
	for round := 0; round < 4; round++ {
		for i, tpl := range blindLines(t, "keyish.txt") {
			v := blindValue(r, i+round*3)
			if strings.Contains(tpl, `\"`) {
				v = strings.ReplaceAll(v, `"`, `\"`)
			}
			text := strings.Replace(tpl, "%s", v, 1)
			caught.n++
			if a := sendBlind(tr, fmt.Sprint("k", round, "-", i), text); len(a.Secrets) > 0 || len(a.Edges) > 0 {
				caught.hit++
			} else {
				t.Logf("miss %q", text)
			}
		}
	}
	for i, b := range blindLines(t, "benign.txt") {
		flagged.n++
		if a := sendBlind(tr, fmt.Sprint("b", i), b); len(a.Secrets) > 0 {
			flagged.hit++
			t.Logf("flagged %v %q", a.Secrets, b)
		}
	}
	t.Logf("blind keyish: credentials denied %v; benign flagged %v", caught, flagged)
	require.GreaterOrEqual(t, caught.hit, blindKeyishFloor, "credentials denied")
	require.LessOrEqual(t, flagged.hit, blindBenignCeiling, "benign flagged")
}

// What the blind sets reached; see the README.
const (
	blindKeyishFloor     = 134
	blindBenignCeiling   = 0
	blindTransformFloorU = 166
	blindTransformFloorK = 179
)

// blindTransforms are the transformations of the blind set.
var blindTransforms = []struct {
	name string
	f    func(string) string
}{
	{"base58", base58},
	{"ascii85", func(s string) string { return "<~" + a85(s) + "~>" }},
	{"ascii85 bare", a85},
	{"base85 rfc1924", base85},
	{"quoted-printable all", func(s string) string { return each(s, "=%02X") }},
	{"html hex entities", func(s string) string { return each(s, "&#x%x;") }},
	{"html decimal padded", func(s string) string { return each(s, "&#%04d;") }},
	{"base64 utf-16le", func(s string) string { return base64.StdEncoding.EncodeToString(utf16le(s)) }},
	{"hex utf-16be", func(s string) string { return hex.EncodeToString(utf16be(s)) }},
	{"bits spaced", func(s string) string { return strings.TrimSpace(each(s, "%08b ")) }},
	{"bits run", func(s string) string { return each(s, "%08b") }},
	{"decimal array", func(s string) string { return "[" + strings.TrimSuffix(each(s, "%d, "), ", ") + "]" }},
	{"python chr", func(s string) string { return strings.TrimSuffix(each(s, "chr(%d)+"), "+") }},
	{"css escapes", func(s string) string { return each(s, `\%x `) }},
	{"math bold", func(s string) string { return strings.Map(mathBold, s) }},
	{"circled", func(s string) string { return strings.Map(circled, s) }},
	{"swapcase", swapCase},
	{"reversed base64url", func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(reverse(s))) }},
	{"base64url no padding", func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }},
	{"evens then odds", evensOdds},
	{"noise after each", noise},
	{"uuencode", uuencode},
	{"morse", morse},
	{"base32hex", func(s string) string { return base32.HexEncoding.EncodeToString([]byte(s)) }},
	{"gzip base64url", func(s string) string { return base64.RawURLEncoding.EncodeToString(packed(s, true)) }},
	{"mime base64 crlf", func(s string) string { return strings.ReplaceAll(wrap(b64(s+"\n"+s), 12), "\n", "\r\n") }},
	{"double-escaped unicode", func(s string) string { return each(s, `\\u%04x`) }},
	{"plus between", func(s string) string { return strings.Join(strings.Split(s, ""), "+") }},
	{"js concat", func(s string) string { return `"` + strings.Join(chunks(s, 5), `" + "`) + `"` }},
	{"hex reversed", func(s string) string { return hex.EncodeToString([]byte(reverse(s))) }},
	{"octal no escapes", func(s string) string { return strings.TrimSpace(each(s, "%03o ")) }},
	{"data uri", func(s string) string { return "data:text/plain;base64," + b64(s) }},
	{"ascii85 of gzip", func(s string) string { return a85(string(packed(s, true))) }},
	{"base32 lower no pad", func(s string) string {
		return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString([]byte(s)))
	}},
	{"halves swapped", func(s string) string { return s[len(s)/2:] + s[:len(s)/2] }},
	{"base64 of hex", func(s string) string { return b64(hex.EncodeToString([]byte(s))) }},
}

func blindSecrets(r *rand.Rand) map[string]string {
	pick := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		return string(b)
	}
	const mixed = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	return map[string]string{
		"github fine-grained": "github_pat_" + pick(mixed, 22) + "_" + pick(mixed, 59),
		"anthropic":           "sk-ant-api03-" + pick(mixed+"-_", 93) + "AA",
		"npm":                 "npm_" + pick(mixed, 36),
		"shape only":          "NIMBUS_SIGNING_SECRET=" + pick(mixed, 36),
		"pem":                 "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEI" + pick(mixed+"+/", 56) + "\n-----END EC PRIVATE KEY-----",
	}
}

func TestBlindTransforms(t *testing.T) {
	tr := NewTracker(Options{}, detector(t))
	var unknown, known rate
	n := 0
	for kind, sec := range blindSecrets(rand.New(rand.NewSource(6166))) {
		for _, tf := range blindTransforms {
			n++
			args := []byte(body(tf.f(sec)))
			views := unwrap.Views(args)
			unknown.n++
			if a := tr.Session(fmt.Sprint("u", n)).Check("mail", "send", classify.Result{Class: classify.External}, args, views, nil); len(a.Secrets) > 0 {
				unknown.hit++
			} else {
				t.Logf("miss, never seen: %s/%s", kind, tf.name)
			}
			s := tr.Session(fmt.Sprint("k", n))
			s.Begin()
			res, _ := json.Marshal(map[string]any{"content": []map[string]string{{"type": "text", "text": sec}}})
			s.Record(Origin{Server: "vault", Tool: "read", Class: classify.Internal}, res)
			known.n++
			if a := s.Check("mail", "send", classify.Result{Class: classify.External}, args, views, nil); len(a.Secrets) > 0 || len(a.Edges) > 0 {
				known.hit++
			} else {
				t.Logf("miss, read first: %s/%s", kind, tf.name)
			}
		}
	}
	t.Logf("blind transforms: never seen %v; read first %v", unknown, known)
	require.GreaterOrEqual(t, unknown.hit, blindTransformFloorU)
	require.GreaterOrEqual(t, known.hit, blindTransformFloorK)
}

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

func base58(s string) string {
	x := new(big.Int).SetBytes([]byte(s))
	var out []byte
	m := new(big.Int)
	for x.Sign() > 0 {
		x.DivMod(x, big.NewInt(58), m)
		out = append(out, base58Alphabet[m.Int64()])
	}
	return reverse(string(out))
}

func a85(s string) string {
	b := make([]byte, ascii85.MaxEncodedLen(len(s)))
	return string(b[:ascii85.Encode(b, []byte(s))])
}

// base85 is RFC 1924's alphabet, as Python's base64.b85encode writes it.
func base85(s string) string {
	const alpha = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~"
	b := []byte(s)
	pad := (4 - len(b)%4) % 4
	b = append(b, make([]byte, pad)...)
	var out []byte
	for i := 0; i < len(b); i += 4 {
		v := binary.BigEndian.Uint32(b[i:])
		var c [5]byte
		for k := 4; k >= 0; k-- {
			c[k] = alpha[v%85]
			v /= 85
		}
		out = append(out, c[:]...)
	}
	return string(out[:len(out)-pad])
}

func utf16le(s string) []byte {
	var out []byte
	for _, u := range utf16.Encode([]rune(s)) {
		out = binary.LittleEndian.AppendUint16(out, u)
	}
	return out
}

func utf16be(s string) []byte {
	var out []byte
	for _, u := range utf16.Encode([]rune(s)) {
		out = binary.BigEndian.AppendUint16(out, u)
	}
	return out
}

func mathBold(r rune) rune {
	switch {
	case r >= 'A' && r <= 'Z':
		return 0x1D400 + r - 'A'
	case r >= 'a' && r <= 'z':
		return 0x1D41A + r - 'a'
	case r >= '0' && r <= '9':
		return 0x1D7CE + r - '0'
	}
	return r
}

func circled(r rune) rune {
	switch {
	case r >= 'A' && r <= 'Z':
		return 0x24B6 + r - 'A'
	case r >= 'a' && r <= 'z':
		return 0x24D0 + r - 'a'
	case r >= '1' && r <= '9':
		return 0x2460 + r - '1'
	}
	return r
}

func swapCase(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return r - 32
		case r >= 'A' && r <= 'Z':
			return r + 32
		}
		return r
	}, s)
}

func evensOdds(s string) string {
	var a, b []byte
	for i := 0; i < len(s); i++ {
		if i%2 == 0 {
			a = append(a, s[i])
		} else {
			b = append(b, s[i])
		}
	}
	return string(a) + " " + string(b)
}

func noise(s string) string {
	r := rand.New(rand.NewSource(int64(len(s))))
	var b []byte
	for i := 0; i < len(s); i++ {
		b = append(b, s[i], "qwxzjkv"[r.Intn(7)])
	}
	return string(b)
}

func uuencode(s string) string {
	var out bytes.Buffer
	out.WriteString("begin 644 key.txt\n")
	b := []byte(s)
	for len(b) > 0 {
		n := min(45, len(b))
		line := b[:n]
		b = b[n:]
		out.WriteByte(byte(32 + n))
		for len(line)%3 != 0 {
			line = append(line[:len(line):len(line)], 0)
		}
		for i := 0; i < len(line); i += 3 {
			v := uint(line[i])<<16 | uint(line[i+1])<<8 | uint(line[i+2])
			for k := 18; k >= 0; k -= 6 {
				c := byte(v>>uint(k)&63) + 32
				if c == 32 {
					c = '`'
				}
				out.WriteByte(c)
			}
		}
		out.WriteByte('\n')
	}
	out.WriteString("`\nend\n")
	return out.String()
}

var morseCode = map[byte]string{'a': ".-", 'b': "-...", 'c': "-.-.", 'd': "-..", 'e': ".", 'f': "..-.", 'g': "--.", 'h': "....", 'i': "..", 'j': ".---", 'k': "-.-", 'l': ".-..", 'm': "--", 'n': "-.", 'o': "---", 'p': ".--.", 'q': "--.-", 'r': ".-.", 's': "...", 't': "-", 'u': "..-", 'v': "...-", 'w': ".--", 'x': "-..-", 'y': "-.--", 'z': "--..", '0': "-----", '1': ".----", '2': "..---", '3': "...--", '4': "....-", '5': ".....", '6': "-....", '7': "--...", '8': "---..", '9': "----.", '_': "..--.-", '-': "-....-", '=': "-...-", '.': ".-.-.-", '/': "-..-.", '+': ".-.-."}

func morse(s string) string {
	var out []string
	for _, c := range []byte(strings.ToLower(s)) {
		if m, ok := morseCode[c]; ok {
			out = append(out, m)
		} else {
			out = append(out, string(c))
		}
	}
	return strings.Join(out, " ")
}

// TestShapeOnlySecretInPiecesOfOneCall: a credential flowd never saw
// arrive, cut into pieces sent in one call to an external destination,
// out of order, each piece under a credential name or in a literal
// joined to one. The pieces' join, in the order they stand, has the
// whole's form, so the order does not matter. The benign calls have
// short values under credential-ish names; none may be flagged.
func TestShapeOnlySecretInPiecesOfOneCall(t *testing.T) {
	r := rand.New(rand.NewSource(6167))
	shuffled := func(v string, n int) []string {
		p := chunks(v, (len(v)+n-1)/n)
		r.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
		return p
	}
	cases := []func(p []string) string{
		func(p []string) string {
			return fmt.Sprintf("harbor:\n  api_secret_1: %s\n  api_secret_2: %s\n  api_secret_3: %s\n  region: eu\n", p[0], p[1], p[2])
		},
		func(p []string) string {
			return fmt.Sprintf("WIDGET_TOKEN_C=%s\nWIDGET_TOKEN_A=%s\nWIDGET_TOKEN_D=%s\nWIDGET_TOKEN_B=%s\n", p[0], p[1], p[2], p[3])
		},
		func(p []string) string {
			return fmt.Sprintf(`{"auth":{"token_b":%q,"token_a":%q,"token_c":%q}}`, p[0], p[1], p[2])
		},
		func(p []string) string {
			return fmt.Sprintf(`const clientSecret = "%s" + "%s" + "%s" + "%s";`, p[0], p[1], p[2], p[3])
		},
		func(p []string) string { return fmt.Sprintf(`{"signing_key":[%q,%q,%q]}`, p[0], p[1], p[2]) },
		func(p []string) string {
			return fmt.Sprintf("GET /hook?secret1=%s&secret3=%s&secret2=%s HTTP/1.1", p[0], p[1], p[2])
		},
		func(p []string) string {
			return fmt.Sprintf("X-Api-Key-Part-2: %s\nX-Api-Key-Part-1: %s\nX-Api-Key-Part-3: %s\n", p[0], p[1], p[2])
		},
	}
	tr := NewTracker(Options{}, detector(t))
	var caught rate
	for round := range 4 {
		for i, c := range cases {
			v := blindValue(r, []int{0, 2, 4, 6}[round])
			n := 3
			if strings.Count(c([]string{"a", "b", "c", "d"}), "%") > 0 || i == 1 || i == 3 {
				n = 4
			}
			text := c(shuffled(v, n))
			caught.n++
			if a := sendBlind(tr, fmt.Sprint("p", round, i), text); len(a.Secrets) > 0 {
				caught.hit++
			} else {
				t.Logf("miss %q", text)
			}
		}
	}
	benign := []string{
		`{"i18n":{"key_save":"Save","key_cancel":"Cancel","key_retry":"Try again"}}`,
		"secret_santa_1: Alice\nsecret_santa_2: Bob\nsecret_santa_3: Chloé\n",
		`{"auth_step1":"Login-OK","auth_step2":"MFA-Sent","auth_step3":"Done-OK1"}`,
		"api_key_1=${KEY_ONE}\napi_key_2=${KEY_TWO}\napi_key_3=<your key>\n",
		`{"token_type":"Bearer","token_count":"18342","token_limit":"4096"}`,
		"password_rule_1: Aa1!\npassword_rule_2: 12+ chars\npassword_rule_3: no reuse\n",
		`{"pass_1":"Level3-A","pass_2":"Level4-B","pass_3":"Level5-C"}`,
		"auth_code_1: 482913\nauth_code_2: 771204\n",
		`{"keys":{"up":"ArrowUp","down":"ArrowDown","left":"ArrowLeft","right":"ArrowRight"}}`,
		`{"secret_word_en":"Swordfish","secret_word_de":"Schwertfisch","secret_word_fr":"Espadon"}`,
		"token_v1: Ab3_x\ntoken_v2: Cd4_y\n",
		`{"credentials_hint":"Use SSO","credential_A":"user-1","credential_B":"user-2"}`,
	}
	var flagged rate
	for i, b := range benign {
		flagged.n++
		if a := sendBlind(tr, fmt.Sprint("pb", i), b); len(a.Secrets) > 0 {
			flagged.hit++
			t.Logf("flagged %v %q", a.Secrets, b)
		}
	}
	t.Logf("shape-only secrets in pieces of one call: denied %v; benign flagged %v", caught, flagged)
	require.GreaterOrEqual(t, caught.hit, piecesFloor)
	// The one flagged (auth_step1..3) is the fields joined by
	// unwrap.joinFields, as before the pieces were judged.
	require.LessOrEqual(t, flagged.hit, 1)
}

// 19/28 before the pieces under credential names were joined.
const piecesFloor = 22
