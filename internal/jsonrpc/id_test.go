package jsonrpc

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestIDText(t *testing.T) {
	long := strings.Repeat("é", 100) // 200 bytes
	tests := []struct{ raw, want string }{
		{``, ""},
		{`null`, ""},
		{`7`, "7"},
		{`-1.5e3`, "-1.5e3"},
		{`"abc"`, "abc"},
		{`""`, ""},
		{`"a\"b\u00e9"`, `a"bé`},
		{`"` + long + `"`, strings.Repeat("é", 64) + "…"},
		{`"` + "x" + long + `"`, "x" + strings.Repeat("é", 63) + "…"}, // cut before a character's second byte
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, IDText([]byte(tt.raw)), tt.raw)
	}
}
