package classify

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOverridesWin(t *testing.T) {
	c, err := New(Overrides{
		Servers: map[string]Class{"my-private-slack": Internal, "Postgres-DB": External},
		Tools: map[string]Class{
			"github/create_gist":            Internal,
			"fetch":                         Internal,
			"WebFetch":                      Internal,
			"Bash":                          External,
			"my-private-slack/post_message": Hybrid,
		},
	})
	require.NoError(t, err)
	tests := []struct {
		desc string
		got  Result
		want Class
	}{
		{"server override beats the slack keyword", c.Server("my-private-slack"), Internal},
		{"server keys ignore case", c.Server("postgres-db"), External},
		{"server override covers its tools", c.Tool("my-private-slack", ToolInfo{Name: "list_channels"}), Internal},
		{"server/tool beats the server", c.Tool("my-private-slack", ToolInfo{Name: "post_message"}), Hybrid},
		{"server/tool beats heuristics", c.Tool("github", ToolInfo{Name: "create_gist"}), Internal},
		{"bare tool applies on any server", c.Tool("acme", ToolInfo{Name: "fetch"}), Internal},
		{"agent built-in", c.AgentTool("WebFetch", map[string]any{"url": "https://x"}), Internal},
		{"agent Bash, whatever the command", c.AgentTool("Bash", map[string]any{"command": "ls"}), External},
		{"mcp tool through the hook", c.AgentTool("mcp__my-private-slack__list_channels", nil), Internal},
		{"mcp tool through the hook, server/tool", c.AgentTool("mcp__github__create_gist", nil), Internal},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.got.Class, "%s: %s", tt.desc, tt.got.Reason)
		assert.Equal(t, MethodConfig, tt.got.Method, tt.desc)
		assert.Equal(t, 1.0, tt.got.Confidence, tt.desc)
		assert.Contains(t, tt.got.Reason, "configured", tt.desc)
	}
	// Without an override the same names are judged by heuristics.
	plain := newDefault(t)
	assert.Equal(t, External, plain.Server("my-private-slack").Class)
	assert.Equal(t, Hybrid, plain.Tool("github", ToolInfo{Name: "create_gist"}).Class)
}

func TestDefaultUnknownHonoured(t *testing.T) {
	for _, def := range []Class{Internal, External, Hybrid, Unknown} {
		c, err := New(Overrides{DefaultUnknown: def})
		require.NoError(t, err)
		for _, r := range []Result{
			c.Server("everything"),
			c.Tool("everything", ToolInfo{Name: "echo"}),
			c.AgentTool("mcp__everything__echo", map[string]any{"message": "hi"}),
			c.AgentTool("SomeFutureTool", nil),
		} {
			assert.Equal(t, def, r.Class, r.Reason)
			assert.Equal(t, fallbackConfidence, r.Confidence)
			assert.Equal(t, MethodHeuristic, r.Method)
			assert.Contains(t, r.Reason, "class unknown", "the reason keeps the fact that nothing matched")
			reads, sends := capabilities(def)
			assert.Equal(t, reads, r.CanReadData)
			assert.Equal(t, sends, r.CanExfiltrate)
		}
		// Evidence still wins over the default.
		assert.Equal(t, External, c.Server("slack").Class)
	}
}

func TestNewRejectsBadOverrides(t *testing.T) {
	tests := []struct {
		desc    string
		o       Overrides
		wantErr string
	}{
		{"bad server class", Overrides{Servers: map[string]Class{"slack": "safe"}}, `server "slack": unknown class "safe"`},
		{"bad tool class", Overrides{Tools: map[string]Class{"fetch": "Internal"}}, `tool "fetch": unknown class "Internal"`},
		{"bad default", Overrides{DefaultUnknown: "maybe"}, `default_unknown: unknown class "maybe"`},
		{"empty name", Overrides{Servers: map[string]Class{" ": Internal}}, "name is empty"},
		{"empty tool half", Overrides{Tools: map[string]Class{"github/": Internal}}, "name is empty"},
		{"conflicting spellings", Overrides{Servers: map[string]Class{"Slack": Internal, "slack": External}}, "conflicts"},
	}
	for _, tt := range tests {
		_, err := New(tt.o)
		require.Error(t, err, tt.desc)
		assert.Contains(t, err.Error(), tt.wantErr, tt.desc)
	}
}

func TestParseClass(t *testing.T) {
	for in, want := range map[string]Class{"internal": Internal, " External ": External, "HYBRID": Hybrid, "unknown": Unknown} {
		got, err := ParseClass(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	_, err := ParseClass("private")
	assert.ErrorContains(t, err, `unknown class "private"`)
}
