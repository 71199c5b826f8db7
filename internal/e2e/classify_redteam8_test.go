//go:build unix && redteam8

package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// RT8-13: tools whose descriptions say the data leaves the machine
// ("with an LLM", "back up"), on servers whose names say nothing of the
// network (notes, git), are classed internal ("calls to it are not
// checked for data leaving"): a key read in the session goes to them
// silently. On slack the same key is refused; "Sync the notes folder"
// is refused too (a destination).
func TestRT8EgressToolsClassedInternal(t *testing.T) {
	const key = "Zk3Lq9Vm2Xb7Nc4Tp1Wd8YsQr5Hq8vN2xTz5Lk9R"
	f := startFlowd(t, "")
	_, post := rt8ReadThenSlack(t, f, "rt8-cls", "API_KEY="+key+"\n", key)
	require.Contains(t, post(2, "ref "+key), "flowd blocked", "control: the key to slack is refused")
	env := []string{"FLOWD_SESSION=rt8-cls"}
	cases := []struct{ server, tool, desc, param string }{
		{"notes", "summarize", "Summarize text with an LLM", "text"},
		{"notes", "sync_notes", "Sync the notes folder", "folder"},
		{"git", "backup", "Back up the project", "path"},
	}
	var passed []string
	for i, c := range cases {
		srv := rt8Server(t, f, c.server, []any{rt8Tool(c.tool, c.desc, map[string]string{c.param: c.param})}, "ok", nil, env...)
		line := srv.s.roundTrip(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{%q:%s}}}`, 10+i, c.tool, c.param, jsonText("notes: API_KEY="+key)))
		if !strings.Contains(line, "flowd blocked") {
			passed = append(passed, c.server+"/"+c.tool+" ("+c.desc+")")
		}
	}
	for _, r := range f.activity(t, "tool_call") {
		if r.Server != "filesystem" {
			t.Logf("flowd: %s/%s %s %s", r.Server, r.Tool, r.Verdict, r.Reason)
		}
	}
	assert.Empty(t, passed, "the key went to tools that send data out:\n%s", strings.Join(passed, "\n"))
}
