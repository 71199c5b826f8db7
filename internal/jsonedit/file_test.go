package jsonedit

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAgentFile(t *testing.T) {
	t.Setenv("HOME", "/home/u")
	for _, tt := range []struct{ scope, dir, want string }{
		{"user", "", "/home/u/.agent/settings.json"},
		{"user", "/repo", "/home/u/.agent/settings.json"},
		{"project", "/repo", "/repo/.agent/settings.json"},
	} {
		p, err := AgentFile("Agent", ".agent", "settings.json", tt.scope, tt.dir)
		require.NoError(t, err)
		assert.Equal(t, tt.want, p, "%s %s", tt.scope, tt.dir)
	}
	_, err := AgentFile("Agent", ".agent", "settings.json", "local", "/repo")
	assert.ErrorContains(t, err, `unknown scope "local": Agent has user and project settings`)
}
