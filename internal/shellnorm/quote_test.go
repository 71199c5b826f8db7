package shellnorm

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestQuote(t *testing.T) {
	for _, tt := range []struct{ in, quote, ifNeeded, display string }{
		{"", `''`, `''`, `''`},
		{"/usr/local/bin/flowd-hook", `'/usr/local/bin/flowd-hook'`, `/usr/local/bin/flowd-hook`, `/usr/local/bin/flowd-hook`},
		{"user@host:8080,a=b%2B-c_d", `'user@host:8080,a=b%2B-c_d'`, `user@host:8080,a=b%2B-c_d`, `user@host:8080,a=b%2B-c_d`},
		{"with space", `'with space'`, `'with space'`, `'with space'`},
		{"it's", `'it'\''s'`, `'it'\''s'`, `'it'\''s'`},
		{"$(id)", `'$(id)'`, `'$(id)'`, `'$(id)'`},
		{"a;b", `'a;b'`, `'a;b'`, `'a;b'`},
		{"*", `'*'`, `'*'`, `'*'`},
		{"~/x", `'~/x'`, `'~/x'`, `'~/x'`},
		{"café", `'café'`, `'café'`, `café`},
		{"日本語メモ", `'日本語メモ'`, `'日本語メモ'`, `日本語メモ`},
		{"zoë's", `'zoë'\''s'`, `'zoë'\''s'`, `'zoë'\''s'`},
	} {
		assert.Equal(t, tt.quote, Quote(tt.in), "Quote(%q)", tt.in)
		assert.Equal(t, tt.ifNeeded, QuoteIfNeeded(tt.in), "QuoteIfNeeded(%q)", tt.in)
		assert.Equal(t, tt.display, QuoteForDisplay(tt.in), "QuoteForDisplay(%q)", tt.in)
		// What the shell reads back is the string itself.
		for _, q := range []string{Quote(tt.in), QuoteIfNeeded(tt.in), QuoteForDisplay(tt.in)} {
			cmds := Parse("echo " + q).Commands
			if assert.Len(t, cmds, 1) && assert.Len(t, cmds[0].Words, 2) {
				assert.Equal(t, tt.in, cmds[0].Words[1], "%s read back", q)
			}
		}
	}
}
