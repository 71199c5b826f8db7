package unwrap

import (
	"bytes"
	"compress/gzip"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
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
