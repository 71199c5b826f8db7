package claudecode

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The fixtures are hook stdin captured from Claude Code 2.1.197
// (shared/harness/claude-code/captured/hooks), unchanged.
func TestParseCapturedPayloads(t *testing.T) {
	tests := []struct {
		file      string
		event     string
		tool      string
		mode      string
		mcp       bool
		text      string // ResponseText
		err       string
		input     string
		interrupt bool
	}{
		{file: "perm_default.00.PreToolUse.Read.json", event: PreToolUse, tool: "Read", mode: "default",
			input: `{"file_path":"/home/user/proj/.env"}`},
		{file: "mcp_memory.00.PreToolUse.mcp__memory__create_entities.json", event: PreToolUse,
			tool: "mcp__memory__create_entities", mode: "bypassPermissions", mcp: true,
			input: `{"entities":[{"name":"deploy-key","entityType":"secret","observations":["value is sk-test-SECRET-1234567890"]}]}`},
		{file: "read_env_webfetch.01.PostToolUse.Read.json", event: PostToolUse, tool: "Read", mode: "bypassPermissions",
			text: "API_KEY=sk-test-SECRET-1234567890\nDB_PASSWORD=hunter2\n"},
		{file: "bash_exfil.01.PostToolUse.Bash.json", event: PostToolUse, tool: "Bash", mode: "bypassPermissions",
			text: "API_KEY=sk-test-SECRET-1234567890"},
		{file: "webfetch_local.03.PostToolUse.WebFetch.json", event: PostToolUse, tool: "WebFetch", mode: "bypassPermissions",
			text: "The page says: Mock page."},
		// MCP results arrive as a JSON string holding the structured result.
		{file: "mcp_fs_read_exfil.01.PostToolUse.mcp__fs__read_file.json", event: PostToolUse,
			tool: "mcp__fs__read_file", mode: "bypassPermissions", mcp: true,
			text: `{"content":"API_KEY=sk-test-SECRET-1234567890\nDB_PASSWORD=hunter2\n"}`},
		{file: "mcp_memory.03.PostToolUse.mcp__memory__read_graph.json", event: PostToolUse,
			tool: "mcp__memory__read_graph", mode: "bypassPermissions", mcp: true,
			text: `{"entities":[{"name":"deploy-key","entityType":"secret","observations":["value is sk-test-SECRET-1234567890"]}],"relations":[]}`},
		{file: "read_env_webfetch.03.PostToolUseFailure.WebFetch.json", event: PostToolUseFailure, tool: "WebFetch",
			mode: "bypassPermissions",
			text: "Unable to verify if domain webhook.site is safe to fetch. This may be due to network restrictions or enterprise security policies blocking claude.ai.",
			err:  "Unable to verify if domain webhook.site is safe to fetch. This may be due to network restrictions or enterprise security policies blocking claude.ai."},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", tt.file))
			require.NoError(t, err)
			p, err := ParsePayload(b)
			require.NoError(t, err)
			assert.Equal(t, tt.event, p.HookEventName)
			assert.Equal(t, tt.tool, p.ToolName)
			assert.Equal(t, tt.mode, p.PermissionMode)
			assert.Equal(t, tt.mcp, p.IsMCP())
			assert.Equal(t, "/home/user/proj", p.CWD)
			assert.Regexp(t, `^[0-9a-f-]{36}$`, p.SessionID)
			assert.Regexp(t, `^/home/user/\.claude/projects/-home-user-proj/.*\.jsonl$`, p.TranscriptPath)
			assert.Regexp(t, `^toolu_[0-9a-f]+$`, p.ToolUseID)
			assert.Equal(t, tt.text, p.ResponseText())
			assert.Equal(t, tt.err, p.Error)
			assert.Equal(t, tt.interrupt, p.IsInterrupt)
			if tt.input != "" {
				assert.JSONEq(t, tt.input, string(p.ToolInput))
			}
			assert.Nil(t, p.MCPServer, "2.1.197 does not send mcp_server")
		})
	}
}

func TestParsePayloadTolerance(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    Payload
		text    string
		wantErr bool
	}{
		{name: "not JSON", in: `tool_name=Read`, wantErr: true},
		{name: "not an object", in: `["PreToolUse"]`, wantErr: true},
		{name: "null", in: `null`, wantErr: true},
		{name: "unknown fields and wrong types",
			in:   `{"hook_event_name":"PreToolUse","tool_name":7,"future":{"x":1},"is_interrupt":"yes","error":{"code":1},"mcp_server":"s"}`,
			want: Payload{HookEventName: PreToolUse}},
		{name: "mcp_server of newer versions",
			in:   `{"tool_name":"mcp__my_srv__do__it","mcp_server":{"name":"my.srv","source":"claudeai","extra":true}}`,
			want: Payload{ToolName: "mcp__my_srv__do__it", MCPServer: &MCPServer{Name: "my.srv", Source: "claudeai"}}},
		{name: "MCP content blocks, as some versions pass the result",
			in:   `{"tool_name":"mcp__gh__get","tool_response":"[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"image\",\"data\":\"AA==\"},{\"type\":\"text\",\"text\":\"b\"}]"}`,
			want: Payload{ToolName: "mcp__gh__get", ToolResponse: []byte(`[{"type":"text","text":"a"},{"type":"image","data":"AA=="},{"type":"text","text":"b"}]`)},
			text: "a\nb"},
		{name: "MCP result object with content and embedded resource",
			in:   `{"tool_name":"mcp__gh__get","tool_response":{"content":[{"type":"resource","resource":{"uri":"f://x","text":"R"}}],"isError":false}}`,
			want: Payload{ToolName: "mcp__gh__get", ToolResponse: []byte(`{"content":[{"type":"resource","resource":{"uri":"f://x","text":"R"}}],"isError":false}`)},
			text: "R"},
		{name: "MCP result that is plain text",
			in:   `{"tool_name":"mcp__gh__get","tool_response":"just words"}`,
			want: Payload{ToolName: "mcp__gh__get", ToolResponse: []byte(`"just words"`)},
			text: "just words"},
		{name: "Bash with stderr only",
			in:   `{"tool_name":"Bash","tool_response":{"stdout":"","stderr":"boom","interrupted":false}}`,
			want: Payload{ToolName: "Bash", ToolResponse: []byte(`{"stdout":"","stderr":"boom","interrupted":false}`)},
			text: "boom"},
		{name: "unknown built-in tool falls back to the JSON",
			in:   `{"tool_name":"Grep","tool_response":{"mode":"content","content":"a:1:x"}}`,
			want: Payload{ToolName: "Grep", ToolResponse: []byte(`{"mode":"content","content":"a:1:x"}`)},
			text: `{"mode":"content","content":"a:1:x"}`},
		{name: "Read of an image has no text content",
			in:   `{"tool_name":"Read","tool_response":{"type":"image","file":{"base64":"AA=="}}}`,
			want: Payload{ToolName: "Read", ToolResponse: []byte(`{"type":"image","file":{"base64":"AA=="}}`)},
			text: `{"type":"image","file":{"base64":"AA=="}}`},
		{name: "tool_input as a JSON string is decoded too",
			in:   `{"tool_input":"{\"path\":\"/x\"}"}`,
			want: Payload{ToolInput: []byte(`{"path":"/x"}`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParsePayload([]byte(tt.in))
			if tt.wantErr {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, p)
			assert.Equal(t, tt.text, p.ResponseText())
		})
	}
}

func TestMCPTool(t *testing.T) {
	tests := []struct {
		tool       string
		server     *MCPServer
		wantServer string
		wantTool   string
		wantOK     bool
	}{
		{"mcp__memory__read_graph", nil, "memory", "read_graph", true},
		{"mcp__fs__read__file", nil, "fs", "read__file", true},
		{"mcp__a__b__c", &MCPServer{Name: "a__b"}, "a__b", "c", true},
		{"mcp__claude_ai_Gmail__search", &MCPServer{Name: "claude.ai Gmail"}, "claude.ai Gmail", "search", true},
		{"mcp__x__t", &MCPServer{Name: "other"}, "x", "t", true}, // name does not fit: split the tool name
		{"Read", nil, "", "", false},
		{"mcp__only", nil, "", "", false},
	}
	for _, tt := range tests {
		s, tool, ok := Payload{ToolName: tt.tool, MCPServer: tt.server}.MCPTool()
		assert.Equal(t, tt.wantOK, ok, tt.tool)
		assert.Equal(t, tt.wantServer, s, tt.tool)
		assert.Equal(t, tt.wantTool, tool, tt.tool)
	}
}
