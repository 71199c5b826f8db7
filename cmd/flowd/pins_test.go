package main

import (
	"bytes"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/pins"
)

// TestPrintPinsShowsWithheld: flowd pins list says which tools are
// withheld as poisoned, and why.
func TestPrintPinsShowsWithheld(t *testing.T) {
	servers := []pins.Server{{Name: "math", Command: []string{"npx", "server-math"}, Since: time.Now(),
		Pinned:   map[string]pins.Tool{"add": {Name: "add"}, "sub": {Name: "sub"}},
		Withheld: map[string]string{"add": "its definition scored 0.95 as prompt injection (tool-priority)"}}}
	var out bytes.Buffer
	require.NoError(t, printPins(&out, servers))
	assert.Contains(t, out.String(), "withheld as poisoned")
	assert.Contains(t, out.String(), "math add: its definition scored 0.95 as prompt injection (tool-priority)")
	assert.NotContains(t, out.String(), "math sub:")
}
