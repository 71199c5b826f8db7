//go:build unix && redteam7

package e2e

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// RT7-15: a result whose content flowd cannot read. A page padded past
// the scan's bounds is flagged and taints the session
// (injection.on_incomplete = "untrusted"), because what was not read may
// hold instructions; an image from the same external server is not read
// at all (no OCR), and a model reads the text in an image as it reads a
// page, yet it passes without a notice and leaves the session untainted.
func TestRT7ExternalImagePassesUnflagged(t *testing.T) {
	f := startFlowd(t, "")
	png := base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\x00\x00\x00\x80\x08\x02\x00\x00\x00" + strings.Repeat("\x00", 64)))
	res := `{"content":[{"type":"image","data":"` + png + `","mimeType":"image/png"}]}`
	s, _ := rt7Server(t, f, "browser", []any{rt7Tool("screenshot", "Take a screenshot of a web page", map[string]string{"url": "page URL"})}, res,
		"FLOWD_SESSION=rt7-img")
	line := s.roundTrip(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"screenshot","arguments":{"url":"https://news.example.com/"}}}`)
	t.Logf("answer: %.200s", line)
	flagged := strings.Contains(line, "flowd notice") || strings.Contains(line, "flowd blocked")
	for _, r := range f.activity(t, "tool_call") {
		t.Logf("flowd: %s %s %s %.300s", r.Tool, r.Verdict, r.Reason, r.Details)
	}
	assert.True(t, flagged, "an image from an external server reached the model as trusted as text flowd read")
}
