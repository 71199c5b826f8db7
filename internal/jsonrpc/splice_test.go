package jsonrpc

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSplice(t *testing.T) {
	line := []byte(`{"id":1,"result":{"a":1}}` + "\n")
	e, err := Parse(line)
	require.NoError(t, err)
	assert.Equal(t, `{"id":1,"result":{"b":2}}`+"\n", string(Splice(line, e.Result, []byte(`{"b":2}`))))
	assert.Equal(t, `{"id":1,"result":{"a":1}}`+"\n", string(line), "the original is not touched")
}
