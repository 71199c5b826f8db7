package sessiongraph

import (
	"encoding/json"
	"fmt"
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
			flow.Edge{From: fs, Kind: "substring", Hash: "9f2c41d07a5be3aa", Length: 240, FlowType: "internal→external", Risk: flow.RiskHigh})},
		{ID: 3, Server: "slack", Tool: "post", Decision: "deny", Details: details(classify.External,
			flow.Edge{From: fs, Kind: "secret", Secret: "github_token", Encoding: "base64", FlowType: "internal→external", Risk: flow.RiskCritical},
			flow.Edge{From: fs, Kind: "exact", Hash: "5d41402abc4b2a76b9719d911017c592", Length: 64, FlowType: "internal→external", Risk: flow.RiskHigh},
			flow.Edge{From: fs, Kind: "substring", Hash: "9f2c41d07a5be3aa", Length: 240, FlowType: "internal→external", Risk: flow.RiskHigh})},
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
	assert.Equal(t, []Match{
		{Kind: "substring", Hash: "9f2c41d07a5be3aa", Length: 240, Record: 2},
		{Kind: "secret", Secret: "github_token", Encoding: "base64", Record: 3},
		{Kind: "exact", Hash: "5d41402abc4b2a76b9719d911017c592", Length: 64, Record: 3},
	}, e.Matches, "each piece of data once, by its fingerprint or its secret's type")
}

// An edge lists a bounded number of matches and counts the rest.
func TestMatchesBounded(t *testing.T) {
	fs := flow.Origin{Server: "filesystem", Tool: "read_file", Class: classify.Internal}
	var edges []flow.Edge
	for i := range maxMatches + 7 {
		edges = append(edges, flow.Edge{From: fs, Kind: "exact", Hash: fmt.Sprintf("%032x", i), Length: 40})
	}
	b, err := json.Marshal(map[string]any{"flow": flow.Analysis{Edges: edges}})
	require.NoError(t, err)
	g := Build("s1", []activity.Record{{ID: 1, Server: "slack", Tool: "post", Details: b}})
	require.Len(t, g.Edges, 1)
	assert.Len(t, g.Edges[0].Matches, maxMatches)
	assert.Equal(t, 7, g.Edges[0].MoreMatches)
}
