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

// config show --effective prints every key in force with its source; the
// machine under test has no managed policy (tests never write one to
// /etc), so the sources are the defaults and the user file. The managed
// file's part is tested in internal/managed with real files.
func TestConfigShowEffective(t *testing.T) {
	if _, err := os.Stat("/etc/flowd/managed.toml"); err == nil {
		t.Skip("this machine has a managed policy, which would change every source")
	}
	user := filepath.Join(t.TempDir(), "config.toml")
	require.NoError(t, os.WriteFile(user, []byte("[shim]\nfail_mode = \"closed\"\n[policy.tool_overrides]\nrm = \"deny\"\n"), 0o600))
	out, err := exec.Command(flowdBin(t), "config", "show", "--effective", user).CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Regexp(t, `(?m)^shim\.fail_mode = 'closed' +# user file$`, string(out))
	assert.Regexp(t, `(?m)^policy\.tool_overrides\.rm = 'deny' +# user file$`, string(out))
	assert.Regexp(t, `(?m)^policy\.default_action = 'allow' +# default$`, string(out))
	assert.Contains(t, string(out), "bounded by the managed file (none)")

	out, err = exec.Command(flowdBin(t), "config", "show", user).CombinedOutput()
	assert.Error(t, err)
	assert.Contains(t, string(out), "say --effective")
}
