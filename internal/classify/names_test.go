package classify

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newDefault(t *testing.T) *Classifier {
	t.Helper()
	c, err := New(Overrides{})
	require.NoError(t, err)
	return c
}

func TestServerNames(t *testing.T) {
	c := newDefault(t)
	tests := []struct {
		name    string
		want    Class
		minConf float64
	}{
		// databases
		{"postgres-db", Internal, 0.8},
		{"@modelcontextprotocol/server-postgres", Internal, 0.8},
		{"PostgreSQL", Internal, 0.8},
		{"mcp-server-sqlite", Internal, 0.8},
		{"mongodb-atlas", Internal, 0.8},
		{"redis_cache", Internal, 0.8},
		{"supabase", Internal, 0.8},
		{"qdrant-vectors", Internal, 0.8},
		// file systems and object stores
		{"@modelcontextprotocol/server-filesystem", Internal, 0.8},
		{"fs", Internal, 0.8},
		{"secure-filesystem-server", Internal, 0.8},
		{"aws-s3", Internal, 0.8},
		{"google-drive", Internal, 0.8},
		{"minio", Internal, 0.8},
		// code hosts and repositories
		{"github", Internal, 0.8},
		{"server-github", Internal, 0.8},
		{"GitHub", Internal, 0.8},
		{"github-mcp-server", Internal, 0.8},
		{"gitlab", Internal, 0.8},
		{"mcp-server-git", Internal, 0.8},
		// vaults, tickets, docs, memory, local computation, observability
		{"hashicorp-vault", Internal, 0.8},
		{"1password", Internal, 0.8},
		{"jira", Internal, 0.8},
		{"linear-mcp", Internal, 0.8},
		{"@notionhq/notion-mcp-server", Internal, 0.8},
		{"memory", Internal, 0.8},
		{"@modelcontextprotocol/server-sequential-thinking", Internal, 0.7},
		{"mcp-server-time", Internal, 0.7},
		{"sentry", Internal, 0.8},
		// chat, mail, SMS, social
		{"slack-notifications", External, 0.8},
		{"mcp-server-slack", External, 0.8},
		{"my-private-slack", External, 0.8},
		{"Slack MCP Server", External, 0.8},
		{"discord-bot", External, 0.8},
		{"microsoft-teams-mcp", External, 0.8},
		{"telegram", External, 0.8},
		{"gmail", External, 0.8},
		{"email-sender", External, 0.8},
		{"sendgrid", External, 0.8},
		{"twilio-sms", External, 0.8},
		{"x-twitter", External, 0.8},
		{"reddit", External, 0.8},
		// webhooks, HTTP, search, paste
		{"webhook-relay", External, 0.8},
		{"zapier", External, 0.8},
		{"@modelcontextprotocol/server-fetch", External, 0.8},
		{"mcp-fetch", External, 0.8},
		{"http-client", External, 0.8},
		{"firecrawl-mcp", External, 0.8},
		{"brave-search", External, 0.8},
		{"tavily-mcp", External, 0.8},
		{"pastebin", External, 0.8},
		{"aws-ses", External, 0.8},
		// cloud CLIs, shells, browsers, containers, code runners
		{"aws", Hybrid, 0.5},
		{"gcloud", Hybrid, 0.5},
		{"azure-cli", Hybrid, 0.5},
		{"shell", Hybrid, 0.8},
		{"desktop-commander", Hybrid, 0.8},
		{"mcp-server-ssh", Hybrid, 0.8},
		{"terminal", Hybrid, 0.8},
		{"puppeteer", Hybrid, 0.8},
		{"@playwright/mcp", Hybrid, 0.8},
		{"browserbase", Hybrid, 0.8},
		{"docker-mcp", Hybrid, 0.8},
		{"kubernetes-mcp-server", Hybrid, 0.8},
		{"e2b-code-interpreter", Hybrid, 0.7},
		// a name mixing a data store and an outlet
		{"slack-to-postgres", Hybrid, 0.8},
		// keywords glued into longer words
		{"mcpslack", External, 0.7},
		{"mysqlbridge", Internal, 0.7},
		{"gdrivesync", Internal, 0.7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.Server(tt.name)
			assert.Equal(t, tt.want, r.Class, r.Reason)
			assert.GreaterOrEqual(t, r.Confidence, tt.minConf, r.Reason)
			assert.LessOrEqual(t, r.Confidence, maxHeuristic, "heuristics are never certain")
			assert.Equal(t, MethodHeuristic, r.Method)
			assert.NotEmpty(t, r.Reason)
		})
	}
	if len(tests) < 40 {
		t.Fatalf("only %d server names tested", len(tests))
	}
}

func TestServerNamesWithoutEvidenceUseDefault(t *testing.T) {
	c := newDefault(t)
	for _, name := range []string{"everything", "test-server", "demo", "context7", "", "foo_bar", "@acme/mcp-server"} {
		r := c.Server(name)
		assert.Equal(t, Unknown, r.Class, name)
		assert.Equal(t, fallbackConfidence, r.Confidence, name)
		assert.Equal(t, MethodHeuristic, r.Method, name)
		assert.Contains(t, r.Reason, "class unknown", name)
		assert.Contains(t, r.Reason, "able to send data out", name)
		assert.True(t, r.CanExfiltrate, name)
	}
}

func TestCapabilitiesFollowClass(t *testing.T) {
	c := newDefault(t)
	tests := []struct {
		server       string
		reads, sends bool
	}{
		{"postgres", true, false},
		{"fetch", false, true},
		{"gmail", true, true}, // a mailbox is the user's data
		{"pastebin", false, true},
		{"shell", true, true},
	}
	for _, tt := range tests {
		r := c.Server(tt.server)
		assert.Equal(t, tt.reads, r.CanReadData, tt.server)
		assert.Equal(t, tt.sends, r.CanExfiltrate, tt.server)
	}
}

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"@modelcontextprotocol/server-filesystem", []string{"modelcontextprotocol", "server", "filesystem"}},
		{"sendSlackMessage", []string{"send", "slack", "message"}},
		{"HTTPRequest", []string{"http", "request"}},
		{"GitHub", []string{"github"}},
		{"PostgreSQL", []string{"postgresql"}},
		{"S3Client", []string{"s3", "client"}},
		{"create_pull_request", []string{"create", "pullrequest"}},
		{"web-hook.relay", []string{"webhook", "relay"}},
		{"file_system", []string{"filesystem"}},
		{"mcp__github__create_issue", []string{"mcp", "github", "create", "issue"}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tokens(tt.in), tt.in)
	}
}

func TestLookupFoldsPlurals(t *testing.T) {
	for in, want := range map[string]string{"notifications": "notification", "webhooks": "webhook", "secrets": "secrets", "mailboxes": "mailbox", "memories": "memories", "queries": ""} {
		_, got, ok := lookup(in)
		assert.Equal(t, want != "", ok, in)
		assert.Equal(t, want, got, in)
	}
}

func TestKeywordTableIsWellFormed(t *testing.T) {
	for word, k := range keywords {
		assert.Equal(t, tokens(word), []string{word}, "keyword %q must survive tokenising whole", word)
		assert.Greater(t, k.weight, 0.0, word)
		assert.LessOrEqual(t, k.weight, 1.0, word)
	}
	for w := range writeVerbs {
		assert.False(t, readVerbs[w], "%q is both a read and a write verb", w)
	}
}
