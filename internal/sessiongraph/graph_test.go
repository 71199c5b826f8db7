package sessiongraph

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/flow"
)

func TestBuild(t *testing.T) {
	fs := flow.Origin{Server: "filesystem", Tool: "read_file", Class: classify.Internal}
	details := func(to classify.Class, edges ...flow.Edge) json.RawMessage {
		b, err := json.Marshal(map[string]any{"classification": classify.Result{Class: to}, "flow": flow.Analysis{Edges: edges}})
		require.NoError(t, err)
		return b
	}
	recs := []activity.Record{
		{ID: 1, Server: "filesystem", Tool: "read_file", Decision: "allow", Details: details(classify.Internal)},
		{ID: 2, Server: "slack", Tool: "post", Decision: "warn", Details: details(classify.External,
			flow.Edge{From: fs, Kind: "substring", FlowType: "internal→external", Risk: flow.RiskHigh})},
		{ID: 3, Server: "slack", Tool: "post", Decision: "deny", Details: details(classify.External,
			flow.Edge{From: fs, Kind: "secret", Secret: "github_token", FlowType: "internal→external", Risk: flow.RiskCritical},
			flow.Edge{From: fs, Kind: "exact", FlowType: "internal→external", Risk: flow.RiskHigh})},
		{ID: 4, Type: activity.TypeFlowSummary}, // no server: not a node
	}
	g := Build("s1", recs)
	assert.Equal(t, []Node{{ID: "filesystem/read_file", Class: classify.Internal, Calls: 1}, {ID: "slack/post", Class: classify.External, Calls: 2}}, g.Nodes)
	require.Len(t, g.Edges, 1)
	e := g.Edges[0]
	assert.Equal(t, "filesystem/read_file", e.From)
	assert.Equal(t, "slack/post", e.To)
	assert.Equal(t, 2, e.Calls, "one edge per call, whatever number of matches it had")
	assert.Equal(t, "deny", e.Decision, "the strictest")
	assert.Equal(t, flow.RiskCritical, e.Risk)
	assert.Equal(t, []string{"substring", "secret", "exact"}, e.Kinds)
	assert.Equal(t, []string{"github_token"}, e.Secrets)
	assert.Equal(t, []uint64{2, 3}, e.Records)
}
