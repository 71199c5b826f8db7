package unwrap

import (
	"bytes"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestViewsWeaveHalvesBack: a value written as its characters at even
// places, then those at odd places, is read woven back: as one token,
// with a mark between the halves, or as two tokens, punctuation in them.
// Each fails without weaves (tokenViews' tokens end at punctuation, and
// it weaves only two tokens).
func TestViewsWeaveHalvesBack(t *testing.T) {
	split := func(s string) (string, string) {
		var even, odd []byte
		for i := range len(s) {
			if i%2 == 0 {
				even = append(even, s[i])
			} else {
				odd = append(odd, s[i])
			}
		}
		return string(even), string(odd)
	}
	for _, secret := range []string{"uBVy?ciAoM%aue16UH0f6PR5", "Zk3Lq9Vm2Xb7Nc4Tp1Wd8YsQr5Hq8vN2xTz5Lk9", "p@ss:W0rd!2026#x"} {
		even, odd := split(secret)
		for _, text := range []string{
			"evens|odds: " + even + "|" + odd,
			even + odd,
			`{"a":"` + even + " " + odd + `"}`,
			even + "/" + odd,
		} {
			assertInViews(t, text, secret, false)
		}
	}
}

// assertInViews asserts that some view of text holds want (compared in
// lower case when folded: the spelling lost the case).
func assertInViews(t *testing.T, text, want string, folded bool) {
	t.Helper()
	views := Views([]byte(text))
	assert.True(t, slices.ContainsFunc(views, func(v []byte) bool {
		if folded {
			v = bytes.ToLower(v)
		}
		return bytes.Contains(v, []byte(want))
	}), "%q: %q", text, views)
}
