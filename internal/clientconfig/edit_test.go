package clientconfig

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/wrapped/ from the current output")

const testShim = "/usr/local/bin/shim"

// fixtures are config files as the clients write them; each one wraps to
// testdata/wrapped/<name> and unwraps back to itself byte for byte.
var fixtures = []string{
	"claude_desktop.json",
	"claude_code.json",
	"cursor.json",
	"empty_servers.json",
	"minified.json",
	"project_mcp.json",
	"windows.json",
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b
}

func TestWrapRoundTrip(t *testing.T) {
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			orig := read(t, filepath.Join("testdata", name))
			wrapped, err := Wrap(orig, testShim)
			require.NoError(t, err)
			require.True(t, json.Valid(wrapped.Out), "wrapped output is not JSON:\n%s", wrapped.Out)

			golden := filepath.Join("testdata", "wrapped", name)
			if *update {
				require.NoError(t, os.WriteFile(golden, wrapped.Out, 0o644))
			}
			assert.Equal(t, string(read(t, golden)), string(wrapped.Out))

			again, err := Wrap(wrapped.Out, testShim)
			require.NoError(t, err)
			assert.False(t, again.Changed(), "wrapping twice changed something: %+v", again.Servers)
			assert.Equal(t, string(wrapped.Out), string(again.Out))

			// A server the fixture already had wrapped is unwrapped too; the
			// rest comes back byte for byte.
			base, err := Unwrap(orig)
			require.NoError(t, err)
			assert.Equal(t, name == "claude_desktop.json" || name == "windows.json", base.Changed())
			if !base.Changed() {
				assert.Equal(t, string(orig), string(base.Out))
			}
			unwrapped, err := Unwrap(wrapped.Out)
			require.NoError(t, err)
			assert.Equal(t, string(base.Out), string(unwrapped.Out))
			rewrapped, err := Wrap(base.Out, testShim)
			require.NoError(t, err)
			if name != "windows.json" { // its hand-wrapped server used another shim path
				assert.Equal(t, string(wrapped.Out), string(rewrapped.Out))
			}
		})
	}
}

// The example in the docs is what Wrap writes.
func TestWrapMatchesExample(t *testing.T) {
	before := read(t, "../../examples/claude_desktop/before.json")
	after := read(t, "../../examples/claude_desktop/after.json")
	w, err := Wrap(before, testShim)
	require.NoError(t, err)
	assert.Equal(t, string(after), string(w.Out))
	u, err := Unwrap(after)
	require.NoError(t, err)
	assert.Equal(t, string(before), string(u.Out))
}

type outcome struct {
	project, name string
	action        Action
	note          string
}

func outcomes(r Result) []outcome {
	var out []outcome
	for _, s := range r.Servers {
		out = append(out, outcome{s.Project, s.Name, s.Action, s.Note})
	}
	return out
}

func TestWrapServers(t *testing.T) {
	tests := map[string][]outcome{
		"claude_desktop.json": {
			{"", "filesystem", Wrapped, ""},
			{"", "日本語メモ", Wrapped, ""},
			{"", "github", Wrapped, ""}, // disabled: wrapped all the same, for when it is enabled
			{"", "linear", Skipped, "remote server (has a url)"},
			{"", "memory", Skipped, "already wrapped"},
			{"", "sqlite", Wrapped, ""},
		},
		"claude_code.json": {
			{"", "playwright", Wrapped, ""},
			{"", "sentry", Skipped, "remote server (has a url)"},
			{"/home/ana/src/api", "postgres", Wrapped, ""},
			{"/home/ana/src/api", "docs", Skipped, "remote server (has a url)"},
		},
		"project_mcp.json": {
			{"", "api-tools", Wrapped, ""},
			{"", "remote", Skipped, "remote server (has a url)"},
		},
		"windows.json": {
			{"", "filesystem", Wrapped, ""},
			{"", "git", Wrapped, ""},
			{"", "wrapped", Skipped, "already wrapped"},
		},
		"empty_servers.json": nil,
	}
	for name, want := range tests {
		t.Run(name, func(t *testing.T) {
			r, err := Wrap(read(t, filepath.Join("testdata", name)), testShim)
			require.NoError(t, err)
			assert.Equal(t, want, outcomes(r))
			assert.Equal(t, want != nil, r.Changed())
		})
	}
}

// Everything of a wrapped server but command and args is as it was, and
// the new command line runs the old one through the shim.
func TestWrapKeepsFields(t *testing.T) {
	orig := read(t, "testdata/claude_desktop.json")
	w, err := Wrap(orig, testShim)
	require.NoError(t, err)

	var before, after struct {
		MCPServers map[string]map[string]any `json:"mcpServers"`
		Shortcut   string                    `json:"globalShortcut"`
	}
	require.NoError(t, json.Unmarshal(orig, &before))
	require.NoError(t, json.Unmarshal(w.Out, &after))
	assert.Equal(t, before.Shortcut, after.Shortcut)
	for name, old := range before.MCPServers {
		now := after.MCPServers[name]
		for k, v := range old {
			if k != "command" && k != "args" || name == "linear" || name == "memory" {
				assert.Equal(t, v, now[k], "%s.%s", name, k)
			}
		}
		if name == "linear" || name == "memory" {
			assert.Equal(t, old, now, name)
			continue
		}
		assert.Equal(t, testShim, now["command"])
		want := append([]any{"--name", name, "--", old["command"]}, old["args"].([]any)...)
		assert.Equal(t, want, now["args"], name)
	}
	assert.Equal(t, []any{"--name", "日本語メモ", "--", "/opt/homebrew/bin/uvx", "mcp-server-notes", "--dir", "~/メモ & <notes>"},
		after.MCPServers["日本語メモ"]["args"])
}

func TestWrapReportsCommandLines(t *testing.T) {
	r, err := Wrap(read(t, "testdata/windows.json"), `C:\flowd\shim.exe`)
	require.NoError(t, err)
	s := r.Servers[0]
	assert.Equal(t, []string{"npx.cmd", "-y", "@modelcontextprotocol/server-filesystem", `C:\Users\Ana\Documents`}, s.Old)
	assert.Equal(t, []string{`C:\flowd\shim.exe`, "--name", "filesystem", "--", "npx.cmd", "-y", "@modelcontextprotocol/server-filesystem", `C:\Users\Ana\Documents`}, s.New)
	assert.Contains(t, string(r.Out), `"command": "C:\\flowd\\shim.exe"`)

	u, err := Unwrap(r.Out)
	require.NoError(t, err)
	assert.Equal(t, s.New, u.Servers[0].Old)
	assert.Equal(t, s.Old, u.Servers[0].New)
	assert.Equal(t, Unwrapped, u.Servers[0].Action)
	assert.Equal(t, Unwrapped, u.Servers[2].Action, "a server wrapped by hand is unwrapped too")
}

// A server written without "args" gets one, laid out like its neighbours;
// Unwrap leaves it, empty, since it cannot know it was not there.
func TestWrapAddsArgs(t *testing.T) {
	tests := []struct{ name, in, wrapped, unwrapped string }{{
		name:      "own lines",
		in:        "{\n  \"mcpServers\": {\n    \"x\": {\n      \"command\": \"/opt/x\"\n    }\n  }\n}\n",
		wrapped:   "{\n  \"mcpServers\": {\n    \"x\": {\n      \"command\": \"/s/shim\",\n      \"args\": [\n        \"--name\",\n        \"x\",\n        \"--\",\n        \"/opt/x\"\n      ]\n    }\n  }\n}\n",
		unwrapped: "{\n  \"mcpServers\": {\n    \"x\": {\n      \"command\": \"/opt/x\",\n      \"args\": []\n    }\n  }\n}\n",
	}, {
		name:      "one line",
		in:        `{"mcpServers": {"x": {"command": "/opt/x", "env": {}}}}`,
		wrapped:   `{"mcpServers": {"x": {"command": "/s/shim", "args": ["--name", "x", "--", "/opt/x"], "env": {}}}}`,
		unwrapped: `{"mcpServers": {"x": {"command": "/opt/x", "args": [], "env": {}}}}`,
	}, {
		name:      "minified",
		in:        `{"mcpServers":{"x":{"command":"/opt/x"}}}`,
		wrapped:   `{"mcpServers":{"x":{"command":"/s/shim","args":["--name","x","--","/opt/x"]}}}`,
		unwrapped: `{"mcpServers":{"x":{"command":"/opt/x","args":[]}}}`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := Wrap([]byte(tt.in), "/s/shim")
			require.NoError(t, err)
			assert.Equal(t, tt.wrapped, string(w.Out))
			u, err := Unwrap(w.Out)
			require.NoError(t, err)
			assert.Equal(t, tt.unwrapped, string(u.Out))
		})
	}
}

func TestWrapEdgeCases(t *testing.T) {
	tests := []struct{ name, in, want, note string }{
		{"empty file", "", "", ""},
		{"blank file", " \n", " \n", ""},
		{"no servers", `{"globalShortcut": ""}`, `{"globalShortcut": ""}`, ""},
		{"byte order mark", "\xef\xbb\xbf{\"mcpServers\": {\"a\": {\"command\": \"b\", \"args\": []}}}",
			"\xef\xbb\xbf{\"mcpServers\": {\"a\": {\"command\": \"/s/shim\", \"args\": [\"--name\", \"a\", \"--\", \"b\"]}}}", ""},
		{"padded one-line args", `{"mcpServers": {"a": {"command": "b", "args": [ "c" ]}}}`,
			`{"mcpServers": {"a": {"command": "/s/shim", "args": [ "--name", "a", "--", "b", "c" ]}}}`, ""},
		{"duplicate key: the last counts", `{"mcpServers": {"a": {"command": "x", "command": "b", "args": []}}}`,
			`{"mcpServers": {"a": {"command": "x", "command": "/s/shim", "args": ["--name", "a", "--", "b"]}}}`, ""},
		{"escaped key kept as written", `{"mcpServers": {"\u00e9": {"command": "b", "args": []}}}`,
			`{"mcpServers": {"\u00e9": {"command": "/s/shim", "args": ["--name", "\u00e9", "--", "b"]}}}`, ""},
		{"not an object", `{"mcpServers": {"a": "npx"}}`, "", "not a JSON object"},
		{"args not a list", `{"mcpServers": {"a": {"command": "b", "args": "c"}}}`, "", "args is not a list"},
		{"args not strings", `{"mcpServers": {"a": {"command": "b", "args": [1]}}}`, "", "args holds something other than strings"},
		{"command not a string", `{"mcpServers": {"a": {"command": ["b"]}}}`, "", "command is not a string"},
		{"no command", `{"mcpServers": {"a": {"type": "stdio"}}}`, "", "no command"},
		{"empty entry", `{"mcpServers": {"a": {}}}`, "", "no command"},
		{"remote by type", `{"mcpServers": {"a": {"type": "streamable-http", "command": "b"}}}`, "", "remote server (type streamable-http)"},
		{"renamed shim", `{"mcpServers": {"a": {"command": "/x/flowd-shim", "args": ["--name", "a", "--", "b"]}}}`, "", "already wrapped"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := Wrap([]byte(tt.in), "/s/shim")
			require.NoError(t, err)
			if tt.note != "" {
				assert.Equal(t, tt.in, string(w.Out))
				require.Len(t, w.Servers, 1)
				assert.Equal(t, Skipped, w.Servers[0].Action)
				assert.Equal(t, tt.note, w.Servers[0].Note)
				return
			}
			assert.Equal(t, tt.want, string(w.Out))
		})
	}
}

func TestSyntaxErrorsNameTheLine(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"comment", string(read(t, "testdata/comment.json")), "line 3, column 5: comments are not allowed in JSON"},
		{"block comment", "{\n/* x */ \"mcpServers\": {}}", "line 2, column 1: comments are not allowed"},
		{"trailing comma", "{\n  \"mcpServers\": {},\n}\n", "line 3, column 1: invalid character '}'"},
		{"truncated", "{\n  \"mcpServers\": {", "line 2, column 17: unexpected end of JSON input"},
		{"two values", "{}\n{}", "line 2, column 1: invalid character '{' after top-level value"},
		{"not an object", "[]", "the file holds no JSON object"},
		{"servers not an object", "{\n\"mcpServers\": []}", `line 2: "mcpServers" is not an object`},
		{"project servers not an object", `{"projects": {"/p": {"mcpServers": 1}}}`, `project /p: line 1: "mcpServers" is not an object`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, f := range []func([]byte) (Result, error){func(b []byte) (Result, error) { return Wrap(b, "/s/shim") }, Unwrap} {
				_, err := f([]byte(tt.in))
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.want)
			}
		})
	}
}

func TestUnwrapServers(t *testing.T) {
	in := `{"mcpServers": {
  "plain": {"command": "npx", "args": ["x"]},
  "flags": {"command": "shim", "args": ["--socket", "/tmp/s", "--no-autostart", "--name=f", "--", "npx", "--", "y"]},
  "no dashes": {"command": "/bin/shim", "args": ["-name", "n", "uvx", "--from", "z"]},
  "broken": {"command": "shim.EXE", "args": ["--name", "b"]},
  "remote": {"type": "sse", "url": "http://x"}
}}`
	want := `{"mcpServers": {
  "plain": {"command": "npx", "args": ["x"]},
  "flags": {"command": "npx", "args": ["--", "y"]},
  "no dashes": {"command": "uvx", "args": ["--from", "z"]},
  "broken": {"command": "shim.EXE", "args": ["--name", "b"]},
  "remote": {"type": "sse", "url": "http://x"}
}}`
	u, err := Unwrap([]byte(in))
	require.NoError(t, err)
	assert.Equal(t, want, string(u.Out))
	assert.Equal(t, []outcome{
		{"", "plain", Skipped, "not wrapped"},
		{"", "flags", Unwrapped, ""},
		{"", "no dashes", Unwrapped, ""},
		{"", "broken", Skipped, "wrapped, but no command follows the shim's flags"},
		{"", "remote", Skipped, "remote server (has a url)"},
	}, outcomes(u))
}

func TestIsWrapped(t *testing.T) {
	tests := []struct {
		command string
		args    string
		want    bool
	}{
		{"shim", "", true},
		{"/usr/local/bin/shim", "--name a -- b", true},
		{`C:\flowd\Shim.exe`, "-- b", true},
		{"/opt/flowd/bin/flowd-shim", "--name a -- b", true},
		{"/opt/flowd/bin/flowd-shim", "--name=a -- b", true},
		{"npx", "-y shim", false},
		{"npx", "-- b", false},
		{"docker", "--name a run", false},
		{"/home/shim/bin/node", "s.js", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, isWrapped(tt.command, strings.Fields(tt.args)), "%s %s", tt.command, tt.args)
	}
}

// Go escapes <, > and & in JSON strings by default; clients do not, and
// neither should a path written into their files.
func TestWrapWritesShimPathPlainly(t *testing.T) {
	w, err := Wrap([]byte(`{"mcpServers": {"a": {"command": "b"}}}`), "/Users/R&D/<bin>/shim")
	require.NoError(t, err)
	assert.Contains(t, string(w.Out), `"command": "/Users/R&D/<bin>/shim"`)
}
