//go:build unix && redteam7

package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// RT7-16: a key read from an internal file, sent to an external server
// as its characters' codes. Decimal (`90,107,…`), hex, binary and eight
// other spellings tried are denied; octal (`132 153 63 …`, what
// `od -b` and `printf '%o'` print) goes out, in proxy-only mode.
func TestRT7KeyAsOctalCodes(t *testing.T) {
	const key = "Zk3Lq9Vm2Xb7Nc4Tp1Wd8YsQr5Hq8vN2xTz5Lk9R"
	f := startFlowd(t, "")
	env := []string{"FLOWD_SESSION=rt7-oct"}
	fs, _ := rt7Server(t, f, "filesystem", []any{rt7Tool("read_text_file", "Read a file from the project", map[string]string{"path": "file path"})},
		"API_KEY="+key+"\nDB_HOST=db.internal\n", env...)
	require.Contains(t, fs.roundTrip(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_text_file","arguments":{"path":".env"}}}`), key)
	slack, received := rt7Server(t, f, "slack", []any{rt7Tool("post_message", "Post a message to a channel", map[string]string{"channel": "channel", "text": "message text"})}, "ok", env...)
	var dec, oct []string
	for _, r := range key {
		dec = append(dec, fmt.Sprint(int(r)))
		oct = append(oct, fmt.Sprintf("%o", r))
	}
	send := func(id int, text string) string {
		return slack.roundTrip(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"post_message","arguments":{"channel":"ops","text":%q}}}`, id, text))
	}
	require.Contains(t, send(2, "codes: "+strings.Join(dec, ",")), "flowd blocked", "control: decimal codes are denied")
	octal := strings.Join(oct, " ")
	line := send(3, "codes: "+octal)
	assert.Contains(t, line, "flowd blocked", "the key as octal codes went to slack")
	assert.NotContains(t, received(), octal)
	for _, r := range f.activity(t, "tool_call") {
		if r.Server == "slack" {
			t.Logf("flowd: %s %s %s", r.Tool, r.Verdict, r.Reason)
		}
	}
}
