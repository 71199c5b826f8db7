package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A malformed config stops flowd before it listens, with the key and the
// line in the message; so does an explicitly named file that is missing.
func TestRunRefusesBadConfig(t *testing.T) {
	dir := shortDir(t)
	bad := filepath.Join(dir, "bad.toml")
	require.NoError(t, os.WriteFile(bad, []byte("[shim]\nfail_mode = \"open\"\nverdict_timout = \"5s\"\n"), 0o600))
	for name, cfg := range map[string]string{"unknown key": bad, "missing file": filepath.Join(dir, "none.toml")} {
		t.Run(name, func(t *testing.T) {
			cmd := exec.Command(flowdBin(t), "run", "--config", cfg, "--socket", filepath.Join(dir, "s", "f.sock"), "--data-dir", filepath.Join(dir, "d"))
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			require.True(t, errors.As(err, &ee), "flowd must exit with an error: %v\n%s", err, out)
			assert.Equal(t, 1, ee.ExitCode())
			assert.Contains(t, string(out), "refusing to start")
			if cfg == bad {
				assert.Contains(t, string(out), "bad.toml:3")
				assert.Contains(t, string(out), `"shim.verdict_timout"`)
			}
			_, err = os.Stat(filepath.Join(dir, "s", "f.sock"))
			assert.True(t, os.IsNotExist(err), "no socket was created")
		})
	}
	out, err := exec.Command(flowdBin(t), "config", "check", bad).CombinedOutput()
	assert.Error(t, err)
	assert.Contains(t, string(out), "bad.toml:3")
}
