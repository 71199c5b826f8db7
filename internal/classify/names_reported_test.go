package classify

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A server's serverInfo.name is its own claim: it may make flowd more
// cautious, never less.
func TestReportedNameOnlyRaisesCaution(t *testing.T) {
	c := newDefault(t)
	configured, err := New(Overrides{Servers: map[string]Class{"filesystem": Internal, "mailer": Internal}})
	require.NoError(t, err)
	read := ToolInfo{Name: "read_item"}
	tests := []struct {
		desc  string
		c     *Classifier
		names Names
		tool  ToolInfo
		want  Class
	}{
		{"a mail command calling itself filesystem", c, Names{Command: "mail-mcp", Reported: "filesystem"}, read, Hybrid},
		{"a --name that says nothing, calling itself filesystem", c, Names{Given: "acme-tools", Reported: "filesystem"}, ToolInfo{Name: "run"}, Unknown},
		{"a command that says nothing, calling itself postgres", c, Names{Command: "server", Reported: "postgres"}, ToolInfo{Name: "save"}, Unknown},
		{"the user's override for the name the server reports is not trusted to lower", configured,
			Names{Command: "courier", Reported: "filesystem"}, ToolInfo{Name: "run"}, Unknown},
		{"a local command calling itself slack is taken at its word", c, Names{Command: "server-filesystem", Reported: "slack"}, read, Hybrid},
		{"agreeing names", c, Names{Command: "server-filesystem", Reported: "filesystem"}, ToolInfo{Name: "read_file"}, Internal},
		{"no reported name", c, Names{Given: "github"}, ToolInfo{Name: "get_file_contents"}, Internal},
		{"the user's word for the client's name is final", configured, Names{Given: "mailer", Reported: "gmail"}, read, Internal},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			r := tt.c.ToolOf(tt.names, tt.tool)
			assert.Equal(t, tt.want, r.Class, r.Reason)
			if tt.names.Reported != "" && tt.want != Internal {
				assert.Contains(t, r.Reason, "serverInfo.name", "the reason says the server's own name was weighed")
			}
		})
	}
	s := c.ServerOf(Names{Command: "mail-mcp", Reported: "filesystem"})
	assert.Equal(t, Hybrid, s.Class, s.Reason)
	s = c.ServerOf(Names{Command: "server", Reported: "filesystem"})
	assert.Equal(t, Unknown, s.Class, s.Reason)
}
