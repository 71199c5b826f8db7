//go:build unix

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tsBattery puts testdata/ts-battery.mjs where its imports resolve: ESM
// looks for packages next to the script (NODE_PATH does not apply to
// import), so the copy sits beside a node_modules link to the tools.
func tsBattery(t *testing.T, tools string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.Symlink(filepath.Join(tools, "node_modules"), filepath.Join(dir, "node_modules")))
	src, err := os.ReadFile(filepath.Join("testdata", "ts-battery.mjs"))
	require.NoError(t, err)
	script := filepath.Join(dir, "ts-battery.mjs")
	require.NoError(t, os.WriteFile(script, src, 0o644))
	return script
}

func TestTSClientSameThroughShim(t *testing.T) {
	t.Parallel()
	tools := toolsDir(t)
	node := nodeBin(t)
	f := startFlowd(t, bigCheckBudget) // its 10 MB echo: see TestMCPGoEverythingSameThroughShim
	script := tsBattery(t, tools)
	server := []string{node, everythingJS(tools), "stdio"}

	var direct, shimmed []byte
	var shimStderr string
	t.Run("run", func(t *testing.T) {
		t.Run("direct", func(t *testing.T) {
			t.Parallel()
			out, stderr, code := runTool(t, "", time.Minute, append([]string{node, script, "--"}, server...))
			require.Equal(t, 0, code, "ts-battery exit code; stderr:\n%s", stderr)
			direct = out
		})
		t.Run("shim", func(t *testing.T) {
			t.Parallel()
			out, stderr, code := runTool(t, "", time.Minute, append([]string{node, script, "--"}, f.shim(server...)...))
			require.Equal(t, 0, code, "ts-battery exit code; stderr:\n%s", stderr)
			shimmed, shimStderr = out, string(stderr)
		})
	})
	if t.Failed() {
		t.FailNow()
	}
	if string(direct) != string(shimmed) {
		t.Errorf("the TS client saw different things direct and through the shim: %s", diffAt(direct, shimmed))
	}

	// The output is the same; check it is also what the battery is for, so
	// a broken battery cannot pass by failing the same way twice.
	var got map[string]struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	require.NoError(t, json.Unmarshal(direct, &got), "ts-battery output %s", clip(direct))
	for name, s := range got {
		assert.Empty(t, s.Error, "step %s failed", name)
	}
	var big struct {
		Bytes int  `json:"bytes"`
		Whole bool `json:"whole"`
	}
	require.NoError(t, json.Unmarshal(got["echo 1.5 MiB"].Result, &big))
	assert.True(t, big.Whole, "the 1.5 MiB echo came back whole")
	assert.Greater(t, big.Bytes, 1<<20)
	assert.Contains(t, string(got["structuredContent"].Result), `"structuredContent":{"temperature":33`)
	assert.Contains(t, string(got["progress"].Result), `"progress":[{"progress":1,"total":3},{"progress":2,"total":3},{"progress":3,"total":3}]`)
	assert.Contains(t, string(got["sampling"].Result), "flowd-e2e-model", "the sampling answer reached the server")
	assert.Contains(t, string(got["elicitation"].Result), "Ada Lovelace", "the elicitation answer reached the server")
	assert.Contains(t, string(got["blob resource"].Result), `"blob":"H4sI`, "a gzip blob resource")
	cancel := string(got["cancel"].Result)
	assert.Contains(t, cancel, "flowd e2e cancel", "the call was cancelled")
	assert.Contains(t, cancel, `\"progress\":3`, "the server finished the operation")
	assert.NotContains(t, cancel, "unknown message ID", "the server answered a cancelled call: notifications/cancelled did not reach it")

	f.waitToolCalls(t, "echo", "get-structured-content", "trigger-sampling-request", "trigger-elicitation-request")
	noShimComplaints(t, shimStderr)
	assert.Contains(t, shimStderr, "Starting default (STDIO) server", "the server's stderr passed through")
}
