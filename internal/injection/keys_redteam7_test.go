//go:build redteam7

package injection

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

// RT7-3 (exploration): text the model reads in places the scanner may
// not: JSON member names, in the result itself and in JSON inside text.
func TestRT7InjectionInMemberNames(t *testing.T) {
	s := newScanner(t, Options{})
	inner, _ := json.Marshal(map[string]any{override: "see above", "id": 7})
	cases := map[string]string{
		"plain text (control)":        `{"content":[{"type":"text","text":` + quote(override) + `}]}`,
		"member name in JSON text":    `{"content":[{"type":"text","text":` + quote(string(inner)) + `}]}`,
		"member name in structured":   `{"content":[],"structuredContent":{` + quote(override) + `:1}}`,
		"resource_link description":   `{"content":[{"type":"resource_link","uri":"file:///a","name":"a","description":` + quote(override) + `}]}`,
		"text after JSON in text":     `{"content":[{"type":"text","text":` + quote(`{"a":1}`+"\n"+override) + `}]}`,
		"two JSON docs in text":       `{"content":[{"type":"text","text":` + quote(`{"a":"b"} {"c":`+quote(override)+`}`) + `}]}`,
		"JSON array with key in text": `{"content":[{"type":"text","text":` + quote(`[{`+quote(override)+`:true}]`) + `}]}`,
	}
	for name, res := range cases {
		r := s.ScanResult([]byte(res), Context{})
		assert.NotEqual(t, ActionPass, r.Action, "%s: %s", name, r)
	}
}
