package unwrap

import (
	"bytes"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestUnspellKeepsSymbolsWrittenAsThemselves: a value spelled word by
// word, with the punctuation it holds written as itself (quoted or
// alone), is read whole. Without literalSymbol the run ended at the
// first '?' and neither part spelled enough.
func TestUnspellKeepsSymbolsWrittenAsThemselves(t *testing.T) {
	for text, want := range map[string]string{
		"uniform CAPITAL-bravo CAPITAL-victor yankee '?' charlie india CAPITAL-alfa oscar CAPITAL-mike '%' alfa uniform echo one six": "uBVy?ciAoM%aue16",
		"papa alfa sierra sierra ! whiskey oscar romeo delta # one two three":                                                         "pass!word#123",
		`{"v":"kilo echo yankee \"$\" nine eight seven six \"@\" zulu"}`:                                                              "key$9876@z",
	} {
		views := Views([]byte(text))
		assert.True(t, slices.ContainsFunc(views, func(v []byte) bool { return bytes.Contains(v, []byte(want)) }), "%q: %q", text, views)
	}
}
