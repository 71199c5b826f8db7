package activity

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The prefilter never leaves out a record the filter matches, however the
// record's text mimics the encoding, and it does leave out most others.
func TestPrefilterKeepsEveryMatch(t *testing.T) {
	recs := []Record{
		{Type: TypeToolCall, Server: "slack", Tool: "post", RiskLevel: "critical", FlowType: "internal→external"},
		{Type: TypeToolCall, Server: "fs", Tool: `x","server":"slack`, RiskLevel: "none"},
		{Type: TypeToolCall, Server: "fs", Reason: `"risk_level":"critical"`, RiskLevel: "low"},
		{Type: TypeToolCall, Server: "fs", Details: json.RawMessage(`{"risk_level":"critical","server":"slack","type":"message"}`)},
		{Type: TypeToolCall, Server: "<a&b>", Session: "s\u2028\"1", RiskLevel: "High"},
		{Type: TypeMessage, Server: "slack", Details: json.RawMessage(`{"risk_level":"none"}`), RiskLevel: "high"},
		{Type: TypeHookEvaluation, Session: "cc", Tool: "WebFetch", RiskLevel: "medium", FlowType: "external→external"},
		// stored as "\ufffd\ufffd", which decodes as the filter's value
		{Type: TypeToolCall, Server: "\xff\xfe", Tool: "\ufffd"},
	}
	filters := []Filter{
		{Server: "slack"}, {Server: "fs"}, {Server: "<a&b>"}, {Session: "s\u2028\"1"}, {Session: "cc"},
		{Tool: "post"}, {Tool: `x","server":"slack`}, {Type: TypeMessage}, {Type: TypeToolCall, Server: "slack"},
		{RiskLevel: "high"}, {RiskLevel: "critical"}, {RiskLevel: "none"}, {RiskLevel: "medium"},
		{FlowType: "internal→external"}, {FlowType: "external→external", RiskLevel: "low"},
		{Server: "\ufffd\ufffd"}, {Tool: "\ufffd"},
	}
	skipped := 0
	for _, r := range recs {
		raw, err := json.Marshal(r)
		require.NoError(t, err)
		var stored Record
		require.NoError(t, json.Unmarshal(raw, &stored))
		for _, f := range filters {
			may := f.prefilter().mayMatch(raw)
			if f.Matches(stored) {
				assert.True(t, may, "filter %+v left out %s", f, raw)
			}
			if !may {
				skipped++
			}
		}
	}
	assert.Greater(t, skipped, len(recs)*len(filters)/2, "the prefilter leaves out most non-matches")
}
