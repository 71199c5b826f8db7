package unwrap

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestViews(t *testing.T) {
	const s = "the launch moves to October 14"
	has := func(views [][]byte, want string) bool {
		return slices.ContainsFunc(views, func(v []byte) bool { return string(v) == want })
	}
	assert.True(t, has(Views([]byte("q="+url.QueryEscape(s))), "q="+s))
	assert.True(t, has(Views([]byte(`{"b":"`+base64.StdEncoding.EncodeToString([]byte(s))+`"}`)), s))
	assert.True(t, has(Views([]byte(`{"b":"`+base64.RawURLEncoding.EncodeToString([]byte(s+"??"))+`"}`)), s+"??"))
	assert.True(t, has(Views([]byte("x "+hex.EncodeToString([]byte(s)))), s))
	assert.Empty(t, Views([]byte("plain words and short b64 aGk=")))
	assert.Empty(t, Views(nil))
	assert.Empty(t, Views([]byte{}))
	assert.Equal(t, [][]byte{[]byte("100% sure %zz")}, Views([]byte("100%25 sure %zz")))
}

// TestViewsUndoTransformations: a token put through the transformations an
// attacker picks is back, whole, in some view.
func TestViewsUndoTransformations(t *testing.T) {
	const tok = "tok_9fQ2xLr7Vm4Kp8Zs1Wd6Hy3N"
	b64 := base64.StdEncoding.EncodeToString([]byte("secret=" + tok))
	spaced := func(sep string) string {
		var out []string
		for _, c := range tok {
			out = append(out, string(c))
		}
		return strings.Join(out, sep)
	}
	hexSep := func(sep, prefix string) string {
		var out []string
		for _, c := range []byte(tok) {
			out = append(out, prefix+hex.EncodeToString([]byte{c}))
		}
		return strings.Join(out, sep)
	}
	codes := func() string {
		var out []string
		for _, c := range []byte(tok) {
			out = append(out, fmt.Sprint(int(c)))
		}
		return strings.Join(out, ",")
	}
	rev := []byte(tok)
	slices.Reverse(rev)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(tok))
	zw.Close()
	for name, sent := range map[string]string{
		"url twice":        url.QueryEscape(url.QueryEscape("v=" + tok + "&x=1")),
		"url of base64":    "d=" + url.QueryEscape(b64),
		"base64 of base64": base64.StdEncoding.EncodeToString([]byte(b64)),
		"hex, colons":      "x " + hexSep(":", ""),
		"hex, 0x prefix":   "[" + hexSep(", ", "0x") + "]",
		"char codes":       "fromCharCode(" + codes() + ")",
		"dashes":           spaced("-"),
		"spaces":           spaced(" "),
		"zero-width":       strings.Join(strings.Split(tok, ""), "\u200b"),
		"json escapes":     `"` + jsonEscaped(tok) + `"`,
		"html entities":    html(tok),
		"cyrillic":         strings.NewReplacer("o", "о", "x", "х", "p", "р").Replace(tok),
		"fullwidth":        strings.Map(func(r rune) rune { return r - 0x21 + 0xFF01 }, tok),
		"reversed":         "value " + string(rev),
		"rot13":            strings.Map(func(r rune) rune { return rune(rot13(byte(r))) }, tok),
		"gzip in base64":   base64.StdEncoding.EncodeToString(gz.Bytes()),
		"base32":           base32.StdEncoding.EncodeToString([]byte(tok)),
		// pieces9: raw deflate has no header; %uNNNN has only a '%' to
		// start it; HTML numeric references may lack their ';'; codes
		// may be written in scientific notation.
		"raw deflate in base64":        base64.StdEncoding.EncodeToString(deflated(tok)),
		"%uNNNN escapes":               each(tok, "%%u%04X"),
		"html decimal, no semicolons":  each(tok, "&#%d"),
		"html hex, no semicolons":      each(tok, "&#x%x"),
		"codes in scientific notation": strings.TrimSpace(each(tok, "%.2e ")),
		"codes as floats, + as blanks": url.QueryEscape(strings.TrimSpace(each(tok, "%.3e,"))),
	} {
		t.Run(name, func(t *testing.T) {
			found := false
			for _, v := range Views([]byte(sent)) {
				found = found || bytes.Contains(v, []byte(tok))
			}
			assert.True(t, found, "%s: %q", name, sent)
		})
	}
}

func each(s, format string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if strings.Contains(format, "e") {
			fmt.Fprintf(&b, format, float64(c))
			continue
		}
		fmt.Fprintf(&b, format, c)
	}
	return b.String()
}

func deflated(s string) []byte {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

func html(s string) string {
	var b strings.Builder
	for i, c := range []byte(s) {
		if i%2 == 0 {
			fmt.Fprintf(&b, "&#%d;", c)
		} else {
			fmt.Fprintf(&b, "&#x%x;", c)
		}
	}
	return b.String()
}

func jsonEscaped(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		fmt.Fprintf(&b, "\\u%04x", c)
	}
	return b.String()
}

// TestViewsUndoPieces: a token spelled out, listed a character an item,
// cut into pieces (reordered, turned around, encoded one by one, laid
// out as a URL path or host labels) or moved along the alphabet is back,
// whole, in some view. Each case fails without the view that undoes it.
func TestViewsUndoPieces(t *testing.T) {
	const tok = "tok_9fQ2xLr7Vm4Kp8Zs1Wd6Hy3N"
	cut := func(n int) []string {
		var out []string
		for s := tok; len(s) > 0; s = s[min(n, len(s)):] {
			out = append(out, s[:min(n, len(s))])
		}
		return out
	}
	mapped := func(p []string, f func(string) string) []string {
		out := make([]string, len(p))
		for i, s := range p {
			out[i] = f(s)
		}
		return out
	}
	rev := func(s string) string {
		b := []byte(s)
		slices.Reverse(b)
		return string(b)
	}
	nato := strings.Fields("alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu")
	digits := strings.Fields("zero one two three four five six seven eight nine")
	var spoken []string
	for _, c := range []byte(tok) {
		switch {
		case c >= 'a' && c <= 'z':
			spoken = append(spoken, nato[c-'a'])
		case c >= 'A' && c <= 'Z':
			spoken = append(spoken, "Capital "+nato[c-'A'])
		case c >= '0' && c <= '9':
			spoken = append(spoken, digits[c-'0'])
		default:
			spoken = append(spoken, "underscore")
		}
	}
	reordered := cut(4)
	slices.Reverse(reordered)
	for name, sent := range map[string]string{
		"spoken":               strings.Join(spoken, " "),
		"a line each":          strings.Join(strings.Split(tok, ""), "\n"),
		"json list":            `{"c":["` + strings.Join(strings.Split(tok, ""), `","`) + `"]}`,
		"tildes between":       strings.Join(strings.Split(tok, ""), "~~"),
		"pieces reordered":     strings.Join(reordered, " "),
		"pieces turned around": strings.Join(mapped(cut(5), rev), "-"),
		"parts in base64":      strings.Join(mapped(cut(7), func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }), " "),
		"parts in hex":         strings.Join(mapped(cut(9), func(s string) string { return hex.EncodeToString([]byte(s)) }), ","),
		"url path":             "https://x.example.net/" + strings.Join(cut(6), "/"),
		"host labels":          "http://" + strings.Join(cut(8), ".") + ".c.example.org/",
		"caesar 5":             "v " + strings.Map(func(r rune) rune { return shiftRune(r, 5) }, tok),
	} {
		t.Run(name, func(t *testing.T) {
			found := false
			for _, v := range Views([]byte(sent)) {
				found = found || bytes.Contains(bytes.ToLower(v), bytes.ToLower([]byte(tok)))
			}
			assert.True(t, found, "%s: %q", name, sent)
		})
	}
}

// TestViewsLeaveProse: prose that names digits and NATO words, lists
// and short words is not read as spelled or cut values.
func TestViewsLeaveProse(t *testing.T) {
	for _, text := range []string{
		"Alpha team meets Bravo company at Delta; call me at nine or ten.",
		"one two three four five",
		"the cat sat on the mat",
	} {
		for _, v := range Views([]byte(text)) {
			assert.NotContains(t, string(v), "abcd", text)
			assert.NotContains(t, string(v), "12345", text)
		}
	}
}

func shiftRune(r rune, k rune) rune {
	switch {
	case r >= 'a' && r <= 'z':
		return 'a' + (r-'a'+k)%26
	case r >= 'A' && r <= 'Z':
		return 'A' + (r-'A'+k)%26
	}
	return r
}

// TestViewsSharingAHashAreKept: views are told apart by a hash of their
// bytes; a view whose hash an earlier, different view has (forced here)
// is still kept, once.
func TestViewsSharingAHashAreKept(t *testing.T) {
	a, b := []byte("first view"), []byte("second view")
	w := walker{left: 1 << 10, input: []byte("the text"), seen: map[uint64]int32{}, seed: maphash.MakeSeed()}
	w.seen[maphash.Bytes(w.seed, w.input)] = -1
	require.True(t, w.keep(a))
	w.seen[maphash.Bytes(w.seed, b)] = 0 // as if b hashed as a does
	assert.True(t, w.keep(b), "a different view with the same hash")
	assert.False(t, w.keep(b), "the same view again")
	assert.False(t, w.keep(a))
	assert.False(t, w.keep([]byte("the text")), "the input")
	assert.Equal(t, [][]byte{a, b}, w.out)
}

// The token views are sized before they are written: a megabyte of
// tokens would otherwise leave a trail of outgrown copies of its
// upper-case view (five forms of each token) behind, which a 10 MB call's
// memory bound counts. Fails when upLen and appendUp disagree.
func TestTokenViewsAreSizedExactly(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", "aabbccdd", "._-+/=", " \n"}
	for range 2000 {
		var text []byte
		for n := rng.IntN(3000); len(text) < n; {
			p := pieces[rng.IntN(len(pieces))]
			for range rng.IntN(40) {
				text = append(text, p[rng.IntN(len(p))])
			}
			if rng.IntN(3) == 0 {
				text = append(text, ' ')
			}
		}
		limit := rng.IntN(20000)
		views, ok := tokenViews(text, limit)
		if !ok {
			continue
		}
		for i, v := range views[:3] {
			require.Equal(t, len(v), cap(v), "view %d of %q, limit %d", i, text, limit)
		}
	}
}
