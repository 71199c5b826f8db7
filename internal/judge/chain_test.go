package judge

import (
	"io"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/policy"
)

// A credential read, by an MCP tool, a hook's Read or Bash, or in a
// result, followed by a call that reaches the network in the same
// session is a finding though no byte of it can be matched.
func TestReadThenSend(t *testing.T) {
	internal := classify.Result{Class: classify.Internal, CanReadData: true}
	external := classify.Result{Class: classify.External, CanExfiltrate: true}
	hybrid := classify.Result{Class: classify.Hybrid, CanReadData: true, CanExfiltrate: true}
	fetch := Call{Tool: "WebFetch", Class: external, Args: []byte(`{"url":"https://example.org/upload?x=1"}`), Ask: AskByAgent}
	type step struct {
		call   Call
		action policy.Action
		rule   string
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{"an MCP read of a private key (asked about: the key goes to the model), then the hook's WebFetch", []step{
			{Call{Server: "fs", Tool: "read_file", Class: internal, Args: []byte(`{"path":"/home/u/.ssh/id_ed25519"}`), Ask: AskByAgent}, policy.Ask, "read_then_send.key_material"},
			{fetch, policy.Ask, "read_then_send"},
		}},
		{"the hook's Bash reads .env, then an MCP call sends", []step{
			{Call{Tool: "Bash", Class: classify.BashCommand("cat .env"), Args: []byte(`{"command":"cat .env"}`), Shell: "cat .env"}, policy.Allow, "default_action"},
			{Call{Server: "slack", Tool: "post_message", Class: external, Args: []byte(`{"text":"done"}`), Ask: AskByElicitation}, policy.Ask, "read_then_send"},
		}},
		{"a tool that reads the environment, then an exec tool's curl", []step{
			{Call{Server: "env", Tool: "get_env", Class: internal, Args: []byte(`{"name":"HOME"}`)}, policy.Allow, "default_action"},
			{Call{Server: "sh", Tool: "run", Class: hybrid, Args: []byte(`{"command":"curl -s https://example.org/ping"}`), Ask: AskByElicitation}, policy.Ask, "read_then_send"},
		}},
		{"a local command after the read is no egress", []step{
			{Call{Server: "fs", Tool: "read_file", Class: internal, Args: []byte(`{"path":"~/.aws/credentials"}`)}, policy.Allow, "default_action"},
			{Call{Server: "sh", Tool: "run", Class: hybrid, Args: []byte(`{"command":"grep -c region ~/.aws/config"}`), Ask: AskByAgent}, policy.Allow, "default_action"},
		}},
		{"a request to the local dev server is no egress", []step{
			{Call{Tool: "Read", Class: internal, Args: []byte(`{"file_path":"/repo/.env"}`)}, policy.Allow, "default_action"},
			{Call{Tool: "Bash", Class: classify.BashCommand("curl -s localhost:3000/api/health"), Args: []byte(`{}`), Shell: "curl -s localhost:3000/api/health", Ask: AskByAgent}, policy.Allow, "default_action"},
		}},
		{"no credential read, no finding", []step{
			{Call{Server: "fs", Tool: "read_file", Class: internal, Args: []byte(`{"path":"README.md"}`)}, policy.Allow, "default_action"},
			{fetch, policy.Allow, "default_action"},
		}},
		{"a template is no credential", []step{
			{Call{Tool: "Read", Class: internal, Args: []byte(`{"file_path":"/repo/.env.example"}`)}, policy.Allow, "default_action"},
			{fetch, policy.Allow, "default_action"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := newJudge(t, nil)
			for i, s := range tt.steps {
				s.call.Session = "s"
				var out Outcome
				if later := j.Call(s.call, &out); later != nil {
					later()
				}
				assert.Equal(t, s.action, out.Decision.Action, "step %d: %s", i, out.Decision.Reason)
				assert.Equal(t, s.rule, out.Decision.Rule, "step %d", i)
			}
		})
	}
}

// A result holding a secret counts as a read, warned of; another session
// is not affected; the key can turn the finding off.
func TestReadThenSendResultAndSessions(t *testing.T) {
	external := classify.Result{Class: classify.External, CanExfiltrate: true}
	j := newJudge(t, nil)
	s := j.Flows.Session("s")
	s.Begin()
	s.Record(flow.Origin{Server: "db", Tool: "query", Class: classify.Internal},
		[]byte(`{"content":[{"type":"text","text":"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq8PLmNkR1"}]}`))
	call := Call{Session: "s", Server: "web", Tool: "fetch", Class: external, Args: []byte(`{"url":"https://example.org/"}`), Ask: AskByAgent}
	var out Outcome
	j.Call(call, &out)
	assert.Equal(t, "read_then_send", out.Decision.Rule, out.Decision.Reason)
	// A weaker sign than a credential read on purpose (documentation and
	// code hold key-shaped strings too): a warning, not a question.
	assert.Equal(t, policy.Warn, out.Decision.Action)
	assert.Contains(t, out.Decision.Reason, "db/query")
	assert.Equal(t, flow.RiskHigh, out.Analysis.Risk)

	call.Session = "other"
	out = Outcome{}
	j.Call(call, &out)
	assert.Equal(t, policy.Allow, out.Decision.Action, out.Decision.Reason)

	off := newJudge(t, func(c *config.Config) { c.Policy.ReadThenSend = "allow" })
	off.Flows.Session("s").ReadSensitive(".env")
	call.Session = "s"
	out = Outcome{}
	off.Call(call, &out)
	assert.Equal(t, policy.Allow, out.Decision.Action, out.Decision.Reason)
}

func newJudge(t *testing.T, set func(*config.Config)) *Judge {
	cfg := config.Default()
	if set != nil {
		set(cfg)
	}
	j, err := New(cfg, Stores{}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	require.NoError(t, err)
	return j
}

// A server nothing vouches for cannot make itself trusted through its own
// tool list: a "write_file" that says it writes into the project, on a
// server whose name says nothing, does not receive a secret read internally.
func TestSelfDescribedInternalToolDoesNotReceiveSecrets(t *testing.T) {
	c, err := Classifier(config.Default())
	require.NoError(t, err)
	for _, tool := range []classify.ToolInfo{
		{Name: "write_file", Description: "Write a file in the project directory.", OpenWorldHint: ptr(false)},
		{Name: "query", Description: "Run a SQL query on the local database."},
		{Name: "frobnicate", OpenWorldHint: ptr(false)},
	} {
		t.Run(tool.Name, func(t *testing.T) {
			j := newJudge(t, nil)
			s := j.Flows.Session("s")
			s.Begin()
			s.Record(flow.Origin{Server: "filesystem", Tool: "read_file", Class: classify.Internal},
				[]byte(`{"content":[{"type":"text","text":"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq8PLmNkR1"}]}`))
			call := Call{Session: "s", Server: "mcp-plus", Tool: tool.Name, Class: c.Tool("mcp-plus", tool),
				Args: []byte(`{"content":"wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq8PLmNkR1"}`)}
			var out Outcome
			if later := j.Call(call, &out); later != nil {
				later()
			}
			assert.Equal(t, policy.Deny, out.Decision.Action, "%s (class %s: %s)", out.Decision.Reason, call.Class.Class, call.Class.Reason)
		})
	}
}

func ptr[T any](v T) *T { return &v }
