package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/daemon"
)

func TestClassifyExplainsForPeople(t *testing.T) {
	cfg := config.Default()
	c, err := daemon.Classifier(cfg)
	require.NoError(t, err)
	tools, err := classify.ParseTools([]byte(`[{"name":"lookup","inputSchema":{"type":"object","properties":{"host":{"type":"string"}}}}]`))
	require.NoError(t, err)
	r := c.ToolOf(classify.Names{Given: "filesystem"}, tools[0])
	var b bytes.Buffer
	writeClassification(&b, classification{Server: "filesystem", Tool: "lookup", Result: r, Policy: consequence(r, cfg.Policy)})
	out := b.String()
	assert.Contains(t, out, "filesystem/lookup: hybrid")
	assert.Contains(t, out, "can send data out: yes")
	assert.Contains(t, out, "secrets sent to it: deny")
	assert.Contains(t, out, "    - server \"filesystem\"", "each piece of evidence on its own line")
	assert.Contains(t, out, `parameter "host" takes a host name`)

	unknown := c.ToolOf(classify.Names{Given: "acme-tools"}, classify.ToolInfo{Name: "run"})
	assert.Contains(t, consequence(unknown, cfg.Policy), "internal_to_unknown")
	local := c.ToolOf(classify.Names{Given: "filesystem"}, classify.ToolInfo{Name: "read_file"})
	assert.Contains(t, consequence(local, cfg.Policy), "not checked for data leaving")
}
