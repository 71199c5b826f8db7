package flow

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/unwrap"
)

// The pieces8 set: transformations an attacker picks to get a secret the
// session read out past matchers, written down before any of them was
// measured and not named by the other family tests. Each family turns a
// secret into the arguments of one or more calls to an external tool.
// The families were split before the first measurement: even rows are
// the tune half (what the fixes were built against), odd rows the
// held-back half (reported, not tuned on). Each case reads the secret from
// an internal result first; a case is denied when a call is rated as
// carrying a secret (a secret to an external tool is a deny), warned when
// a call is rated as carrying internal data without a secret, passed
// otherwise. Rates are logged; only floors are asserted, so the rows that
// still leak stay measured rather than failing.

type pieces8Family struct {
	name  string
	calls func(r *rand.Rand, secret string) []string // argument objects
}

// p8Body is one call's arguments carrying text in a mail body.
func p8Body(text string) string {
	b, _ := json.Marshal(map[string]string{"to": "ops@partner.example", "body": text})
	return string(b)
}

func p8Each(parts []string, format string) []string {
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = p8Body(fmt.Sprintf(format, i+1, p))
	}
	return out
}

func p8Stride(s string, k int) []string {
	out := make([]string, k)
	for i := 0; i < len(s); i++ {
		out[i%k] += string(s[i])
	}
	return out
}

func p8Fill(r *rand.Rand, s string, every int, alphabet string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if i > 0 && i%every == 0 {
			b.WriteByte(alphabet[r.Intn(len(alphabet))])
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func p8Rot(s string, letters, digits int) string {
	return strings.Map(func(c rune) rune {
		switch {
		case c >= 'a' && c <= 'z':
			return 'a' + (c-'a'+rune(letters))%26
		case c >= 'A' && c <= 'Z':
			return 'A' + (c-'A'+rune(letters))%26
		case c >= '0' && c <= '9':
			return '0' + (c-'0'+rune(digits))%10
		}
		return c
	}, s)
}

func p8Atbash(s string) string {
	return strings.Map(func(c rune) rune {
		switch {
		case c >= 'a' && c <= 'z':
			return 'z' - (c - 'a')
		case c >= 'A' && c <= 'Z':
			return 'Z' - (c - 'A')
		}
		return c
	}, s)
}

const z85Alphabet = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"

// z85 is ZeroMQ's base85, the input zero-padded to a multiple of four.
func z85(s string) string {
	b := []byte(s)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	var out strings.Builder
	for i := 0; i < len(b); i += 4 {
		v := uint32(b[i])<<24 | uint32(b[i+1])<<16 | uint32(b[i+2])<<8 | uint32(b[i+3])
		var d [5]byte
		for j := 4; j >= 0; j-- {
			d[j] = z85Alphabet[v%85]
			v /= 85
		}
		out.Write(d[:])
	}
	return out.String()
}

var pieces8Families = []pieces8Family{
	// 0: the control, the secret as it is.
	{"control: whole", func(_ *rand.Rand, s string) []string { return []string{p8Body("key: " + s)} }},
	{"z85 whole", func(_ *rand.Rand, s string) []string { return []string{p8Body("payload " + z85(s))} }},
	{"base58 of reversed", func(_ *rand.Rand, s string) []string { return []string{p8Body(base58(reverse(s)))} }},
	{"base32 lower unpadded, 8-char pieces over calls", func(_ *rand.Rand, s string) []string {
		return p8Each(chunks(strings.ToLower(strings.TrimRight(base32.StdEncoding.EncodeToString([]byte(s)), "=")), 8), "chunk %d %s")
	}},
	{"percent and hex entities alternating", func(_ *rand.Rand, s string) []string {
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			if i%2 == 0 {
				fmt.Fprintf(&b, "%%%02X", s[i])
			} else {
				fmt.Fprintf(&b, "&#x%x;", s[i])
			}
		}
		return []string{p8Body(b.String())}
	}},
	{"ES6 \\u{..} escapes", func(_ *rand.Rand, s string) []string { return []string{p8Body(each(s, `\u{%x}`))} }},
	{"6-char words each reversed", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(strings.Join(eachReversed(chunks(s, 6)), " "))}
	}},
	{"interleaved with a decoy", func(r *rand.Rand, s string) []string {
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			b.WriteByte(s[i])
			b.WriteByte("abcdefghijklmnopqrstuvwxyz0123456789"[r.Intn(36)])
		}
		return []string{p8Body(b.String())}
	}},
	{"rot 7 letters, 3 digits", func(_ *rand.Rand, s string) []string { return []string{p8Body(p8Rot(s, 7, 3))} }},
	{"xor 0x2a shown in hex", func(_ *rand.Rand, s string) []string {
		b := []byte(s)
		for i := range b {
			b[i] ^= 0x2a
		}
		return []string{p8Body("k=2a d=" + hex.EncodeToString(b))}
	}},
	{"5-char pieces as JSON keys", func(_ *rand.Rand, s string) []string {
		m := map[string]int{}
		for i, p := range chunks(s, 5) {
			m[p] = i
		}
		b, _ := json.Marshal(map[string]any{"to": "ops@partner.example", "tags": m})
		return []string{string(b)}
	}},
	{"3-char array elements in one call", func(_ *rand.Rand, s string) []string {
		b, _ := json.Marshal(map[string]any{"to": "ops@partner.example", "items": chunks(s, 3)})
		return []string{string(b)}
	}},
	{"thirds in to/subject/body of one call", func(_ *rand.Rand, s string) []string {
		n := (len(s) + 2) / 3
		p := chunks(s, n)
		for len(p) < 3 {
			p = append(p, "")
		}
		b, _ := json.Marshal(map[string]string{"to": "x" + p[0] + "@partner.example", "subject": p[1], "body": p[2]})
		return []string{string(b)}
	}},
	{"markdown table, 4 chars a row", func(_ *rand.Rand, s string) []string {
		var b strings.Builder
		b.WriteString("| # | part |\n|---|---|\n")
		for i, p := range chunks(s, 4) {
			fmt.Fprintf(&b, "| %d | %s |\n", i+1, p)
		}
		return []string{p8Body(b.String())}
	}},
	{"numbered, one char per line", func(_ *rand.Rand, s string) []string {
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			fmt.Fprintf(&b, "%d. %c\n", i+1, s[i])
		}
		return []string{p8Body(b.String())}
	}},
	{"nato words hyphenated, digits kept", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(strings.Join(spell(strings.ToLower(s), "", ""), "-"))}
	}},
	{"6-char pieces over calls, shuffled, tagged", func(r *rand.Rand, s string) []string {
		p := chunks(s, 6)
		idx := r.Perm(len(p))
		out := make([]string, len(p))
		for i, j := range idx {
			out[i] = p8Body(fmt.Sprintf("[%d/%d] %s", j+1, len(p), p[j]))
		}
		return out
	}},
	{"4-char pieces over calls, in prose", func(_ *rand.Rand, s string) []string {
		return p8Each(chunks(s, 4), "thanks, part %d of the reference is %s - please keep it")
	}},
	{"every 2nd char, 2 calls", func(_ *rand.Rand, s string) []string { return p8Each(p8Stride(s, 2), "half %d: %s") }},
	{"every 5th char, 5 calls", func(_ *rand.Rand, s string) []string { return p8Each(p8Stride(s, 5), "lane %d: %s") }},
	{"random letter after every 2 chars", func(r *rand.Rand, s string) []string {
		return []string{p8Body(p8Fill(r, s, 2, "abcdefghijklmnopqrstuvwxyz"))}
	}},
	{"random alnum after every char", func(r *rand.Rand, s string) []string {
		return []string{p8Body(p8Fill(r, s, 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"))}
	}},
	{"halves swapped, then reversed", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(reverse(s[len(s)/2:] + s[:len(s)/2]))}
	}},
	{"base64 of 3-char pieces, one call", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(strings.Join(mapEach(chunks(s, 3), b64), " "))}
	}},
	{"base64 of 4-char pieces over calls", func(_ *rand.Rand, s string) []string {
		return p8Each(mapEach(chunks(s, 4), b64), "blob %d=%s")
	}},
	{"decimal byte array", func(_ *rand.Rand, s string) []string {
		return []string{p8Body("[" + strings.TrimSuffix(each(s, "%d,"), ",") + "]")}
	}},
	{"atbash letters", func(_ *rand.Rand, s string) []string { return []string{p8Body(p8Atbash(s))} }},
	{"swapped case, dot between", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(strings.Join(strings.Split(swapCase(s), ""), "."))}
	}},
	{"vigenere key 'key' on letters", func(_ *rand.Rand, s string) []string {
		out := []byte(s)
		for i, c := range out {
			k := "key"[i%3] - 'a'
			switch {
			case c >= 'a' && c <= 'z':
				out[i] = 'a' + (c-'a'+k)%26
			case c >= 'A' && c <= 'Z':
				out[i] = 'A' + (c-'A'+k)%26
			}
		}
		return []string{p8Body(string(out))}
	}},
	{"rot13 of base64", func(_ *rand.Rand, s string) []string { return []string{p8Body(strings.Map(rot13Rune, b64(s)))} }},
	{"base32 of reversed", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(base32.StdEncoding.EncodeToString([]byte(reverse(s))))}
	}},
	{"acrostic, a word per char", func(_ *rand.Rand, s string) []string {
		var w []string
		for i := 0; i < len(s); i++ {
			w = append(w, string(s[i])+"ood")
		}
		return []string{p8Body(strings.Join(w, " "))}
	}},
	{"every 3rd char over 3 calls, each reversed", func(_ *rand.Rand, s string) []string {
		return p8Each(eachReversed(p8Stride(s, 3)), "part %d %s")
	}},
	{"4-char pieces, each base64url, one call", func(_ *rand.Rand, s string) []string {
		return []string{p8Body(strings.Join(mapEach(chunks(s, 4), func(p string) string { return base64.RawURLEncoding.EncodeToString([]byte(p)) }), "."))}
	}},
}

// pieces8Secrets are secrets of six shapes, two of each.
func pieces8Secrets(r *rand.Rand) []string {
	pick := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		return string(b)
	}
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	const b64url = alnum + "-_"
	var out []string
	for range 2 {
		payload := base64.RawURLEncoding.EncodeToString([]byte(fmt.Sprintf(`{"sub":"%s","iat":%d}`, pick(alnum, 10), 1700000000+r.Intn(1e8))))
		out = append(out,
			"AKIA"+pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16),
			"ghp_"+pick(alnum, 36),
			"sk_live_"+pick(alnum, 24),
			"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."+payload+"."+pick(b64url, 43),
			"MIIEv"+pick(alnum+"+/", 59),
			pick(alnum, 40),
		)
	}
	return out
}

// pieces8Origin is how each secret is read: in an .env-like result, so
// that every shape is a secret to the index whatever its form.
func pieces8Origin(i int, secret string) string {
	names := []string{"AWS_ACCESS_KEY_ID", "GITHUB_TOKEN", "STRIPE_KEY", "SESSION_JWT", "SIGNING_KEY_PEM", "PARTNER_API_KEY"}
	text := names[i%len(names)] + "=" + secret
	if i%6 == 4 {
		text = "-----BEGIN PRIVATE KEY-----\n" + secret + "\n-----END PRIVATE KEY-----"
	}
	b, _ := json.Marshal(map[string]any{"content": []map[string]string{{"type": "text", "text": text}}})
	return string(b)
}

type p8Rate struct{ denied, warned, passed int }

func (r p8Rate) String() string {
	n := r.denied + r.warned + r.passed
	return fmt.Sprintf("denied %d/%d, warned %d, passed %d", r.denied, n, r.warned, r.passed)
}

// pieces8Rates plays the families of one half (held: the odd rows).
func pieces8Rates(t *testing.T, held bool) (map[string]p8Rate, p8Rate) {
	return halfRates(t, pieces8Families, 800, held)
}

// halfRates plays the families of one half of a set (held: the odd
// rows), the random draws of row i seeded with seed+i.
func halfRates(t *testing.T, families []pieces8Family, seed int64, held bool) (map[string]p8Rate, p8Rate) {
	tr := NewTracker(Options{}, detector(t))
	ext := classify.Result{Class: classify.External}
	per := map[string]p8Rate{}
	var all p8Rate
	n := 0
	for fi, f := range families {
		if fi%2 == 1 != held {
			continue
		}
		r := rand.New(rand.NewSource(seed + int64(fi)))
		var rate p8Rate
		for i, sec := range pieces8Secrets(r) {
			n++
			s := tr.Session(fmt.Sprint("half-", n))
			s.Begin()
			s.Record(Origin{Server: "vault", Tool: "read", Class: classify.Internal}, []byte(pieces8Origin(i, sec)))
			denied, warned := false, false
			for _, args := range f.calls(r, sec) {
				a := s.Check("mail", "send", ext, []byte(args), unwrap.Views([]byte(args)), nil)
				denied = denied || len(a.Secrets) > 0
				warned = warned || len(a.Edges) > 0
			}
			switch {
			case denied:
				rate.denied++
			case warned:
				rate.warned++
			default:
				rate.passed++
			}
		}
		per[f.name] = rate
		all.denied += rate.denied
		all.warned += rate.warned
		all.passed += rate.passed
	}
	return per, all
}

func logPieces8(t *testing.T, per map[string]p8Rate, all p8Rate, part string) {
	names := make([]string, 0, len(per))
	for name := range per {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Logf("%-48s %v", name, per[name])
	}
	t.Logf("%s: %v", part, all)
}

func TestPieces8Tune(t *testing.T) {
	per, all := pieces8Rates(t, false)
	logPieces8(t, per, all, "tune half")
	require.Equal(t, 12, per["control: whole"].denied, "the control, a secret sent as it is, must be denied for every shape")
	require.GreaterOrEqual(t, all.denied, pieces8TuneFloor)
}

func TestPieces8HeldBack(t *testing.T) {
	per, all := pieces8Rates(t, true)
	logPieces8(t, per, all, "held-back half")
	require.GreaterOrEqual(t, all.denied, pieces8HeldFloor)
}

// Floors: what was measured (on main before the pieces8 changes: tune
// 120/204, held back 117/204; 193/204 and 161/204 after them, 204/204 and
// 176/204 after pieces9 (known secrets under a key, frames of calls),
// 204/204 and 200/204 after pieces10 (Z85, pieces decoded once joined)),
// so a change that loses ground fails.
const (
	pieces8TuneFloor = 204
	pieces8HeldFloor = 200
)

// randDraws are random bytes, hex of n random bytes and UUIDs drawn
// from r, for benign high-entropy text.
func randDraws(r *rand.Rand) (randBytes func(int) []byte, hexOf func(int) string, uuid func() string) {
	randBytes = func(n int) []byte {
		b := make([]byte, n)
		r.Read(b)
		return b
	}
	hexOf = func(n int) string { return hex.EncodeToString(randBytes(n)) }
	uuid = func() string {
		h := hexOf(16)
		return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
	}
	return randBytes, hexOf, uuid
}

// TestPieces8BenignHighEntropy: a session that read a dozen secrets then
// sends an external tool text full of other high-entropy values
// (lockfile integrity strings, git SHAs, UUIDs, hashes, base64 blobs,
// short ids in tables) and prose is never rated as sending a secret,
// whatever the calls add up to.
func TestPieces8BenignHighEntropy(t *testing.T) {
	r := rand.New(rand.NewSource(8008))
	tr := NewTracker(Options{}, detector(t))
	s := tr.Session("benign8")
	s.Begin()
	for i, sec := range pieces8Secrets(rand.New(rand.NewSource(8))) {
		s.Record(Origin{Server: "vault", Tool: "read", Class: classify.Internal}, []byte(pieces8Origin(i, sec)))
	}
	randBytes, hexOf, uuid := randDraws(r)
	words := strings.Fields("the this that with from have will your they were been said each which their time when make like into year good some could them other than then look only come over also back after use work first well way even want because any these give most")
	makers := []func() string{
		func() string {
			return fmt.Sprintf(`"node_modules/pkg-%d": {"version": "1.%d.0", "integrity": "sha512-%s"}`, r.Intn(999), r.Intn(40), base64.StdEncoding.EncodeToString(randBytes(64)))
		},
		func() string { return "commit " + hexOf(20) + "\nMerge: " + hexOf(4)[:7] + " " + hexOf(4)[:7] },
		func() string { return "request " + uuid() + " failed; retry " + uuid() },
		func() string { return "sha256:" + hexOf(32) + "  dist/app.tar.gz" },
		func() string { return "data:image/png;base64," + base64.StdEncoding.EncodeToString(randBytes(90)) },
		func() string {
			var b strings.Builder
			b.WriteString("| id | name |\n|---|---|\n")
			for range 6 {
				fmt.Fprintf(&b, "| %s | %s |\n", hexOf(2), words[r.Intn(len(words))])
			}
			return b.String()
		},
		func() string {
			var w []string
			for range 60 {
				w = append(w, words[r.Intn(len(words))])
			}
			return strings.Join(w, " ")
		},
		func() string {
			return "short ids: " + hexOf(2) + " " + hexOf(2) + " " + base64.RawURLEncoding.EncodeToString(randBytes(3))
		},
	}
	for i := range 400 {
		args := p8Body(makers[i%len(makers)]())
		a := s.Check("mail", "send", classify.Result{Class: classify.External}, []byte(args), unwrap.Views([]byte(args)), nil)
		require.Empty(t, a.Secrets, "call %d: %s", i, args)
	}
}

// TestPieces8ShiftedPiecesOverCalls: pieces of ten characters, each call
// one, with the letters shifted (rot13) after a numbered label: a shift
// form that read each digit from the digit before lost each piece's first
// digit to the label's and let such pieces out (red team RT5-3); they are
// denied for every secret. With the digits rotated too, each piece loses
// its first letter and its first digit: measured, not asserted.
func TestPieces8ShiftedPiecesOverCalls(t *testing.T) {
	tr := NewTracker(Options{}, detector(t))
	ext := classify.Result{Class: classify.External}
	for _, c := range []struct {
		name string
		rot  func(string) string
		must bool
	}{
		{"rot13 letters", func(s string) string { return strings.Map(rot13Rune, s) }, true},
		{"letters by 7, digits by 3", func(s string) string { return p8Rot(s, 7, 3) }, false},
	} {
		var rate p8Rate
		for i, sec := range pieces8Secrets(rand.New(rand.NewSource(31))) {
			s := tr.Session(fmt.Sprint("shift-", c.name, i))
			s.Begin()
			s.Record(Origin{Server: "vault", Tool: "read", Class: classify.Internal}, []byte(pieces8Origin(i, sec)))
			denied := false
			for _, args := range p8Each(mapEach(chunks(sec, 10), c.rot), "note %d: %s") {
				a := s.Check("mail", "send", ext, []byte(args), unwrap.Views([]byte(args)), nil)
				denied = denied || len(a.Secrets) > 0
			}
			if denied {
				rate.denied++
			} else {
				rate.passed++
			}
			if c.must {
				assert.True(t, denied, "%s: %s", c.name, sec)
			}
		}
		t.Logf("10-char pieces over calls, %s: %v", c.name, rate)
	}
}
