package unwrap

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// pattern is s written as symbolRuns writes a run: each character as
// 0x80 plus the order of its first appearance.
func pattern(s string) string {
	ids := map[rune]byte{}
	var out []byte
	for _, r := range s {
		if _, ok := ids[r]; !ok {
			ids[r] = 0x80 + byte(len(ids))
		}
		out = append(out, ids[r])
	}
	return string(out)
}

// TestSymbolRunsWriteTheirPattern: a value written a symbol a character,
// in any alphabet, comes out as its pattern of repeats, whatever stands
// around it; text of words, short runs and runs of too few different
// symbols give none.
func TestSymbolRunsWriteTheirPattern(t *testing.T) {
	const secret = "Zk3Lq9Vm2Xb7Nc4Tp1Wd8YsQr5Hq8vN2xTz5Lk9R"
	symbols := func(sep string, of func(i int) string) string {
		var out []string
		for _, c := range secret {
			out = append(out, of(int(c)))
		}
		return strings.Join(out, sep)
	}
	emoji := func(i int) string { return string(rune(0x1F300 + i)) }
	boxes := func(i int) string { return strings.Repeat("▖", i%3+1) + string(rune(0x2500+i)) }
	for name, text := range map[string]string{
		"emoji spaced":       "here: " + symbols(" ", emoji) + " thanks",
		"two glyphs each":    symbols("  ", boxes),
		"a JSON list":        `{"v":["` + symbols(`","`, emoji) + `"]}`,
		"lines":              symbols("\n", emoji),
		"after a long prose": strings.Repeat("word ", 50) + symbols(" ", emoji),
	} {
		assert.Equal(t, pattern(secret)+"\n", string(symbolRuns([]byte(text), 1<<20)), name)
	}
	for _, text := range []string{
		"The quick brown fox jumps over the lazy dog, and the dog sleeps on under the old oak tree.",
		"— • — • — • — • — • — • — • — • — • — • — •",
		"-> => -> => -> => -> => -> => -> => -> => -> =>",
		"🎉 🎉 🎉 great work 🎉 🎉 🎉",
	} {
		assert.Empty(t, symbolRuns([]byte(text), 1<<20), text)
	}
	// More different symbols than an alphabet has: no run.
	var many []string
	for i := range 200 {
		many = append(many, string(rune(0x1F300+i)))
	}
	assert.Empty(t, symbolRuns([]byte(strings.Join(many, " ")), 1<<20))
}
