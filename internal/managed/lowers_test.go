package managed

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A FLOWD_CONFIG named in a server's env is ignored where it lowers
// protection from the user's own file (paths.SteerEnv asks Lowers).
func TestLowers(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
		return p
	}
	own := write("own.toml", "[shim]\nfail_mode = \"closed\"\n")
	assert.NotEmpty(t, Lowers(write("open.toml", "[shim]\nfail_mode = \"open\"\n"), own), "fail_mode closed → open")
	assert.Empty(t, Lowers(write("same.toml", "[shim]\nfail_mode = \"closed\"\n"), own))
	assert.Empty(t, Lowers(write("empty.toml", ""), filepath.Join(dir, "none.toml")), "the defaults against no file of the user's")
	assert.NotEmpty(t, Lowers(filepath.Join(dir, "missing.toml"), own), "a file that cannot be read")
	assert.NotEmpty(t, Lowers(write("bad.toml", "[shim\n"), own))
}
