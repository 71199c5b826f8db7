package classify

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// RT6-7: tools on servers named like local ones whose egress shows only
// in a parameter's example ("examples", "example", "default", or "e.g."
// in its description) were read as internal. An example that is an
// address says the value is one; a reference link in prose does not.
func TestExampleValuesAreEgressEvidence(t *testing.T) {
	c := newDefault(t)
	tests := []struct {
		desc, server string
		tool         ToolInfo
		sends        bool
		why          string // in the reason, when sends
	}{
		{"a webhook shown in the description", "notes",
			ToolInfo{Name: "save", InputSchema: schema(`"target":{"type":"string","description":"target, e.g. https://hooks.example.com/x"}`)}, true, `a URL ("https://hooks.example.com/x")`},
		{"an e-mail address in examples", "notes",
			ToolInfo{Name: "add_entry", InputSchema: schema(`"with":{"type":"string","examples":["user@example.com"]}`)}, true, "an e-mail address"},
		{"a URL as the default", "cache",
			ToolInfo{Name: "flush", InputSchema: schema(`"sink":{"type":"string","default":"https://collector.example.net/ingest"}`)}, true, "a URL"},
		{"OpenAPI's singular example", "memory",
			ToolInfo{Name: "backup", InputSchema: schema(`"dest":{"type":"string","example":"s3://my-bucket/backups"}`)}, true, "a URL"},
		{"an rsync target in prose", "filesystem",
			ToolInfo{Name: "sync_folder", InputSchema: schema(`"path":{"type":"string"},"remote":{"type":"string","description":"rsync target like user@host:/dir"}`)}, true, "a remote host"},
		{"a connection string in prose", "sqlite",
			ToolInfo{Name: "attach", InputSchema: schema(`"dsn":{"type":"string","description":"postgres://user@host/db connection string"}`)}, true, "a URL"},
		{"an NFS export in prose", "filesystem",
			ToolInfo{Name: "mount", InputSchema: schema(`"source":{"type":"string","description":"nfs host:/export"},"target":{"type":"string","description":"local path"}`)}, true, "a remote host"},
		{"a network share in examples", "files",
			ToolInfo{Name: "copy_to", InputSchema: schema(`"dest":{"type":"string","examples":["\\\\fileserver\\public\\drop"]}`)}, true, "a network share"},
		{"an array's item examples", "notes",
			ToolInfo{Name: "share", InputSchema: schema(`"people":{"type":"array","items":{"type":"string","examples":["ana@corp.example"]}}`)}, true, "an e-mail address"},

		// Hard negatives: examples that are not places the tool contacts.
		{"a documentation link", "notes",
			ToolInfo{Name: "search_notes", InputSchema: schema(`"query":{"type":"string","description":"Query syntax: see https://docs.example.com/search for details"}`)}, false, ""},
		{"whom to ask, in prose", "database",
			ToolInfo{Name: "run_query", InputSchema: schema(`"sql":{"type":"string","description":"Read-only SQL. Ask dba@corp.example for write access."}`)}, false, ""},
		{"a path example", "filesystem",
			ToolInfo{Name: "read_file", InputSchema: schema(`"path":{"type":"string","description":"e.g. /home/me/notes.md or C:/Users/me/notes.md","examples":["./README.md","~/todo.txt"]}`)}, false, ""},
		{"a file URL", "filesystem",
			ToolInfo{Name: "open_doc", InputSchema: schema(`"doc":{"type":"string","examples":["file:///tmp/report.pdf"],"default":"file:///home/me/a.txt"}`)}, false, ""},
		{"times, scopes and key:value", "notes",
			ToolInfo{Name: "list_events", InputSchema: schema(`"at":{"type":"string","examples":["12:30","2024-01-01T09:00:00Z"]},"pkg":{"type":"string","default":"@scope/pkg"},"filter":{"type":"string","description":"e.g. status:open label:bug"}`)}, false, ""},
		{"a git ref and a branch default", "git",
			ToolInfo{Name: "git_log", InputSchema: schema(`"ref":{"type":"string","default":"main","examples":["HEAD~3","origin/main"]}`)}, false, ""},
		{"numbers and booleans", "sqlite",
			ToolInfo{Name: "list_tables", InputSchema: schema(`"limit":{"type":"integer","default":50,"examples":[10,20]},"all":{"type":"boolean","default":false}`)}, false, ""},
	}
	var caught, pos, fp, neg int
	for _, tt := range tests {
		r := c.Tool(tt.server, tt.tool)
		sends := r.Class != Internal
		if tt.sends {
			pos++
			if sends {
				caught++
			}
			assert.True(t, sends, "%s: %s (%s)", tt.desc, r.Class, r.Reason)
			assert.Contains(t, r.Reason, tt.why, tt.desc)
			assert.Contains(t, r.Reason, "has an example value that is", "flowd classify says why: %s", tt.desc)
		} else {
			neg++
			if sends {
				fp++
			}
			assert.False(t, sends, "%s: %s (%s)", tt.desc, r.Class, r.Reason)
		}
	}
	t.Logf("example evidence: egress tools caught %d/%d, local tools taken as destinations %d/%d", caught, pos, fp, neg)
}

// A schema's example list is the server's to write: only so much is read.
func TestExamplesAreBounded(t *testing.T) {
	long := strings.Repeat("a", maxExampleLength) + "@example.com"
	many := `"x":{"type":"string","examples":["a","b","c","d","e","f","g","h","user@example.com"]}`
	for _, props := range []string{`"x":{"type":"string","examples":["` + long + `"]}`, many} {
		ps := schemaParams(schema(props))
		_, what, _ := exampleAddress(ps[0])
		assert.Empty(t, what)
	}
	assert.Equal(t, strings.Repeat("é", maxShownExample/2)+"…", shown(strings.Repeat("é", 100)))
}
