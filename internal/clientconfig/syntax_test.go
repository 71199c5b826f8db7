package clientconfig

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTOMLShapes(t *testing.T) {
	tests := []struct {
		name, doc, want string // want: the wrapped file, or the skip note
	}{
		{"inline table", "mcp_servers = { a = { command = \"x\" } }\n", "note: written inline"},
		{"dotted keys", "[mcp_servers]\na.command = \"x\"\na.args = []\n", "note: written inline"},
		{"comment in args", "[mcp_servers.a]\ncommand = \"x\"\nargs = [\n  \"y\", # why\n]\n", "note: args holds a comment"},
		{"number in args", "[mcp_servers.a]\ncommand = \"x\"\nargs = [1]\n", "note: args holds something other than strings"},
		{"no command", "[mcp_servers.a]\nargs = [\"y\"]\n", "note: no command"},
		{"args first, CRLF", "[mcp_servers.a]\r\nargs = [\"y\"]\r\ncommand = \"x\"\r\n",
			"[mcp_servers.a]\r\nargs = [\"--name\", \"a\", \"--\", \"x\", \"y\"]\r\ncommand = \"/usr/local/bin/shim\"\r\n"},
		{"no args, no final newline", "[mcp_servers.a]\ncommand = \"x\"",
			"[mcp_servers.a]\ncommand = \"/usr/local/bin/shim\"\nargs = [\"--name\", \"a\", \"--\", \"x\"]"},
		{"indented table", "[mcp_servers.a]\n  command = 'x'\n  args = []\n",
			"[mcp_servers.a]\n  command = \"/usr/local/bin/shim\"\n  args = [\"--name\", \"a\", \"--\", 'x']\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkShape(t, codexTOML, tt.doc, tt.want) })
	}
}

func TestYAMLShapes(t *testing.T) {
	tests := []struct{ name, doc, want string }{
		{"flow mapping", "mcpServers:\n  - {name: a, command: x}\n", "note: written in YAML's flow style"},
		{"comment in block args", "mcpServers:\n  - name: a\n    command: x\n    args:\n      - y\n      # z\n      - w\n", "note: args holds comments"},
		{"block scalar command", "mcpServers:\n  - name: a\n    command: |\n      x\n", "note: command is not a one-line string"},
		{"alias", "x: &c npx\nmcpServers:\n  - name: a\n    command: *c\n", "note: command is not a one-line string"},
		{"merge key", "base: &b {command: npx}\nmcpServers:\n  - name: a\n    <<: *b\n", "note: uses a YAML merge key"},
		{"multi-line flow args", "mcpServers:\n  - name: a\n    command: x\n    args: [\n      y,\n      z\n    ]\n",
			"mcpServers:\n  - name: a\n    command: \"/usr/local/bin/shim\"\n    args: [\n      \"--name\",\n      \"a\",\n      \"--\",\n      x,\n      y,\n      z\n    ]\n"},
		{"dash at key indent", "mcpServers:\n- name: a\n  command: 'x'\n  args:\n  - y\n",
			"mcpServers:\n- name: a\n  command: \"/usr/local/bin/shim\"\n  args:\n  - \"--name\"\n  - \"a\"\n  - \"--\"\n  - 'x'\n  - y\n"},
		{"command first in item", "mcpServers:\n  - command: x\n    name: a\n",
			"mcpServers:\n  - command: \"/usr/local/bin/shim\"\n    args:\n      - \"--name\"\n      - \"a\"\n      - \"--\"\n      - x\n    name: a\n"},
		{"non-ASCII before a flow element", "mcpServers:\n  - name: é\n    command: x\n    args: [\"é\", \"ü\"]\n",
			"mcpServers:\n  - name: é\n    command: \"/usr/local/bin/shim\"\n    args: [\"--name\", \"é\", \"--\", x, \"é\", \"ü\"]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkShape(t, continueYML, tt.doc, tt.want) })
	}
}

func checkShape(t *testing.T, f Format, doc, want string) {
	t.Helper()
	r, err := f.Wrap([]byte(doc), testShim)
	require.NoError(t, err)
	require.Len(t, r.Servers, 1)
	if note, ok := cutPrefix(want, "note: "); ok {
		assert.Equal(t, Skipped, r.Servers[0].Action)
		assert.Contains(t, r.Servers[0].Note, note)
		assert.Equal(t, doc, string(r.Out))
		return
	}
	require.Equal(t, Wrapped, r.Servers[0].Action, r.Servers[0].Note)
	assert.Equal(t, want, string(r.Out))
	u, err := f.Unwrap(r.Out)
	require.NoError(t, err)
	assert.Equal(t, r.Servers[0].Old, u.Servers[0].New)
}

func cutPrefix(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && s[:len(prefix)] == prefix {
		return s[len(prefix):], true
	}
	return s, false
}

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		f        Format
		doc, err string
	}{
		{codexTOML, "model = \"x\"\n[mcp_servers.a\ncommand = \"x\"\n", "line 2"},
		{continueYML, "mcpServers:\n  - name: a\n  command: [x\n", "yaml: line"},
		{continueYML, "a: 1\n---\nb: 2\n", "more than one YAML document"},
		{continueYML, "mcpServers: {a: {command: x}}\n", "mcpServers is not a list"},
		{vscodeJSON, "{\"servers\": {} /* never closed\n}", "line 1"},
		{mcpServers, "{\n  // Windsurf reads plain JSON\n  \"mcpServers\": {}\n}", "comments are not allowed"},
	}
	for _, tt := range tests {
		_, err := tt.f.Wrap([]byte(tt.doc), testShim)
		assert.ErrorContains(t, err, tt.err, "%q", tt.doc)
	}
}

// A plain YAML scalar with a comma is one string as the command, and two
// in a flow list: such a server is left alone, with the reason.
func TestYAMLKeepsPlainCommandOutOfFlowList(t *testing.T) {
	checkShape(t, continueYML, "mcpServers:\n  - name: a\n    command: run,fast\n    args: [y]\n", "note: quote the command")
}

// Whatever an edit does, what does not read back as intended is not
// returned: here an edit that turns the command into a list.
func TestEditSitesReadsBack(t *testing.T) {
	doc := []byte("mcpServers:\n  - name: a\n    command: x\n")
	bad := func(doc []byte, s site) (Server, []edit) {
		return Server{Name: s.name, Action: Wrapped, New: []string{"x"}}, []edit{{s.command.start, s.command.end, []byte("[x]")}}
	}
	_, err := editSites(doc, yamlOps, bad)
	assert.ErrorContains(t, err, "nothing is written")
	tomlDoc := []byte("[mcp_servers.a]\ncommand = \"x\"\n")
	worse := func(doc []byte, s site) (Server, []edit) {
		return Server{Name: s.name, Action: Wrapped, New: []string{"x"}}, []edit{{len(doc), len(doc), []byte("extra = 1\n")}}
	}
	_, err = editSites(tomlDoc, tomlOps, worse)
	assert.ErrorContains(t, err, "something besides the servers' command and args changed")
}
