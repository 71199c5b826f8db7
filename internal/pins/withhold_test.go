package pins

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWithhold: the reasons survive a restart, and a tool listed again
// without one is no longer withheld; tools not in the listing keep
// theirs (another page).
func TestWithhold(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pins.db")
	s, err := Open(path, Options{})
	require.NoError(t, err)
	cmd := []string{"npx", "server-math"}
	require.NoError(t, s.Withhold("math", cmd, []string{"add"}, map[string]string{"add": "x"}), "an unknown server is a no-op")
	assert.Empty(t, s.List())

	add := tool(t, `{"name":"add","description":"Adds"}`)
	sub := tool(t, `{"name":"sub","description":"Subtracts"}`)
	_, err = s.Observe("math", cmd, []Tool{add, sub}, true)
	require.NoError(t, err)
	require.NoError(t, s.Withhold("math", cmd, []string{"add", "sub"}, map[string]string{"add": "poisoned description"}))
	require.NoError(t, s.Close())

	s, err = Open(path, Options{})
	require.NoError(t, err)
	defer s.Close()
	assert.Equal(t, map[string]string{"add": "poisoned description"}, s.List()[0].Withheld)
	require.NoError(t, s.Withhold("math", cmd, []string{"sub"}, nil))
	assert.Equal(t, map[string]string{"add": "poisoned description"}, s.List()[0].Withheld, "another page leaves add alone")
	require.NoError(t, s.Withhold("math", cmd, []string{"add"}, nil))
	assert.Empty(t, s.List()[0].Withheld)
}
