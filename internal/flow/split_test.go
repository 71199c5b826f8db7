package flow

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNumberedPieceOf: a call's line read as a piece under a number, in
// the labels a sender writes; a line with no number before a token is
// none, and digits of the piece itself are not taken for a total.
func TestNumberedPieceOf(t *testing.T) {
	for _, c := range []struct {
		line  string
		n     int
		piece string
	}{
		{"part 3: a1b2c3", 3, "a1b2c3"},
		{"[2/8] QkFTRTY0", 2, "QkFTRTY0"},
		{"12/616263", 12, "616263"},
		{"1=H4sIAAAA", 1, "H4sIAAAA"},
		{"#4 zz99", 4, "zz99"},
		{"p2 xyz", 2, "xyz"},
		{"chunk 5 of 9 mnop", 5, "mnop"},
		{"no number here", -1, ""},
	} {
		n, piece, ok := numberedPieceOf([]byte(c.line))
		if c.n < 0 {
			assert.False(t, ok, c.line)
			continue
		}
		assert.True(t, ok, c.line)
		assert.Equal(t, c.n, n, c.line)
		assert.Equal(t, c.piece, string(piece), c.line)
	}
	joined := inNumberOrder(keepNumbered(keepNumbered(keepNumbered(nil, numberedPiece{3, []byte("ccc")}), numberedPiece{1, []byte("aaa")}), numberedPiece{2, []byte("bbb")}))
	assert.Equal(t, "aaabbbccc", string(joined))
}
