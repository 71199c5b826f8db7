//go:build unix

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Found by a red team: flowd's private signing key (audit.key: the activity log's
// checkpoints and this machine's attack-print feeds) and the approval
// passphrase's verifier (approval.json) lie in the data dir, readable by
// the agent, which runs as the user. With the key the agent re-signs a
// log it rewrote and signs feeds that machines trusting this one import;
// with the verifier it guesses the passphrase offline, past the lockout.
// Through the real hook each read is denied.
func TestAgentCannotReadFlowdsSecrets(t *testing.T) {
	f := startFlowd(t, "")
	key := filepath.Join(f.dataDir, "audit.key")
	if _, err := os.Stat(key); err != nil {
		t.Fatalf("flowd made no audit key: %v", err)
	}
	proj := t.TempDir()
	hook := bins.hook + " evaluate --event PreToolUse"
	for _, c := range []struct{ name, payload string }{
		{"Read audit.key", `{"session_id":"rt2k","hook_event_name":"PreToolUse","tool_name":"Read","cwd":` + jsonText(proj) +
			`,"tool_input":{"file_path":` + jsonText(key) + `}}`},
		{"cat audit.key", claudeBash("cat "+key, proj)},
		{"cp audit.key", claudeBash("cp "+key+" /tmp/k.pem", proj)},
		{"Read approval.json", `{"session_id":"rt2k","hook_event_name":"PreToolUse","tool_name":"Read","cwd":` + jsonText(proj) +
			`,"tool_input":{"file_path":` + jsonText(filepath.Join(f.dataDir, "approval.json")) + `}}`},
	} {
		out, _ := runHook(t, hook, c.payload, f.socket, "rt2k")
		if !strings.Contains(out, `"deny"`) {
			t.Errorf("%s: not denied: %q", c.name, out)
		}
	}
}
