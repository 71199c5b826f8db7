package injection

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWalkJSON(t *testing.T) {
	data := `{"content":[{"type":"text","text":"caf\u00e9 \ud83d\ude00 \"q\" \\ \/"}],` +
		`"structuredContent":{"events":[{"description":"x"},{"a.b":"dotted"}]},"n":1.5e3,"ok":true,"none":null}`
	type got struct{ path, value, raw string }
	var seen []got
	require.NoError(t, walkJSON([]byte(data), func(p *jsonPath, q span, v string) bool {
		seen = append(seen, got{p.String(), v, data[q.start:q.end]})
		return true
	}))
	assert.Equal(t, []got{
		{"content[0].type", "text", `"text"`},
		{"content[0].text", `café 😀 "q" \ /`, `"caf\u00e9 \ud83d\ude00 \"q\" \\ \/"`},
		{"structuredContent.events[0].description", "x", `"x"`},
		{`structuredContent.events[1]["a.b"]`, "dotted", `"dotted"`},
	}, seen)
}

func TestWalkJSONDuplicateKeys(t *testing.T) {
	var paths []string
	require.NoError(t, walkJSON([]byte(`{"a":"1","b":"2","a":"3"}`), func(p *jsonPath, _ span, _ string) bool {
		paths = append(paths, p.String())
		return true
	}))
	assert.Equal(t, []string{"a", "b", "a#2"}, paths)
}

func TestWalkJSONStops(t *testing.T) {
	n := 0
	require.NoError(t, walkJSON([]byte(`["a","b","c"]`), func(*jsonPath, span, string) bool {
		n++
		return n < 2
	}))
	assert.Equal(t, 2, n)
}

func TestWalkJSONRejectsInvalid(t *testing.T) {
	for _, in := range []string{``, `{`, `{"a":}`, `["a",]`, `{"a":"b"} x`, `"unterminated`, "\"ctl\x01\"", `{"a" "b"}`, `tru`, `"\q"`} {
		err := walkJSON([]byte(in), func(*jsonPath, span, string) bool { return true })
		assert.Error(t, err, "%q", in)
	}
	deep := make([]byte, 0, 2*maxJSONNesting+4)
	for i := 0; i < maxJSONNesting+2; i++ {
		deep = append(deep, '[')
	}
	assert.ErrorIs(t, walkJSON(deep, func(*jsonPath, span, string) bool { return true }), errJSONDepth)
}
