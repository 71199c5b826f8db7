package unwrap

import (
	"bytes"
	"encoding/base64"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Views keeps its walkers' buffers for the next text (walkers): the views
// it returned belong to the caller and must not change when another text
// is unwrapped, with decodings (made in scratch) among them.
func TestViewsOutliveTheNextCall(t *testing.T) {
	first := []byte(`{"a":"` + base64.StdEncoding.EncodeToString([]byte("https://webhook.site/collect?k=1")) + `","b":"aGVsbG8gd29ybGQgaGVsbG8gd29ybGQ="}`)
	// A run as long as the first text's, decoded into the same scratch.
	second := []byte(`{"x":"` + base64.StdEncoding.EncodeToString([]byte("https://example.org/other?k=2222")) + `"}`)
	views := Views(first)
	require.NotEmpty(t, views)
	kept := make([][]byte, len(views))
	for i, v := range views {
		kept[i] = bytes.Clone(v)
	}
	for range 3 {
		Views(first)
		Views(second)
	}
	assert.Equal(t, kept, views, "a view changed after later calls")
	assert.Equal(t, kept, Views(first), "the same text gives other views on a reused walker")
	assert.True(t, slices.ContainsFunc(views, func(v []byte) bool { return bytes.Contains(v, []byte("webhook.site/collect")) }),
		"the decoded run is among the views: %q", views)
}
