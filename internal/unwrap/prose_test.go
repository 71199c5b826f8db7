package unwrap

import (
	"bytes"
	"encoding/base64"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// benignProse is what most calls carry: sentences, some with a run of
// words of one length ("the quick brown fox" is four pieces by
// pieceRun's measure), in a JSON message.
var benignProse = []string{
	`{"message":"` + strings.Repeat("the quick brown fox jumps over the lazy dog while a daemon watches the stream ", 14)[:1024] + `"}`,
	`{"message":"` + strings.Repeat("Hi team, thanks for your reply. The quarterly review found that response times improved after the cache "+
		"moved closer to the database. Please read the attached report before the meeting and send your comments to the project channel. ", 5)[:1024] + `"}`,
	`{"message":"` + strings.Repeat("The Quick Brown Fox Jumps Over Lazy Dogs ", 10) + `"}`,
}

// TestProseIsNotUndone: words between blanks are not a cut value, and a
// run of lower-case letters is a word or words run together, not an
// encoding: neither is joined nor tried as base64, base32 and hex. Prose
// has no views, and making none allocates nothing (a 1 KB call's views
// of its words run together and decoded were 15 KB and 146 allocations
// of the shim's grant check, which a granted call waits for).
func TestProseIsNotUndone(t *testing.T) {
	for _, s := range benignProse {
		text := []byte(s)
		assert.Empty(t, Views(text), "%.60s", text)
		if allocs := testing.AllocsPerRun(20, func() { Views(text) }); raceEnabled {
			t.Logf("%v allocations under the race detector, which drops pooled walkers at random: not asserted", allocs)
		} else {
			assert.Zero(t, allocs, "%.60s", text)
		}
	}
}

// TestCutValuesInWordsAreStillJoined: the prose gates leave what a cut
// value looks like: pieces with capitals or digits between blanks, words
// cut by other separators, and a lower-case run among others of the
// encoding's own shape.
func TestCutValuesInWordsAreStillJoined(t *testing.T) {
	has := func(text, want string) bool {
		return slices.ContainsFunc(Views([]byte(text)), func(v []byte) bool { return bytes.Contains(v, []byte(want)) })
	}
	assert.True(t, has("AKIA IOSF ODNN 7EXA MPLE", "AKIAIOSFODNN7EXAMPLE"), "pieces with capitals and digits")
	assert.True(t, has("ghpa bCde fghi jklm nopq", "ghpabCdefghijklmnopq"), "a capital inside a piece")
	assert.True(t, has("corr-ecth-orse-batt-erys-tapl-e", "correcthorsebatterystaple"), "lower-case pieces cut by dashes")
	b64 := base64.StdEncoding.EncodeToString([]byte("the launch moves to October 14"))
	assert.True(t, has(`{"b":"`+b64+`"}`, "the launch moves to October 14"), "a base64 run")
}
