package unwrap

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestJoinCodesReadsPrefixedRadixes: character codes each written in a
// radix of its own, told by its prefix (0x, 0o, 0b, either case), mixed
// with plain decimal ones, are read as the characters. Without prefixed
// a code read as 0 ended the run at its first prefix.
func TestJoinCodesReadsPrefixedRadixes(t *testing.T) {
	const tok = "sk_live_9fQ2xLr7Vm4Kp8Zs1Wd6"
	mixed := func(formats ...string) string {
		var p []string
		for i, c := range []byte(tok) {
			p = append(p, fmt.Sprintf(formats[i%len(formats)], c))
		}
		return strings.Join(p, " ")
	}
	for _, text := range []string{
		mixed("0x%x", "0o%o", "%d"),
		mixed("0b%b", "0X%X"),
		mixed("0o%o", "0x%02x", "0b%08b", "%d"),
	} {
		assertInViews(t, text, tok, false)
	}
	// A prefix with nothing after it, or a number past a byte, is no code.
	for _, s := range []string{"0x", "0xfff", "0b", "0o9", "0xzz"} {
		_, _, ok := prefixed([]byte(s), 0)
		assert.False(t, ok, s)
	}
}
