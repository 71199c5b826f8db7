package events

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
	h := NewHub(2)
	slow, err := h.Subscribe(1)
	require.NoError(t, err)
	fast, err := h.Subscribe(8)
	require.NoError(t, err)
	for i := range 3 {
		h.Publish(activity.Record{ID: uint64(i + 1)})
	}
	var got []uint64
	for e := range slow.Records {
		got = append(got, e.Record.ID)
	}
	assert.Equal(t, []uint64{1}, got, "what fit in its buffer, then the end")
	assert.True(t, slow.Lagged())
	assert.Equal(t, 1, h.Len())
	h.Unsubscribe(slow) // after lagging: no double close
	h.Unsubscribe(fast)
	got = nil
	for e := range fast.Records {
		got = append(got, e.Record.ID)
	}
	assert.Equal(t, []uint64{1, 2, 3}, got)
	assert.False(t, fast.Lagged())
	assert.Equal(t, 0, h.Len())
}

// Past its bound the hub refuses a subscriber, and takes one again once
// a reader leaves, however it left.
func TestHubBoundsSubscribers(t *testing.T) {
	h := NewHub(2)
	a, err := h.Subscribe(1)
	require.NoError(t, err)
	b, err := h.Subscribe(1)
	require.NoError(t, err)
	_, err = h.Subscribe(1)
	require.ErrorIs(t, err, ErrFull)
	assert.Contains(t, err.Error(), "(2)")

	h.Unsubscribe(a)
	c, err := h.Subscribe(1)
	require.NoError(t, err, "a reader that left makes room")
	h.Publish(activity.Record{ID: 1})
	h.Publish(activity.Record{ID: 2}) // b and c lag: their buffers hold one
	assert.True(t, b.Lagged())
	assert.True(t, c.Lagged())
	assert.Equal(t, 0, h.Len(), "lagged readers are gone")
	_, err = h.Subscribe(1)
	require.NoError(t, err, "and make room")
}

// Every reader gets the one event, encoded once.
func TestEventEncodedOnce(t *testing.T) {
	h := NewHub(2)
	a, err := h.Subscribe(1)
	require.NoError(t, err)
	b, err := h.Subscribe(1)
	require.NoError(t, err)
	h.Publish(activity.Record{ID: 7, Server: "slack"})
	ea, eb := <-a.Records, <-b.Records
	require.Same(t, ea, eb)
	da, err := ea.JSON()
	require.NoError(t, err)
	db, _ := eb.JSON()
	assert.Same(t, &da[0], &db[0], "one encoding")
	var r activity.Record
	require.NoError(t, json.Unmarshal(da, &r))
	assert.Equal(t, "slack", r.Server)
}
