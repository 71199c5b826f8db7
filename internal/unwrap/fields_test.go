package unwrap

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestJoinFields(t *testing.T) {
	has := func(text, want string) bool {
		j, ok := joinFields([]byte(text))
		return ok && strings.Contains(string(j), want)
	}
	// Neighbours, in either order, in arrays, and across a larger object.
	assert.True(t, has(`{"id":"AKIAZ3Q7","rest":"MXK2PLW9TR4V","n":3}`, "id = AKIAZ3Q7MXK2PLW9TR4V\n"))
	assert.True(t, has(`{"tail":"MXK2PLW9TR4V","head":"AKIAZ3Q7"}`, "head = AKIAZ3Q7MXK2PLW9TR4V\n"))
	assert.True(t, has(`{"parts":["ghp_R7kQ2mZx9","LwV4tYp8NcB3sHd6","FjA1gUe5Ko0"]}`, "parts = ghp_R7kQ2mZx9LwV4tYp8NcB3sHd6FjA1gUe5Ko0\n"))
	big := `{"a":"1","b":"2","c":"3","d":"4","e":"5","f":"6","g":"7","token":"ghp_R7kQ2mZx9","x":"LwV4tYp8NcB3sHd6","y":"FjA1gUe5Ko0"}`
	assert.True(t, has(big, "token = ghp_R7kQ2mZx9LwV4tYp8NcB3sHd6FjA1gUe5Ko0\n"))
	assert.True(t, has(`{"outer":{"k1":"c2stbGl2ZS1h","k2":"YmNkZWYxMjM0"}}`, "k1 = c2stbGl2ZS1hYmNkZWYxMjM0\n"))
	// Nothing to join: one value, prose, no JSON, a JSON string.
	for _, text := range []string{`{"q":"golang"}`, `{"text":"a long sentence with spaces","n":1}`, `q=a&b=c`, `"just a string"`, `{"a":`, ``} {
		j, ok := joinFields([]byte(text))
		assert.False(t, ok, "%q gave %q", text, j)
	}
	// Bounded: a large object joins neighbours only.
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < 1000; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + strings.Repeat("x", i%7) + `":"v` + strings.Repeat("y", i%13) + `"`)
	}
	b.WriteString("}")
	j, ok := joinFields([]byte(b.String()))
	assert.True(t, ok)
	assert.Less(t, len(j), 4*b.Len())
}
