package events

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowd-dev/flowd/internal/activity"
)

func TestKinds(t *testing.T) {
	tests := []struct {
		name string
		r    activity.Record
		want []string
	}{
		{"allowed call", activity.Record{Type: activity.TypeToolCall, Decision: "allow", Verdict: "pass", RiskLevel: "low"}, []string{Activity}},
		{"denied call", activity.Record{Type: activity.TypeToolCall, Decision: "deny", Verdict: "block"}, []string{Activity, Alert}},
		{"asked", activity.Record{Type: activity.TypeHookEvaluation, Decision: "ask"}, []string{Activity, Alert}},
		{"high risk allowed", activity.Record{Type: activity.TypeToolCall, Decision: "allow", RiskLevel: "high"}, []string{Activity, Alert}},
		{"quarantined result", activity.Record{Type: activity.TypeToolCall, Decision: "allow", Verdict: "block",
			Details: json.RawMessage(`{"injection":{"action":"block","quarantine_id":"q1"}}`)}, []string{Activity, Alert, Quarantine}},
		{"a quote of the key inside text is no quarantine", activity.Record{Type: activity.TypeToolCall,
			Details: json.RawMessage(`{"injection":{"detections":[{"excerpt":"\"quarantine_id\":\"q1"}]}}`)}, []string{Activity}},
		{"tools withheld until approved", activity.Record{Type: activity.TypeToolsList,
			Details: json.RawMessage(`{"pending":[{"tool":"t"}]}`)}, []string{Activity, Pins}},
		{"tools listed", activity.Record{Type: activity.TypeToolsList, Details: json.RawMessage(`{}`)}, []string{Activity}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Kinds(tt.r), tt.name)
	}
}

// A reader that does not keep up is ended, lagged; the others and the
// publisher go on without waiting.
func TestHubDropsASlowReader(t *testing.T) {
	var h Hub
	slow, fast := h.Subscribe(1), h.Subscribe(8)
	for i := range 3 {
		h.Publish(activity.Record{ID: uint64(i + 1)})
	}
	var got []uint64
	for r := range slow.Records {
		got = append(got, r.ID)
	}
	assert.Equal(t, []uint64{1}, got, "what fit in its buffer, then the end")
	assert.True(t, slow.Lagged())
	assert.Equal(t, 1, h.Len())
	h.Unsubscribe(slow) // after lagging: no double close
	h.Unsubscribe(fast)
	got = nil
	for r := range fast.Records {
		got = append(got, r.ID)
	}
	assert.Equal(t, []uint64{1, 2, 3}, got)
	assert.False(t, fast.Lagged())
	assert.Equal(t, 0, h.Len())
}
