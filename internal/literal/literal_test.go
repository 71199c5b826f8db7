package literal

import (
	"regexp/syntax"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPrefixes(t *testing.T) {
	tests := []struct {
		pattern  string
		want     []string
		complete bool
	}{
		{`(?:A3T|AKIA|ASIA)[A-Z0-9]{16}`, []string{"a3t", "akia", "asia"}, false},
		{`\bxox[bp]-`, []string{"xoxb-", "xoxp-"}, true},
		{`[Ss]ecret`, []string{"secret"}, true},
		{`(do not|never)\s+tell`, []string{"do not", "never"}, false}, // a class of spaces ends the literal
		{`ghp_[a-z]+`, []string{"ghp_"}, false},
		{`a+b`, []string{"a"}, false},
		{`(?:ever )?tell`, nil, false}, // may start with "tell" or "ever"
		{`[a-z]+ing`, nil, false},      // too big a class to list
		{`x*y`, nil, false},
		{`^\bgo`, []string{"go"}, true}, // anchors and boundaries take no text
	}
	for _, tt := range tests {
		re, err := syntax.Parse(tt.pattern, syntax.Perl)
		require.NoError(t, err)
		got, complete := Prefixes(re)
		assert.Equal(t, tt.want, got, tt.pattern)
		if tt.want != nil {
			assert.Equal(t, tt.complete, complete, tt.pattern)
		}
	}
}

func TestPrefixesBounded(t *testing.T) {
	// 8 × 8 × 8 alternatives would be 512 strings: past the bound the
	// literal stops where it still fits.
	const eight = `(?:aa|bb|cc|dd|ee|ff|gg|hh)`
	re, err := syntax.Parse(eight+eight+eight, syntax.Perl)
	require.NoError(t, err)
	got, complete := Prefixes(re)
	assert.False(t, complete)
	assert.Len(t, got, 64, "two of the three parts")
	assert.Contains(t, got, "aahh")
}
