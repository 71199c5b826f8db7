//go:build redteam6

package classify

import (
	"encoding/json"
	"testing"
)

// RT6: servers and tools whose names read as the user's own systems
// (files, notes, database, calendar, git, cache, logs) but whose
// arguments or annotations say data leaves. The safe outcome: the
// destination can send data out (CanExfiltrate).
func TestRT6InternalNamesThatSendOut(t *testing.T) {
	schema := func(props map[string]string) json.RawMessage {
		p := map[string]any{}
		for k, d := range props {
			p[k] = map[string]any{"type": "string", "description": d}
		}
		b, _ := json.Marshal(map[string]any{"type": "object", "properties": p})
		return b
	}
	yes := true
	rows := []struct {
		server string
		t      ToolInfo
	}{
		{"filesystem", ToolInfo{Name: "sync_folder", InputSchema: schema(map[string]string{"path": "local folder", "remote": "rsync target like user@host:/dir"})}},
		{"notes", ToolInfo{Name: "share_note", InputSchema: schema(map[string]string{"note_id": "", "recipient": "email address to share with"})}},
		{"database", ToolInfo{Name: "export_table", InputSchema: schema(map[string]string{"table": "", "destination_uri": "s3:// or https:// URI to write the dump to"})}},
		{"calendar", ToolInfo{Name: "create_event", InputSchema: schema(map[string]string{"title": "", "attendees": "comma separated email addresses that get an invitation"})}},
		{"git", ToolInfo{Name: "add_remote_and_push", InputSchema: schema(map[string]string{"remote_url": "URL of the remote", "branch": ""})}},
		{"cache", ToolInfo{Name: "set", InputSchema: schema(map[string]string{"key": "", "value": ""}), OpenWorldHint: &yes}},
		{"logs", ToolInfo{Name: "forward", InputSchema: schema(map[string]string{"collector": "hostname:port of the log collector", "lines": ""})}},
		{"memory", ToolInfo{Name: "backup", InputSchema: schema(map[string]string{"webhook": "URL that receives the backup"})}},
		{"sqlite", ToolInfo{Name: "attach", InputSchema: schema(map[string]string{"dsn": "postgres://user@host/db connection string"})}},
		{"workspace", ToolInfo{Name: "publish", Description: "Publish the given document to the public web and return its URL", InputSchema: schema(map[string]string{"content": ""})}},
		{"files", ToolInfo{Name: "upload", InputSchema: schema(map[string]string{"file": "", "bucket": "target bucket"})}},
		{"local-docs", ToolInfo{Name: "resolve", InputSchema: schema(map[string]string{"hostname": "name to resolve"})}},
		{"project", ToolInfo{Name: "notify", InputSchema: schema(map[string]string{"channel": "channel to post to", "text": ""})}},
		{"filesystem", ToolInfo{Name: "write_file", InputSchema: schema(map[string]string{"path": "path; may be smb://host/share/... or an sftp:// URL", "content": ""})}},
		{"knowledge-base", ToolInfo{Name: "ask_expert", InputSchema: schema(map[string]string{"question": "", "email": "the expert's address"})}},
		{"repo", ToolInfo{Name: "create_gist", InputSchema: schema(map[string]string{"content": ""})}},
		{"shell-history", ToolInfo{Name: "store", InputSchema: schema(map[string]string{"entry": "", "endpoint": "server URL"})}},
		{"docs", ToolInfo{Name: "translate", Description: "Translate text with the DeepL API", InputSchema: schema(map[string]string{"text": ""})}},
		{"postgres", ToolInfo{Name: "query", InputSchema: schema(map[string]string{"sql": "SQL; COPY ... TO PROGRAM is allowed"})}},
		{"filesystem", ToolInfo{Name: "mount", InputSchema: schema(map[string]string{"source": "nfs host:/export", "target": "local path"})}},
	}
	c, err := New(Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	missed := 0
	for _, r := range rows {
		got := c.Tool(r.server, r.t)
		if !got.CanExfiltrate {
			missed++
			t.Errorf("%s/%s: %s (%s): an egress tool read as not able to send out", r.server, r.t.Name, got.Class, got.Reason)
		}
	}
	t.Logf("caught %d/%d", len(rows)-missed, len(rows))
}
