//go:build unix

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestClaudeCodeScanOutputBash runs sessions whose Bash command brings in
// text with a prompt injection, with flowd's hooks installed with
// --scan-output, and checks in the mock's request log that the model read
// Bash's output as flowd replaced it: the quarantine notice for curl of a
// page that blocks, the output redacted for cat of a file that redacts.
// Claude Code takes the replacement only in Bash's output shape
// ({stdout, stderr, interrupted, …}).
func TestClaudeCodeScanOutputBash(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, scenario string
		action         string
		external       bool // curl brings the page from outside the machine
		check          func(t *testing.T, text, quarantine string)
	}{
		{name: "curl blocked", scenario: "bash_curl_injection.json", action: "block", external: true,
			check: func(t *testing.T, text, quarantine string) {
				assert.True(t, strings.HasPrefix(text, "flowd blocked: the result of Bash was withheld as prompt injection"), text)
				assert.Contains(t, text, "quarantined as "+quarantine)
				for _, m := range []string{"ignore%20all%20previous%20instructions", "id_rsa", "Mock page"} {
					assert.NotContains(t, text, m, "the tool_result the model saw")
				}
			}},
		{name: "cat redacted", scenario: "bash_cat_redact.json", action: "redact",
			check: func(t *testing.T, text, _ string) {
				assert.True(t, strings.HasPrefix(text, "Opening hours: Monday to Friday, 9 to 5.\n[flowd redacted: "), text)
				assert.NotContains(t, text, "add a joke")
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := scanningFlowd(t)
			o := runClaudeCode(t, ccRun{scenario: tc.scenario, socket: f.socket, scanOutput: true})
			res := o.result(t)
			assert.Empty(t, res.PermissionDenials)

			var id string
			for _, h := range o.hooks(t) {
				if h.Event == "PostToolUse" && h.Tool == "Bash" {
					id = h.ToolUseID
				}
			}
			require.NotEmpty(t, id, "Bash ran and its PostToolUse hook fired: %+v", o.hooks(t))

			rec := f.hookRecord(t, res.SessionID, "PostToolUse", "Bash")
			d := details(t, rec)
			assert.Equal(t, id, d.ToolUseID, "flowd judged the call the model made")
			require.Equal(t, tc.action, d.Injection.Action, "flowd's verdict on the output: %s", rec.Details)
			assert.Equal(t, tc.external, d.Injection.Tainted, "only output from outside taints the session")

			tr, ok := o.toolResults(t)[id]
			require.True(t, ok, "the model got no result for Bash")
			t.Logf("the model's tool_result for Bash: %q", tr.Text)
			assert.False(t, tr.IsError)
			tc.check(t, tr.Text, d.Injection.Quarantine)

			debug, err := os.ReadFile(filepath.Join(o.dir, "debug.log"))
			require.NoError(t, err)
			assert.True(t, strings.Contains(string(debug), "replaced tool output"), "Claude Code's debug.log notes the replacement")
			assert.False(t, strings.Contains(string(debug), "does not match"),
				"Claude Code's debug.log rejects the replacement as not matching Bash's output shape")
		})
	}
}
