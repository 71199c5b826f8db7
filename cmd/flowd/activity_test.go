package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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

// With flowd not running, an export reads the store file, whole.
func TestActivityExportOffline(t *testing.T) {
	path := filepath.Join(t.TempDir(), "activity.db")
	s, err := activity.Open(path, activity.Options{})
	require.NoError(t, err)
	for range 3 {
		s.Append(activity.Record{Type: activity.TypeToolCall, Server: "fs", Details: []byte(`{"flow":{}}`)})
	}
	require.NoError(t, s.Close())
	fl := newFlags("flowd activity")
	var out bytes.Buffer
	require.NoError(t, exportActivity(&out, "/nonexistent/flowd.sock", path, activity.Filter{}, "csv", true, fl))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 4)
	assert.True(t, strings.HasPrefix(lines[0], "id,time,type,"))
	assert.True(t, strings.HasPrefix(lines[1], "1,"))
	assert.Contains(t, lines[0], ",chain_seq,prev_hash,hash,details")
	assert.Regexp(t, `,2,[0-9a-f]{64},[0-9a-f]{64},`, lines[2], "each row carries its chain position, previous hash and hash")
	assert.True(t, strings.HasSuffix(lines[3], `"{""flow"":{}}"`))
	assert.Equal(t, exitError(2), exportActivity(&out, "/nonexistent/flowd.sock", path, activity.Filter{}, "xml", false, fl))
}

func TestShortCutsAtACharacter(t *testing.T) {
	got := short("ééééé", 3)
	if got != "éé…" || !utf8.ValidString(got) {
		t.Fatalf("short = %q, want %q", got, "éé…")
	}
	if got := short("abc", 3); got != "abc" {
		t.Fatalf("short of a fitting string = %q", got)
	}
}
