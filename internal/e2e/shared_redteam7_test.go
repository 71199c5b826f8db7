//go:build unix && redteam7

package e2e

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// RT7-11: a key read from .env, written where others read it, is asked
// about; written through /proc/self/root (the same file for the writing
// process: Claude Code's Write) it passes silently.
func TestRT7SharedPlaceThroughProcRoot(t *testing.T) {
	f := startFlowd(t, "")
	proj := t.TempDir()
	pre := bins.hook + " evaluate --event PreToolUse"
	runHook(t, bins.hook+" evaluate --event PostToolUse", `{"session_id":"rt7-w","hook_event_name":"PostToolUse","tool_name":"Read","cwd":`+jsonText(proj)+
		`,"tool_input":{"file_path":`+jsonText(proj+"/.env")+`},"tool_response":{"file":{"content":`+jsonText(agentEnv)+`}}}`, f.socket, "rt7-w")
	write := func(path string) string {
		out, _ := runHook(t, pre, `{"session_id":"rt7-w","hook_event_name":"PreToolUse","tool_name":"Write","cwd":`+jsonText(proj)+
			`,"tool_input":{"file_path":`+jsonText(path)+`,"content":`+jsonText("AWS_SECRET_ACCESS_KEY="+flowSecret+"\n")+`}}`, f.socket, "rt7-w")
		return out
	}
	require.Contains(t, write("/tmp/notes.txt"), `"ask"`, "control: the key written to /tmp is asked about")
	for _, p := range []string{"/proc/self/root/tmp/notes.txt", "/proc/self/root/var/www/html/notes.txt", "/usr/tmp/notes.txt"} {
		out := write(p)
		assert.True(t, strings.Contains(out, `"ask"`) || strings.Contains(out, `"deny"`), "%s: the key was written there unasked: %q", p, out)
	}
}
