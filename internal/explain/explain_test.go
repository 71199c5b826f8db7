package explain

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/injection"
)

// explain shows the evidence a decision stood on: where each piece of
// data came from and how it was recognised, and what the destination is.
func TestExplainShowsFlowEvidence(t *testing.T) {
	from := flow.Origin{Server: "filesystem", Tool: "read_file", Method: "tools/call", Class: classify.Internal, Time: time.Now()}
	details, err := json.Marshal(map[string]any{
		"rule":           "sensitive_data_external",
		"classification": classify.Result{Class: classify.External, Method: "name", Reason: `server "slack" is a messaging service`},
		"flow": flow.Analysis{FlowType: "internal→external", Risk: flow.RiskCritical, Secrets: []string{"github_token"},
			Edges: []flow.Edge{
				{From: from, Kind: "secret", Secret: "github_token", Encoding: "base64", FlowType: "internal→external", Risk: flow.RiskCritical},
				{From: from, Kind: "substring", Hash: "ab12cd34", Length: 40, FlowType: "internal→external", Risk: flow.RiskHigh},
			}},
	})
	require.NoError(t, err)
	var out bytes.Buffer
	Write(&out, activity.Record{ID: 7, Type: activity.TypeToolCall, Server: "slack", Tool: "post_message",
		Verdict: "block", Decision: "deny", RiskLevel: flow.RiskCritical, Reason: "Sensitive data (github_token) flowing", Details: details})
	s := out.String()
	assert.Contains(t, s, "call      deny by rule sensitive_data_external")
	assert.Contains(t, s, `destination external (name: server "slack" is a messaging service)`)
	assert.Contains(t, s, "flow internal→external, risk critical")
	assert.Contains(t, s, "secret data from filesystem/read_file (internal, result of tools/call at ")
	assert.Contains(t, s, ": secret github_token written base64 → internal→external, risk critical")
	assert.Contains(t, s, ": 40 bytes matching fingerprint ab12cd34")
}

// A result quarantined after an allowed call says both, rather than
// "verdict block, decision allow".
func TestExplainTellsCallFromResult(t *testing.T) {
	details, err := json.Marshal(map[string]any{"rule": "default_action",
		"injection": flowdclient.Injection{Action: injection.ActionBlock, Quarantine: "q3"}})
	require.NoError(t, err)
	var out bytes.Buffer
	Write(&out, activity.Record{ID: 8, Type: activity.TypeToolCall, Server: "fetch", Tool: "fetch",
		Verdict: "block", Decision: "allow", Details: details})
	assert.Contains(t, out.String(), "call      allow by rule default_action; its result then blocked (quarantined) by the prompt-injection scan")
}
