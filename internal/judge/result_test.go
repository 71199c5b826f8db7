package judge

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/classify"
	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/injection"
)

func TestOnIncomplete(t *testing.T) {
	cut := injection.Result{Action: injection.ActionPass, Truncated: true}
	whole := injection.Result{Action: injection.ActionPass}
	found := injection.Result{Action: injection.ActionRedact, Score: 0.7, Truncated: true}
	tests := []struct {
		name          string
		r             injection.Result
		mode          string
		external      bool
		want          injection.Action
		wantUnscanned bool
	}{
		{"pass keeps a cut result's verdict", cut, config.IncompletePass, true, injection.ActionPass, false},
		{"flag flags a cut result that would pass", cut, config.IncompleteFlag, true, injection.ActionFlag, true},
		{"flag flags it from an internal source too", cut, config.IncompleteFlag, false, injection.ActionFlag, true},
		{"untrusted flags a cut result from outside", cut, config.IncompleteUntrusted, true, injection.ActionFlag, true},
		{"untrusted keeps an internal source's verdict", cut, config.IncompleteUntrusted, false, injection.ActionPass, false},
		{"a result scanned whole is not touched", whole, config.IncompleteFlag, true, injection.ActionPass, false},
		{"what the scanned part scored stands", found, config.IncompleteFlag, true, injection.ActionRedact, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, unscanned := onIncomplete(tc.r, tc.mode, tc.external)
			assert.Equal(t, tc.want, r.Action)
			assert.Equal(t, tc.wantUnscanned, unscanned)
		})
	}
}

// A model reads the text in an image as it reads a page, and the scan
// cannot read it: an image or audio from a source that may be external is
// content not scanned whole, flagged and tainting as a page cut short is
// (found by a red team: a screenshot passed unflagged and left the
// session untainted). From an internal source it passes as before.
func TestMediaIsNotScannedWhole(t *testing.T) {
	j, _ := judgeWithPrints(t, nil)
	for name, content := range map[string]string{
		"an image":      `{"content":[{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}]}`,
		"audio":         `{"content":[{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}]}`,
		"a binary blob": `{"content":[{"type":"resource","resource":{"uri":"file:///a.pdf","mimeType":"application/pdf","blob":"JVBERi0="}}]}`,
	} {
		s := j.Result(Result{Session: "ext-" + name, Server: "browser", Tool: "screenshot", Class: classify.External, Content: []byte(content)})
		assert.Equal(t, injection.ActionFlag, s.Found.Action, name)
		assert.True(t, s.Unscanned, name)
		require.NotNil(t, s.Report, name)
		assert.True(t, s.Report.Tainted, name)
		assert.Contains(t, CoverageText(*s.Report.Scan), "image, audio or binary", name)

		s = j.Result(Result{Session: "int-" + name, Server: "filesystem", Tool: "read_media_file", Class: classify.Internal, Content: []byte(content)})
		assert.Equal(t, injection.ActionPass, s.Found.Action, "%s from an internal source", name)
	}
}
