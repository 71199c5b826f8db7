package sessionid

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseStat(t *testing.T) {
	line := "1234 (we(ird) name) S 77 1234 1234 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 5555 1 2 3\n"
	p, ok := parseStat([]byte(line))
	require.True(t, ok)
	assert.Equal(t, "we(ird) name", p.name)
	assert.Equal(t, 77, p.ppid)
	assert.Equal(t, uint64(5555), p.start)
	_, ok = parseStat([]byte("garbage"))
	assert.False(t, ok)
}
