package classify

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func ptr(b bool) *bool { return &b }

func TestToolNames(t *testing.T) {
	c := newDefault(t)
	tests := []struct {
		server, tool string
		want         Class
		minConf      float64
	}{
		// A code host is internal for reads; what a tool writes there may
		// be public, and a gist is a paste site.
		{"github", "get_file_contents", Internal, 0.8},
		{"github", "search_repositories", Internal, 0.8},
		{"github", "list_issues", Internal, 0.8},
		{"github", "list_notifications", Internal, 0.8},
		{"github", "get_notification_details", Internal, 0.8},
		// An outside service named with no verb that says the tool reads
		// may be handed what the tool is sent (red team RT6).
		{"docs", "translate", Hybrid, 0.5},
		{"notes", "deepl", Hybrid, 0.5},
		{"docs", "search_translations", Internal, 0.7},
		{"github", "create_issue", Hybrid, 0.7},
		{"github", "add_issue_comment", Hybrid, 0.7},
		{"github", "create_pull_request", Hybrid, 0.7},
		{"github", "push_files", Hybrid, 0.6},
		{"github", "create_gist", Hybrid, 0.8},
		// Ticket systems are usually private to an organisation.
		{"jira", "create_issue", Internal, 0.8},
		{"filesystem", "read_file", Internal, 0.9},
		{"filesystem", "write_file", Internal, 0.9},
		{"filesystem", "list_directory", Internal, 0.9},
		{"memory", "create_entities", Internal, 0.8},
		{"postgres", "query", Internal, 0.8},
		{"postgres-db", "execute_query", Internal, 0.8},
		{"git", "git_commit", Internal, 0.8},
		{"git", "git_push", Hybrid, 0.6},
		{"slack", "slack_post_message", External, 0.9},
		// Reading a chat history or its files returns the user's own data.
		{"slack", "slack_get_channel_history", Hybrid, 0.7},
		{"slack", "list_files", Hybrid, 0.7},
		{"gmail", "send_email", External, 0.9},
		{"fetch", "fetch", External, 0.85},
		{"brave-search", "brave_web_search", External, 0.85},
		{"puppeteer", "puppeteer_navigate", Hybrid, 0.8},
		{"aws", "s3_list_buckets", Internal, 0.8},
		{"aws", "ses_send_email", External, 0.8},
		{"shell", "run_command", Hybrid, 0.7},
		{"filesystem", "run_shell_command", Hybrid, 0.7},
		{"postgres", "send_webhook", Hybrid, 0.8},
		// Tool names alone, on a server whose name says nothing.
		{"acme", "send_email", External, 0.9},
		{"acme", "http_request", External, 0.8},
		{"acme", "post_to_slack", External, 0.9},
		{"acme", "upload_to_pastebin", External, 0.9},
		// Internal-sounding names are the server's own words: hybrid.
		{"acme", "read_file", Hybrid, 0.8},
		{"acme", "query_database", Hybrid, 0.8},
		{"acme", "sendSlackMessage", External, 0.9},
		{"acme", "send_file", Hybrid, 0.7},
	}
	for _, tt := range tests {
		t.Run(tt.server+"/"+tt.tool, func(t *testing.T) {
			r := c.Tool(tt.server, ToolInfo{Name: tt.tool})
			assert.Equal(t, tt.want, r.Class, r.Reason)
			assert.GreaterOrEqual(t, r.Confidence, tt.minConf, r.Reason)
			assert.Equal(t, MethodHeuristic, r.Method)
		})
	}
}

func TestToolCapabilities(t *testing.T) {
	c := newDefault(t)
	send := c.Tool("gmail", ToolInfo{Name: "send_email"})
	assert.False(t, send.CanReadData, "sending mail returns no private data")
	assert.True(t, send.CanExfiltrate)
	search := c.Tool("gmail", ToolInfo{Name: "search_emails"})
	assert.True(t, search.CanReadData, "a mailbox is private data")
	assert.True(t, search.CanExfiltrate, "the query goes to the mail provider")
	issue := c.Tool("github", ToolInfo{Name: "create_issue"})
	assert.True(t, issue.CanReadData)
	assert.True(t, issue.CanExfiltrate)
}

func TestToolParamsAndDescription(t *testing.T) {
	c := newDefault(t)
	tests := []struct {
		desc string
		tool ToolInfo
		want Class
	}{
		{"url parameter", ToolInfo{Name: "get_page", Params: []string{"url", "max_length"}}, External},
		{"webhook_url parameter", ToolInfo{Name: "notify_build", Params: []string{"webhook_url"}}, External},
		// The server's own words never make it trusted: a tool that says it
		// handles local data is hybrid (its output the user's data, what it
		// is sent able to leave) until the server's name or config says more.
		{"path parameter", ToolInfo{Name: "load", Params: []string{"file_path"}}, Hybrid},
		{"description", ToolInfo{Name: "grab", Description: "Fetches a URL from the internet and returns it as markdown."}, External},
		{"description", ToolInfo{Name: "lookup", Description: "Looks up rows in the local SQLite database."}, Hybrid},
		{"name wins over description", ToolInfo{Name: "read_file", Description: "Send the file to the web."}, Hybrid},
	}
	for _, tt := range tests {
		r := c.Tool("acme", tt.tool)
		assert.Equal(t, tt.want, r.Class, "%s: %s", tt.desc, r.Reason)
		assert.Greater(t, r.Confidence, fallbackConfidence, tt.desc)
	}
}

func TestToolAnnotations(t *testing.T) {
	c := newDefault(t)
	tests := []struct {
		desc       string
		server     string
		tool       ToolInfo
		want       Class
		method     string
		minC, maxC float64
	}{
		{"a closed-world claim does not make a server nothing vouches for trusted", "acme",
			ToolInfo{Name: "frobnicate", OpenWorldHint: ptr(false)}, Unknown, MethodHeuristic, fallbackConfidence, fallbackConfidence},
		{"explicit open world decides an unknown tool", "acme",
			ToolInfo{Name: "frobnicate", OpenWorldHint: ptr(true)}, External, MethodAnnotation, 0.6, 0.6},
		{"absent hints are not evidence", "acme",
			ToolInfo{Name: "frobnicate"}, Unknown, MethodHeuristic, fallbackConfidence, fallbackConfidence},
		{"readOnly and destructive hints alone say nothing about where data goes", "acme",
			ToolInfo{Name: "frobnicate", ReadOnlyHint: ptr(true), DestructiveHint: ptr(false)}, Unknown, MethodHeuristic, fallbackConfidence, fallbackConfidence},
		{"agreeing hint raises confidence", "filesystem",
			ToolInfo{Name: "read_file", OpenWorldHint: ptr(false)}, Internal, MethodHeuristic, 0.97, 0.97},
		{"closed-world claim does not override a strong external name", "slack",
			ToolInfo{Name: "slack_post_message", OpenWorldHint: ptr(false)}, External, MethodHeuristic, 0.8, 0.9},
		{"open-world claim (an SDK default) does not override the server's internal name", "postgres",
			ToolInfo{Name: "query", OpenWorldHint: ptr(true)}, Internal, MethodHeuristic, 0.7, 0.85},
		{"open-world claim wins over the tool's own internal-sounding name", "acme",
			ToolInfo{Name: "read_file", OpenWorldHint: ptr(true)}, Hybrid, MethodHeuristic, 0.6, 1},
		{"open-world claim wins over a file word in the name (everything's gzip-file-as-resource)", "everything",
			ToolInfo{Name: "gzip-file-as-resource", OpenWorldHint: ptr(true)}, Hybrid, MethodHeuristic, 0.6, 1},
		{"open-world claim raises caution on a weak internal name", "acme",
			ToolInfo{Name: "search_docs", OpenWorldHint: ptr(true)}, Hybrid, MethodHeuristic, 0.6, 1},
		{"readOnlyHint=false makes an unnamed action a write on a code host", "github",
			ToolInfo{Name: "star", ReadOnlyHint: ptr(false)}, Hybrid, MethodHeuristic, 0.7, 0.8},
		{"readOnlyHint=true does not hide a write verb", "github",
			ToolInfo{Name: "create_issue", ReadOnlyHint: ptr(true)}, Hybrid, MethodHeuristic, 0.7, 0.8},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			r := c.Tool(tt.server, tt.tool)
			assert.Equal(t, tt.want, r.Class, r.Reason)
			assert.Equal(t, tt.method, r.Method, r.Reason)
			assert.GreaterOrEqual(t, r.Confidence, tt.minC, r.Reason)
			assert.LessOrEqual(t, r.Confidence, tt.maxC, r.Reason)
		})
	}
}

func TestToolWithoutEvidenceUsesDefault(t *testing.T) {
	c := newDefault(t)
	for _, tool := range []string{"echo", "add", "longRunningOperation", "getTinyImage"} {
		r := c.Tool("everything", ToolInfo{Name: tool})
		assert.Equal(t, Unknown, r.Class, tool)
		assert.True(t, r.CanExfiltrate, "a tool flowd cannot classify may send data out")
		assert.Equal(t, fallbackConfidence, r.Confidence, tool)
		assert.Contains(t, r.Reason, "class unknown", tool)
	}
}

func BenchmarkTool(b *testing.B) {
	c, err := New(Overrides{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		c.Tool("@modelcontextprotocol/server-github", ToolInfo{Name: "create_pull_request", Params: []string{"owner", "repo", "title"}})
	}
}

func BenchmarkToolWithSchema(b *testing.B) {
	c, err := New(Overrides{})
	if err != nil {
		b.Fatal(err)
	}
	info := ToolInfo{Name: "create_page", Description: "Creates a page under a parent page in the user's workspace.",
		InputSchema: schema(`"parent":{"type":"object","properties":{"page_id":{"type":"string"}}},"title":{"type":"string"},"content":{"type":"string","description":"Markdown body"}`)}
	for b.Loop() {
		c.ToolOf(Names{Given: "notion", Reported: "notion-mcp"}, info)
	}
}
