package clientconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clientFixtures are config files of the clients beyond Claude's and
// Cursor's, written from each client's documentation, with the format
// each client's Locations gives them.
var clientFixtures = []struct {
	file   string
	format Format
	// noArgs: servers written without args, which keep the empty args
	// Wrap added after Unwrap; every other byte comes back.
	noArgs []string
}{
	{"vscode_user.json", vscodeJSON, nil},
	{"vscode_workspace.json", vscodeJSON, nil},
	{"windsurf.json", mcpServers, nil},
	{"cline.json", mcpServers, nil},
	{"zed_settings.json", zedJSON, nil},
	{"gemini_settings.json", geminiJSON, nil},
	{"codex_config.toml", codexTOML, []string{"sentry"}},
	{"continue_config.yaml", continueYML, []string{"Time"}},
	{"continue_block.yaml", continueYML, nil},
}

func TestWrapClientsRoundTrip(t *testing.T) {
	for _, fx := range clientFixtures {
		t.Run(fx.file, func(t *testing.T) {
			orig := read(t, filepath.Join("testdata", "clients", fx.file))
			wrapped, err := fx.format.Wrap(orig, testShim)
			require.NoError(t, err)
			require.True(t, wrapped.Changed(), "nothing wrapped")

			golden := filepath.Join("testdata", "clients", "wrapped", fx.file)
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(golden), 0o755))
				require.NoError(t, os.WriteFile(golden, wrapped.Out, 0o644))
			}
			assert.Equal(t, string(read(t, golden)), string(wrapped.Out))

			again, err := fx.format.Wrap(wrapped.Out, testShim)
			require.NoError(t, err)
			assert.False(t, again.Changed(), "wrapping twice changed something: %+v", again.Servers)
			assert.Equal(t, string(wrapped.Out), string(again.Out))

			unwrapped, err := fx.format.Unwrap(wrapped.Out)
			require.NoError(t, err)
			restored := string(unwrapped.Out)
			for _, name := range fx.noArgs {
				restored = dropEmptyArgs(t, fx.format, restored, name)
			}
			assert.Equal(t, string(orig), restored)

			rewrapped, err := fx.format.Wrap(unwrapped.Out, testShim)
			require.NoError(t, err)
			if len(fx.noArgs) == 0 { // else the empty args Unwrap left takes the new ones, in its style
				assert.Equal(t, string(wrapped.Out), string(rewrapped.Out))
			}
			assert.Equal(t, wrapped.Servers, rewrapped.Servers)
		})
	}
}

// dropEmptyArgs takes out the empty args line Wrap added to the server
// name, failing when it is not there: the one difference Unwrap leaves.
func dropEmptyArgs(t *testing.T, f Format, doc, name string) string {
	t.Helper()
	line := map[syntax]string{tomlSyntax: "\nargs = []", yamlSyntax: "\n    args: []"}[f.syntax]
	at := strings.Index(doc, name)
	require.GreaterOrEqual(t, at, 0)
	i := strings.Index(doc[at:], line)
	require.GreaterOrEqual(t, i, 0, "no empty args after %s", name)
	return doc[:at+i] + doc[at+i+len(line):]
}

// Every server of the fixtures is either wrapped or skipped for the
// reason a user needs to see.
func TestWrapClientsSkips(t *testing.T) {
	want := map[string]map[string]string{
		"vscode_user.json":      {"github": "remote server (has a url)", "legacy-sse": "remote server (has a url)"},
		"vscode_workspace.json": {"db": "a comment or trailing comma sits in its command line", "docs": "remote server"},
		"windsurf.json":         {"figma": "remote server (has a serverUrl)"},
		"cline.json":            {"context7": "remote server (has a url)"},
		"zed_settings.json":     {"mcp-server-github": "no command", "remote-mcp-server": "remote server"},
		"gemini_settings.json":  {"httpServer": "remote server (has a httpUrl)", "sseServer": "remote server (has a url)"},
		"codex_config.toml":     {"figma": "remote server (has a url)"},
		"continue_config.yaml":  {"Docs": "remote server (has a url)", "#5": "a block from Continue's hub"},
		"continue_block.yaml":   {},
	}
	for _, fx := range clientFixtures {
		r, err := fx.format.Wrap(read(t, filepath.Join("testdata", "clients", fx.file)), testShim)
		require.NoError(t, err)
		got := map[string]string{}
		for _, s := range r.Servers {
			if s.Action == Skipped {
				got[s.Name] = s.Note
			}
		}
		require.Len(t, got, len(want[fx.file]), "%s: %v", fx.file, got)
		for name, note := range want[fx.file] {
			assert.Contains(t, got[name], note, "%s: %s", fx.file, name)
		}
	}
}
