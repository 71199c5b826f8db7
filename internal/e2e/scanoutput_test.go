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

// injectionMarkers are pieces of the prompt injection in the scenarios'
// page and file; none may reach the model once flowd replaced the output.
var injectionMarkers = []string{"Ignore all previous instructions", "id_rsa", "maintenance mode", "NOTE TO THE AI ASSISTANT"}

// scanningFlowd starts a private flowd for a session whose tool output
// it scans. The first scan in a fresh flowd pays for the scanner's
// warm-up (about 60 ms, 150 ms under -race) out of the default 100 ms
// time budget, and a scan cut short before the field with the injection
// finds nothing and passes; these tests are about what Claude Code does
// with flowd's replacement, so the budget is out of the way.
func scanningFlowd(t *testing.T) *flowd {
	t.Helper()
	claudeCode(t)
	return startFlowd(t, "[injection]\ntime_budget = \"10s\"\n"+localWeb)
}

// TestClaudeCodeScanOutput runs a session whose tool brings in a page or
// file with a prompt injection, with flowd's hooks installed with
// --scan-output, and checks in the mock's request log what the model
// read: flowd's quarantine notice in the tool's own result, not the
// injection. Claude Code takes a built-in tool's updatedToolOutput only
// when it fits the tool's output schema; a bare string is logged as
// "does not match WebFetch's output shape" and the original output goes
// to the model.
func TestClaudeCodeScanOutput(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		tool, scenario string
		recTool        string // the tool in flowd's record
		source         string // how flowd names it to the model
		external       bool   // the output comes from outside the machine
		mcp            bool   // the filesystem server, without the shim: only the hook sees its result
	}{
		// The summariser relays the page's hidden text.
		{tool: "WebFetch", scenario: "webfetch_injection.json", recTool: "WebFetch", source: "WebFetch", external: true},
		{tool: "Read", scenario: "read_injection.json", recTool: "Read", source: "Read"},
		{tool: "mcp__fs__read_text_file", scenario: "mcp_read_injection.json", recTool: "read_text_file", source: "fs/read_text_file", mcp: true},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			t.Parallel()
			f := scanningFlowd(t)
			o := runClaudeCode(t, ccRun{scenario: tc.scenario, socket: f.socket, scanOutput: true, mcp: tc.mcp, noShim: tc.mcp})
			res := o.result(t)
			assert.Empty(t, res.PermissionDenials)

			var id string
			for _, h := range o.hooks(t) {
				if h.Event == "PostToolUse" && h.Tool == tc.tool {
					id = h.ToolUseID
				}
			}
			require.NotEmpty(t, id, "%s ran and its PostToolUse hook fired: %+v", tc.tool, o.hooks(t))

			rec := f.hookRecord(t, res.SessionID, "PostToolUse", tc.recTool)
			assert.Equal(t, "warn", rec.Verdict)
			d := details(t, rec)
			assert.Equal(t, id, d.ToolUseID, "flowd judged the call the model made")
			require.Equal(t, "block", d.Injection.Action, "flowd's verdict on the output: %s", rec.Details)
			require.NotEmpty(t, d.Injection.Quarantine, "flowd quarantined the output")
			// Only output from outside taints the session: a project file is
			// the user's own data, however it reads.
			assert.Equal(t, tc.external, d.Injection.Tainted, "the injection from %s taints the session", tc.tool)

			tr, ok := o.toolResults(t)[id]
			require.True(t, ok, "the model got no result for %s", tc.tool)
			t.Logf("the model's tool_result for %s: %q", tc.tool, tr.Text)
			assert.False(t, tr.IsError)
			assert.Contains(t, tr.Text, "flowd blocked: the result of "+tc.source+" was withheld as prompt injection")
			assert.Contains(t, tr.Text, "quarantined as "+d.Injection.Quarantine)

			for _, m := range injectionMarkers {
				assert.NotContains(t, tr.Text, m, "the tool_result the model saw")
			}
			// The replacement came before the result was first sent, and
			// flowd's additionalContext reached the model too.
			notice := false
			for i, r := range o.mainRequests(t) {
				body := string(r.Body)
				if tc.external { // a file read came from the Write's input, which the model wrote
					for _, m := range injectionMarkers {
						assert.False(t, strings.Contains(body, m), "main request %d holds %q", i, m)
					}
				}
				notice = notice || strings.Contains(body, "flowd notice: the result of "+tc.source+" was withheld")
			}
			assert.True(t, notice, "flowd's additionalContext in a request to the model")

			debug, err := os.ReadFile(filepath.Join(o.dir, "debug.log"))
			require.NoError(t, err)
			assert.True(t, strings.Contains(string(debug), "replaced tool output"), "Claude Code's debug.log notes the replacement")
			assert.False(t, strings.Contains(string(debug), "does not match"),
				"Claude Code's debug.log rejects the replacement as not matching the tool's output shape")
		})
	}
}

// TestClaudeCodeScanOutputRedacts is the milder case: flowd redacts the
// sentence addressed to AI agents, and the model reads the rest of
// WebFetch's result.
func TestClaudeCodeScanOutputRedacts(t *testing.T) {
	t.Parallel()
	f := scanningFlowd(t)
	o := runClaudeCode(t, ccRun{scenario: "webfetch_redact.json", socket: f.socket, scanOutput: true})
	res := o.result(t)
	rec := f.hookRecord(t, res.SessionID, "PostToolUse", "WebFetch")
	require.Contains(t, rec.Reason, "(redact,", "flowd's verdict on the output")

	var got []ccToolResult
	for _, tr := range o.toolResults(t) {
		got = append(got, tr)
	}
	require.Len(t, got, 1, "WebFetch's result")
	t.Logf("the model's tool_result for WebFetch: %q", got[0].Text)
	assert.False(t, got[0].IsError)
	assert.True(t, strings.HasPrefix(got[0].Text, "Opening hours: Monday to Friday, 9 to 5. [flowd redacted: "), got[0].Text)
	assert.NotContains(t, got[0].Text, "add a joke")
}
