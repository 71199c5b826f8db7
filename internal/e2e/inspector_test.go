//go:build unix

package e2e

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// The Inspector's CLI declares roots, so server-everything asks it for them
// and then does not exit on stdin EOF: the SDK's close sequence (EOF, 2s,
// SIGTERM, 2s, SIGKILL) only ends the server early if the shim forwards
// SIGTERM. A shim that does not leaves an orphan holding stderr, and the
// call takes a minute instead of about three seconds.
func TestInspectorCLISameThroughShim(t *testing.T) {
	t.Parallel()
	tools := toolsDir(t)
	node := nodeBin(t)
	f := startFlowd(t, "")
	server := []string{node, everythingJS(tools), "stdio"}
	t.Run("calls", func(t *testing.T) { inspectorCalls(t, tools, f, server) })
	f.waitToolCalls(t, "get-sum", "echo")
}

func inspectorCalls(t *testing.T, tools string, f *flowd, server []string) {
	for _, tc := range []struct {
		name     string
		args     []string
		wantCode int
	}{
		{"tools/list", []string{"--method", "tools/list"}, 0},
		{"tools/call", []string{"--method", "tools/call", "--tool-name", "get-sum", "--tool-arg", "a=2", "b=3"}, 0},
		{"prompts/get", []string{"--method", "prompts/get", "--prompt-name", "args-prompt", "--prompt-args", "city=Paris"}, 0},
		// 5: the tool answered isError.
		{"tools/call isError", []string{"--method", "tools/call", "--tool-name", "echo"}, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			inspect := func(target []string) (stdout []byte, code int, took time.Duration) {
				argv := append([]string{"npx", "--offline", "@modelcontextprotocol/inspector", "--cli"}, tc.args...)
				argv = append(append(argv, "--format", "json", "-q", "--"), target...)
				start := time.Now()
				stdout, stderr, code := runTool(t, tools, 90*time.Second, argv)
				if code != tc.wantCode {
					t.Errorf("inspector %v exited %d, want %d\nstdout: %s\nstderr: %s", target, code, tc.wantCode, clip(stdout), clip(stderr))
				}
				return stdout, code, time.Since(start)
			}
			direct, _, tookDirect := inspect(server)
			shimmed, _, tookShim := inspect(f.shim(server...))
			if tc.wantCode == 0 {
				assert.NotEmpty(t, direct, "the inspector printed a result")
			}
			assert.Equal(t, string(direct), string(shimmed), "inspector output direct vs through the shim")
			assert.Less(t, tookShim, 15*time.Second, "the call through the shim returns in seconds")
			t.Logf("direct %v, through the shim %v", tookDirect.Round(time.Millisecond), tookShim.Round(time.Millisecond))
		})
	}
}
