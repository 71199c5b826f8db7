package quarantine

import (
	"encoding/json"
	"strings"

	"github.com/flowd-dev/flowd/internal/injection"
	"github.com/flowd-dev/flowd/internal/untrusted"
)

// Shown is it as flowd shows it to a viewer (the API, the dashboard,
// the CLI, flowd mcp): names neutralised (untrusted.Text), the
// detections' excerpts fenced as data (untrusted.Quote), and the
// content as the text a model would have read — a tool result's text
// parts, other parts as their JSON — neutralised as a block of lines
// (untrusted.Block). The text is decoded first: neutralising the JSON
// would leave escapes (\u001b) that a viewer decoding it turns back into
// the characters. It is applied once, where an item leaves flowd (the
// API): a text that is itself a result's JSON would be decoded again.
func (it Item) Shown() Item {
	it.Session = untrusted.Text(it.Session)
	it.Server = untrusted.Text(it.Server)
	it.Tool = untrusted.Text(it.Tool)
	it.Method = untrusted.Text(it.Method)
	it.Unreadable = untrusted.Text(it.Unreadable)
	if it.Detections != nil {
		ds := make([]injection.Detection, len(it.Detections))
		for i, d := range it.Detections {
			d.Field = untrusted.Text(d.Field)
			d.Note = untrusted.Text(d.Note)
			if d.Excerpt != "" {
				d.Excerpt = untrusted.Quote(d.Excerpt)
			}
			ds[i] = d
		}
		it.Detections = ds
	}
	it.Content = untrusted.Block(readable(it.Content))
	return it
}

// readable is a tool result's text parts, one after another, or the
// content as it is when it is not a result.
func readable(content string) string {
	var res struct {
		Content []json.RawMessage `json:"content"`
	}
	if !strings.HasPrefix(strings.TrimSpace(content), "{") || json.Unmarshal([]byte(content), &res) != nil || res.Content == nil {
		return content
	}
	parts := make([]string, 0, len(res.Content))
	for _, raw := range res.Content {
		var p struct{ Type, Text string }
		if json.Unmarshal(raw, &p) == nil && p.Type == "text" {
			parts = append(parts, p.Text)
		} else {
			parts = append(parts, string(raw))
		}
	}
	return strings.Join(parts, "\n")
}
