package main

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowd-dev/flowd/internal/activity"
)

func TestActivityReasonNotesAnIncompleteScan(t *testing.T) {
	tests := []struct {
		name, reason, details, want string
	}{
		{"no scan", "policy says so", `{"classification":{}}`, "policy says so"},
		{"scanned whole", "", `{"injection":{"server":"fetch","score":0.4,"action":"flag"}}`, ""},
		{"cut by the budget", "", `{"injection":{"server":"fetch","score":0,"action":"pass","truncated":true,` +
			`"scan":{"truncated":"budget","scanned":4,"total":206}}}`,
			"scan cut short by its time budget: 4 of 206 bytes scanned"},
		{"cut by the byte limits, with a reason", "prompt injection: flag (score 0.00)", `{"injection":{"server":"fetch","score":0,"action":"flag",` +
			`"truncated":true,"scan":{"truncated":"bytes","scanned":1048576,"total":3000000}}}`,
			"scan cut short by its size limits: 1048576 of 3000000 bytes scanned; prompt injection: flag (score 0.00)"},
		{"a string that says scan", "r", `{"flow":{"note":"\"scan\": later"}}`, "r"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, reason(activity.Record{Reason: tc.reason, Details: []byte(tc.details)}))
		})
	}
}
