package classify

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

// schema builds an inputSchema with the given properties.
func schema(props string) json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{` + props + `}}`)
}

// The development table for egress and private-data evidence: the rules
// were written against these. testdata/heldout.json, written before the
// rules, measures them (TestHeldOut).
func TestToolSchemaAndPurpose(t *testing.T) {
	c := newDefault(t)
	tests := []struct {
		desc   string
		server string
		tool   ToolInfo
		want   Class
	}{
		// Parameters that name where the arguments go.
		{"a host parameter on a server named like a local one", "filesystem",
			ToolInfo{Name: "resolve", InputSchema: schema(`"hostname":{"type":"string"}`)}, Hybrid},
		{"a host-name format", "sysinfo",
			ToolInfo{Name: "traceroute", InputSchema: schema(`"dest":{"type":"string","format":"hostname"}`)}, External},
		{"an address described in prose", "acme",
			ToolInfo{Name: "probe", InputSchema: schema(`"target":{"type":"string","description":"IP address or host name to probe"}`)}, External},
		{"an e-mail format nested in an array", "crm-local",
			ToolInfo{Name: "enroll", InputSchema: schema(`"people":{"type":"array","items":{"type":"string","format":"email"}}`)}, External},
		{"a recipient field nested in an object", "acme",
			ToolInfo{Name: "deliver", InputSchema: schema(`"message":{"type":"object","properties":{"to":{"type":"string"},"body":{"type":"string"}}}`)}, External},
		{"a URL format on a database server", "sqlite",
			ToolInfo{Name: "import_csv", InputSchema: schema(`"source":{"type":"string","format":"uri"},"table":{"type":"string"}`)}, Hybrid},
		{"a write that names a bucket", "objects",
			ToolInfo{Name: "put_blob", InputSchema: schema(`"bucket_name":{"type":"string"},"key":{"type":"string"},"body":{"type":"string"}`)}, Hybrid},
		{"a write that names a page", "wiki",
			ToolInfo{Name: "add_page", InputSchema: schema(`"parent_page":{"type":"string"},"content":{"type":"string"}`)}, Hybrid},
		{"a read that names a bucket reads", "minio",
			ToolInfo{Name: "list_objects", InputSchema: schema(`"bucket":{"type":"string"}`)}, Internal},
		{"pagination is not a page target", "sqlite",
			ToolInfo{Name: "list_tables", InputSchema: schema(`"page":{"type":"integer"}`)}, Internal},
		{"local paths are not addresses", "filesystem",
			ToolInfo{Name: "copy_file", InputSchema: schema(`"path_to_source":{"type":"string"},"destination":{"type":"string"}`)}, Internal},
		{"everything's gzip tool, as it lists itself", "everything",
			ToolInfo{Name: "gzip-file-as-resource", OpenWorldHint: ptr(true), ReadOnlyHint: ptr(false),
				InputSchema: schema(`"name":{"type":"string","description":"Name of the output file"},"data":{"type":"string","format":"uri","description":"URL or data URI of the file content to compress"}`)}, Hybrid},

		// The channels of issue 15, by name alone.
		{"an uploader's put", "s3-uploader", ToolInfo{Name: "put_object"}, Hybrid},
		{"a hosted wiki's page", "notion", ToolInfo{Name: "create_page"}, Hybrid},
		{"reading a hosted wiki stays internal", "confluence", ToolInfo{Name: "get_page"}, Internal},
		{"a local notes app", "obsidian", ToolInfo{Name: "create_note"}, Internal},
		{"an automation nothing identifies", "make-automation", ToolInfo{Name: "trigger_scenario"}, Unknown},
		{"a driver is not a drive", "db-driver", ToolInfo{Name: "query"}, Internal},

		// Text handed to a hosted model, or a copy made elsewhere (RT8-13).
		{"a summary made by an LLM", "notes",
			ToolInfo{Name: "summarize", Description: "Summarize text with an LLM.", InputSchema: schema(`"text":{"type":"string"}`)}, Hybrid},
		{"a rewrite by GPT", "acme", ToolInfo{Name: "rewrite_with_gpt"}, External},
		{"a backup of the project", "git",
			ToolInfo{Name: "backup", Description: "Back up the project.", InputSchema: schema(`"path":{"type":"string"}`)}, Hybrid},
		{"a local notes app's search stays internal", "notes", ToolInfo{Name: "search_notes"}, Internal},

		// Verbs that post, send, share, transfer or publish.
		{"sharing a folder", "drivesync", ToolInfo{Name: "share_folder"}, Hybrid},
		{"inviting someone", "workspace", ToolInfo{Name: "invite_member"}, External},
		{"moving money", "ledger", ToolInfo{Name: "transfer_money"}, External},
		{"publishing an article", "cms", ToolInfo{Name: "publish_article"}, External},

		// Tools that read a person's own records at an outside service.
		{"a library's loans", "citylibrary",
			ToolInfo{Name: "get_loans", Description: "Books the member has on loan, with due dates."}, Hybrid},
		{"a gym membership", "gymco", ToolInfo{Name: "get_membership"}, Hybrid},
		// A name that sounds like a local store is a private source too.
		{"a telehealth visit", "telehealth", ToolInfo{Name: "get_visit_notes"}, Hybrid},
		{"a phone's call log", "carrier",
			ToolInfo{Name: "call_log", Description: "Returns your recent calls with numbers and durations."}, Hybrid},
		{"direct messages at a social network", "mastodon", ToolInfo{Name: "get_direct_messages"}, Hybrid},
		{"a mailbox", "gmail", ToolInfo{Name: "search_emails"}, Hybrid},
		{"private records on the user's own store stay internal", "postgres", ToolInfo{Name: "get_orders"}, Internal},

		// Public data at an outside service stays external.
		{"a dictionary", "dictionary",
			ToolInfo{Name: "define_word", Description: "Looks up a word in a public dictionary."}, Unknown},
		{"stock quotes", "fetch",
			ToolInfo{Name: "get_quote", Description: "Latest public quote for a ticker symbol."}, External},
		{"a search with the user's query is not the user's data", "brave-search",
			ToolInfo{Name: "search", Description: "Searches the web for your query."}, External},
		{"sending only returns nothing private", "acme",
			ToolInfo{Name: "send_message", Description: "Sends a message to your contacts."}, External},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			r := c.Tool(tt.server, tt.tool)
			assert.Equal(t, tt.want, r.Class, r.Reason)
			if tt.want != Unknown {
				assert.Greater(t, r.Confidence, fallbackConfidence, r.Reason)
			}
		})
	}
}
