package daemon

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/injection"
	"github.com/flowd-dev/flowd/internal/judge/judgetest"
)

// bash is a Bash PostToolUse payload in the shape Claude Code 2.1.197
// sends (claudecode/testdata/bash_exfil.01.PostToolUse.Bash.json).
func bash(command, stdout string) map[string]any {
	return map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": command, "description": "Fetch the page"},
		"tool_response": map[string]any{"stdout": stdout, "stderr": "", "interrupted": false, "isImage": false, "noOutputExpected": false}}
}

type bashOut struct {
	Stdout      string `json:"stdout"`
	Stderr      string `json:"stderr"`
	Interrupted *bool  `json:"interrupted"`
}

func lastHook(t *testing.T, d *Daemon) (activity.Record, flowdclient.Injection) {
	t.Helper()
	rec, in := judgetest.LastRecord(t, d.judge, "hook_evaluation")
	require.NotNil(t, in, "%s", rec.Details)
	return rec, *in
}

// Bash brings in content from outside (curl): its output is scanned, and
// replaced in Bash's own shape.
func TestHookScansBashOutput(t *testing.T) {
	d := testDaemon(t, nil)
	curl := "curl -s https://example.org/notes"
	v := postHookReplacing(t, d, "cc", "PostToolUse", true, bash(curl, "<p>Opening hours: 9 to 5.</p>"))
	assert.Nil(t, v.UpdatedOutput, "clean output stays")

	v = postHookReplacing(t, d, "cc", "PostToolUse", true, bash(curl, "Hours: 9 to 5. "+judgetest.RedactText))
	require.NotNil(t, v.UpdatedOutput)
	var out bashOut
	require.NoError(t, json.Unmarshal(v.UpdatedOutput, &out))
	assert.True(t, strings.HasPrefix(out.Stdout, "Hours: 9 to 5. [flowd redacted: "), out.Stdout)
	require.NotNil(t, out.Interrupted, "Bash's required fields are kept")

	v = postHookReplacing(t, d, "cc", "PostToolUse", true, bash(curl, judgetest.BlockText))
	require.NotNil(t, v.UpdatedOutput)
	out = bashOut{}
	require.NoError(t, json.Unmarshal(v.UpdatedOutput, &out))
	assert.Contains(t, out.Stdout, "flowd blocked: the result of Bash was withheld as prompt injection")
	assert.NotContains(t, out.Stdout, "id_rsa")
	require.NotNil(t, out.Interrupted)
	_, rep := lastHook(t, d)
	assert.Equal(t, injection.ActionBlock, rep.Action)
	assert.True(t, rep.Tainted, "curl brings in content from outside")
}

// In hook mode too, a scan cut short is recorded, and flagged when
// injection.on_incomplete says so, as it does by default for WebFetch.
func TestHookIncompleteScan(t *testing.T) {
	d := testDaemon(t, nil)
	cfg := config.Default()
	require.Equal(t, config.IncompleteUntrusted, cfg.Injection.OnIncomplete)
	cfg.Injection.TimeBudget = config.Duration{Duration: time.Nanosecond}
	cfg.Injection.OnIncomplete = config.IncompletePass
	require.NoError(t, d.Reload(cfg))
	page := webFetch("Opening hours: 9 to 5.")
	v := postHookReplacing(t, d, "cc", "PostToolUse", true, page)
	assert.Empty(t, v.AdditionalContext, "on_incomplete = pass")
	rec, rep := lastHook(t, d)
	assert.Equal(t, injection.ActionPass, rep.Action)
	require.NotNil(t, rep.Scan)
	assert.Equal(t, injection.BoundBudget, rep.Scan.Truncated)
	assert.Less(t, rep.Scan.Scanned, rep.Scan.Total)
	assert.Empty(t, rec.Reason)

	cfg.Injection.OnIncomplete = config.IncompleteUntrusted
	require.NoError(t, d.Reload(cfg))
	v = postHookReplacing(t, d, "cc", "PostToolUse", true, page)
	assert.Contains(t, v.AdditionalContext, "flowd notice: the output of WebFetch was not scanned whole for prompt injection (")
	assert.Contains(t, v.AdditionalContext, "bytes scanned: the scan's time budget ran out), so it may hold instructions")
	assert.Nil(t, v.UpdatedOutput, "a flag adds a notice and leaves the output")
	rec, rep = lastHook(t, d)
	assert.Equal(t, injection.ActionFlag, rep.Action)
	assert.Equal(t, "prompt injection: flag (score 0.00)", rec.Reason)
}
