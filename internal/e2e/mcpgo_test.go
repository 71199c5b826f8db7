//go:build unix

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The batteries below run one fixed sequence of requests with mcp-go's
// client against a real server twice, directly and behind the shim, and
// require the same JSON for every step. Nothing is normalised: a step
// whose answer is not deterministic (timestamps, access times) is left out
// of the battery instead.

// step is one request of a battery and its outcome as JSON: the result, or
// {"error": …} when the client returned an error.
type step struct {
	name string
	json []byte
}

// goSession is one mcp-go client connected to one server process.
type goSession struct {
	t      *testing.T
	ctx    context.Context
	c      *client.Client
	stderr *syncBuffer
	steps  []step

	mu       sync.Mutex
	progress map[string][]json.RawMessage // notifications/progress params by token, in arrival order
	arrived  chan struct{}                // closed on the next progress notification
}

func newGoSession(t *testing.T, argv []string, env ...string) *goSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	s := &goSession{t: t, ctx: ctx, stderr: &syncBuffer{}, progress: map[string][]json.RawMessage{}, arrived: make(chan struct{})}
	c, err := client.NewStdioMCPClientWithOptions(argv[0], env, argv[1:], transport.WithCommandStderrWriter(s.stderr))
	require.NoError(t, err, "start %v", argv)
	s.c = c
	t.Cleanup(func() {
		c.Close()
		if t.Failed() {
			t.Logf("stderr of %v:\n%s", argv, s.stderr)
		}
	})
	// NewStdioMCPClient starts only the transport; Start wires the
	// client's notification handlers to it.
	require.NoError(t, c.Start(ctx))
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method != "notifications/progress" {
			return
		}
		params, err := json.Marshal(n.Params)
		if err != nil {
			return
		}
		var p struct {
			Token any `json:"progressToken"`
		}
		json.Unmarshal(params, &p)
		tok, _ := p.Token.(string)
		s.mu.Lock()
		s.progress[tok] = append(s.progress[tok], params)
		close(s.arrived)
		s.arrived = make(chan struct{})
		s.mu.Unlock()
	})

	var ir mcp.InitializeRequest
	// The newest revision: mcp-go then probes with server/discover and falls
	// back to initialize, so both go through the shim.
	ir.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	ir.Params.ClientInfo = mcp.Implementation{Name: "flowd-e2e-go", Version: "1.0.0"}
	res, err := c.Initialize(ctx, ir)
	require.NoError(t, err, "initialize")
	s.record("initialize", res, nil)
	return s
}

func (s *goSession) record(name string, v any, err error) {
	s.t.Helper()
	if err != nil {
		v = map[string]string{"error": err.Error()}
	}
	b, merr := json.Marshal(v)
	require.NoError(s.t, merr, "encode the outcome of %s", name)
	s.steps = append(s.steps, step{name, b})
}

func (s *goSession) call(name, tool string, args any) *mcp.CallToolResult {
	s.t.Helper()
	var req mcp.CallToolRequest
	req.Params.Name, req.Params.Arguments = tool, args
	res, err := s.c.CallTool(s.ctx, req)
	s.record(name, res, err)
	return res
}

func (s *goSession) ping(name string) {
	s.t.Helper()
	s.record(name, "pong", s.c.Ping(s.ctx))
}

// waitProgress waits until n progress notifications for token arrived.
func (s *goSession) waitProgress(token string, n int) []json.RawMessage {
	s.t.Helper()
	timer := time.NewTimer(30 * time.Second)
	defer timer.Stop()
	for {
		s.mu.Lock()
		got, arrived := s.progress[token], s.arrived
		s.mu.Unlock()
		if len(got) >= n {
			return got
		}
		select {
		case <-arrived:
		case <-timer.C:
			s.t.Fatalf("%d progress notifications for %q within 30s, want %d: %s", len(got), token, n, got)
		}
	}
}

// progressCall calls trigger-long-running-operation with a progress token
// and records the result with the progress notifications it brought.
func (s *goSession) progressCall(name string) {
	s.t.Helper()
	var req mcp.CallToolRequest
	req.Params.Name = "trigger-long-running-operation"
	req.Params.Arguments = map[string]any{"duration": 0.6, "steps": 3}
	req.Params.Meta = &mcp.Meta{ProgressToken: name}
	res, err := s.c.CallTool(s.ctx, req)
	require.NoError(s.t, err, name)
	// The server sends each notification before its result, on one pipe.
	s.record(name, map[string]any{"result": res, "progress": s.waitProgress(name, 3)}, nil)
}

// cancelledCall starts a slow call and cancels it after its first progress
// notification, so mcp-go sends notifications/cancelled for it. This server
// keeps running the operation and reporting its progress (it does not watch
// for cancellation); the step waits for the last notification and checks
// the session still answers.
func (s *goSession) cancelledCall(name string) {
	s.t.Helper()
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	var req mcp.CallToolRequest
	req.Params.Name = "trigger-long-running-operation"
	req.Params.Arguments = map[string]any{"duration": 0.9, "steps": 3}
	req.Params.Meta = &mcp.Meta{ProgressToken: name}
	done := make(chan error, 1)
	go func() {
		_, err := s.c.CallTool(ctx, req)
		done <- err
	}()
	s.waitProgress(name, 1)
	cancel()
	var err error
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		s.t.Fatalf("%s: CallTool did not return within 10s of its cancellation", name)
	}
	require.True(s.t, errors.Is(err, context.Canceled), "%s: CallTool returned %v, want context.Canceled", name, err)
	s.record(name, map[string]any{"error": err.Error(), "progress": s.waitProgress(name, 3)}, nil)
	s.ping(name + " then ping")
}

// compareSteps requires two batteries to have seen the same thing.
func compareSteps(t *testing.T, direct, shimmed []step) {
	t.Helper()
	names := func(ss []step) (n []string) {
		for _, s := range ss {
			n = append(n, s.name)
		}
		return n
	}
	require.Equal(t, names(direct), names(shimmed), "steps")
	for i := range direct {
		if !bytes.Equal(direct[i].json, shimmed[i].json) {
			t.Errorf("%s: direct and through the shim differ: %s", direct[i].name, diffAt(direct[i].json, shimmed[i].json))
		}
	}
}

// runBoth runs battery against argv directly and behind a shim talking to
// f, at the same time, and compares what the two saw. It returns the
// shim's stderr.
func runBoth(t *testing.T, f *flowd, argv []string, envDirect, envShim []string, battery func(*goSession)) string {
	t.Helper()
	var direct, shimmed []step
	var shimStderr string
	t.Run("run", func(t *testing.T) {
		t.Run("direct", func(t *testing.T) {
			t.Parallel()
			s := newGoSession(t, argv, envDirect...)
			battery(s)
			direct = s.steps
		})
		t.Run("shim", func(t *testing.T) {
			t.Parallel()
			s := newGoSession(t, f.shim(argv...), envShim...)
			battery(s)
			shimmed = s.steps
			require.NoError(t, s.c.Close())
			shimStderr = s.stderr.String()
		})
	})
	if t.Failed() {
		t.FailNow()
	}
	compareSteps(t, direct, shimmed)
	return shimStderr
}

// bigText is n bytes of text with multi-byte characters and a JSON escape
// in it, so a relay that splits, re-encodes or truncates shows.
func bigText(n int) string {
	const unit = "flowd e2e — ünïcödé 🎉 one long line\n"
	s := strings.Repeat(unit, n/len(unit))
	return s + strings.Repeat("x", n-len(s))
}

func TestMCPGoEverythingSameThroughShim(t *testing.T) {
	t.Parallel()
	tools := toolsDir(t)
	// The 10 MB echo's check takes seconds of CPU under the race detector,
	// more than the default 2 s flow.check_budget (which would deny it, by
	// design, to a server flowd cannot classify): this test is about
	// transparency, not the budget.
	f := startFlowd(t, everythingWaiver+bigCheckBudget)
	// 10 MB, but under 10 MiB once JSON-encoded: the TS SDK's stdio reader
	// drops the connection beyond that.
	big := bigText(10_000_000)
	shimStderr := runBoth(t, f, []string{nodeBin(t), everythingJS(tools), "stdio"}, nil, nil, func(s *goSession) {
		s.ping("ping")
		tl, err := s.c.ListTools(s.ctx, mcp.ListToolsRequest{})
		s.record("tools/list", tl, err)
		s.call("echo", "echo", map[string]any{"message": "héllo — 日本語 🎉"})
		s.call("get-sum", "get-sum", map[string]any{"a": 2, "b": 3.5})
		s.call("get-structured-content", "get-structured-content", map[string]any{"location": "Chicago"})
		s.call("get-annotated-message", "get-annotated-message", map[string]any{"messageType": "error", "includeImage": true})
		s.call("get-tiny-image", "get-tiny-image", map[string]any{})
		res := s.call("echo without its argument", "echo", map[string]any{})
		require.NotNil(s.t, res, "echo without its argument")
		assert.True(s.t, res.IsError, "echo without its argument answers isError")
		s.call("unknown tool", "no-such-tool", map[string]any{})

		rl, err := s.c.ListResources(s.ctx, mcp.ListResourcesRequest{})
		s.record("resources/list", rl, err)
		rt, err := s.c.ListResourceTemplates(s.ctx, mcp.ListResourceTemplatesRequest{})
		s.record("resources/templates/list", rt, err)
		require.NoError(s.t, err)
		static := 0
		for _, r := range rl.Resources {
			// Only static documents: dynamic resources embed the time.
			if !strings.HasPrefix(r.URI, "demo://resource/static/") {
				continue
			}
			var req mcp.ReadResourceRequest
			req.Params.URI = r.URI
			rr, err := s.c.ReadResource(s.ctx, req)
			s.record("resources/read "+r.URI, rr, err)
			static++
		}
		assert.NotZero(s.t, static, "server-everything lists static resources")

		pl, err := s.c.ListPrompts(s.ctx, mcp.ListPromptsRequest{})
		s.record("prompts/list", pl, err)
		for _, p := range []struct {
			name string
			args map[string]string
		}{{"simple-prompt", nil}, {"args-prompt", map[string]string{"city": "Paris", "state": "Texas"}}, {"no-such-prompt", nil}} {
			var req mcp.GetPromptRequest
			req.Params.Name, req.Params.Arguments = p.name, p.args
			gp, err := s.c.GetPrompt(s.ctx, req)
			s.record("prompts/get "+p.name, gp, err)
		}

		s.progressCall("progress")
		s.cancelledCall("cancelled")

		res = s.call("echo 10 MB", "echo", map[string]any{"message": big})
		require.NotNil(s.t, res, "echo 10 MB")
		require.Len(s.t, res.Content, 1)
		text, _ := mcp.AsTextContent(res.Content[0])
		require.NotNil(s.t, text, "echo answers text")
		assert.True(s.t, text.Text == "Echo: "+big, "the 10 MB echo came back whole (%d bytes)", len(text.Text))
		s.ping("ping at the end")
	})
	recs := f.waitToolCalls(t, "echo", "get-sum", "get-structured-content", "trigger-long-running-operation")
	assertSawBigResult(t, recs, "echo", len(big))
	noShimComplaints(t, shimStderr)
}

// assertSawBigResult checks flowd recorded a result of at least n bytes
// from tool: it saw the big message whole, not just the shim relaying it.
func assertSawBigResult(t *testing.T, recs []record, tool string, n int) {
	t.Helper()
	largest := 0
	for _, r := range recs {
		if r.Tool == tool {
			largest = max(largest, r.ResultBytes)
		}
	}
	assert.GreaterOrEqual(t, largest, n, "largest %s result flowd recorded", tool)
}

func TestMCPGoFilesystemSameThroughShim(t *testing.T) {
	t.Parallel()
	tools := toolsDir(t)
	f := startFlowd(t, "")
	// The server resolves symlinks in its allowed directories, and its
	// answers name paths, so give it the real one.
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	// 1 MB: mcp-go takes seconds per 10 MB to decode under the race
	// detector; TestMCPGoEverythingSameThroughShim has the 10 MB result.
	big := bigText(1_000_000)
	for name, content := range map[string]string{
		"a.txt":       "hello\nworld\n",
		"ünïcödé.md":  "# Tïtle\n\n日本語 🎉\r\nwindows line\r\n",
		"sub/b.json":  `{"k": [1, 2, 3]}`,
		"sub/c/d.txt": "",
		"big.txt":     big,
	} {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	// Both runs read the same tree and write nothing, so their answers can
	// match. get_file_info is left out: it reports access times, which the
	// other run's reads change.
	shimStderr := runBoth(t, f, []string{nodeBin(t), filesystemJS(tools), dir}, nil, nil, func(s *goSession) {
		tl, err := s.c.ListTools(s.ctx, mcp.ListToolsRequest{})
		s.record("tools/list", tl, err)
		s.call("list_allowed_directories", "list_allowed_directories", map[string]any{})
		s.call("list_directory", "list_directory", map[string]any{"path": dir})
		s.call("directory_tree", "directory_tree", map[string]any{"path": dir})
		s.call("search_files", "search_files", map[string]any{"path": dir, "pattern": "**/*.txt"})
		s.call("read_text_file", "read_text_file", map[string]any{"path": filepath.Join(dir, "a.txt")})
		s.call("read_text_file unicode", "read_text_file", map[string]any{"path": filepath.Join(dir, "ünïcödé.md")})
		s.call("read_text_file head", "read_text_file", map[string]any{"path": filepath.Join(dir, "a.txt"), "head": 1})
		s.call("read_multiple_files", "read_multiple_files", map[string]any{"paths": []string{filepath.Join(dir, "a.txt"), filepath.Join(dir, "sub", "b.json")}})
		res := s.call("read outside the allowed dir", "read_text_file", map[string]any{"path": "/etc/hostname"})
		require.NotNil(s.t, res)
		assert.True(s.t, res.IsError, "reading outside the allowed directory answers isError")
		s.call("unknown tool", "no-such-tool", map[string]any{})
		pl, err := s.c.ListPrompts(s.ctx, mcp.ListPromptsRequest{})
		s.record("prompts/list (not offered)", pl, err)
		res = s.call("read_text_file 1 MB", "read_text_file", map[string]any{"path": filepath.Join(dir, "big.txt")})
		require.NotNil(s.t, res)
		require.Len(s.t, res.Content, 1)
		text, _ := mcp.AsTextContent(res.Content[0])
		require.NotNil(s.t, text)
		assert.True(s.t, text.Text == big, "the 1 MB file came back whole (%d bytes)", len(text.Text))
		s.ping("ping")
	})
	recs := f.waitToolCalls(t, "list_directory", "read_text_file", "read_multiple_files")
	assertSawBigResult(t, recs, "read_text_file", len(big))
	noShimComplaints(t, shimStderr)
}

func TestMCPGoMemorySameThroughShim(t *testing.T) {
	t.Parallel()
	tools := toolsDir(t)
	f := startFlowd(t, "")
	dir := t.TempDir()
	// Each run keeps its own graph: both start empty and make the same changes.
	envDirect := []string{"MEMORY_FILE_PATH=" + filepath.Join(dir, "direct.jsonl")}
	envShim := []string{"MEMORY_FILE_PATH=" + filepath.Join(dir, "shim.jsonl")}
	shimStderr := runBoth(t, f, []string{nodeBin(t), memoryJS(tools)}, envDirect, envShim, func(s *goSession) {
		tl, err := s.c.ListTools(s.ctx, mcp.ListToolsRequest{})
		s.record("tools/list", tl, err)
		s.call("create_entities", "create_entities", map[string]any{"entities": []map[string]any{
			{"name": "Ada Lovelace", "entityType": "person", "observations": []string{"wrote the first program", "née Byron"}},
			{"name": "Analytical Engine", "entityType": "machine", "observations": []string{"designed by Babbage"}},
		}})
		s.call("create_relations", "create_relations", map[string]any{"relations": []map[string]any{
			{"from": "Ada Lovelace", "to": "Analytical Engine", "relationType": "programmed"},
		}})
		s.call("add_observations", "add_observations", map[string]any{"observations": []map[string]any{
			{"entityName": "Ada Lovelace", "contents": []string{"born 1815 — London"}},
		}})
		s.call("read_graph", "read_graph", map[string]any{})
		s.call("search_nodes", "search_nodes", map[string]any{"query": "engine"})
		s.call("open_nodes", "open_nodes", map[string]any{"names": []string{"Ada Lovelace"}})
		s.call("add_observations to a missing entity", "add_observations", map[string]any{"observations": []map[string]any{
			{"entityName": "Nobody", "contents": []string{"x"}},
		}})
		s.call("delete_entities", "delete_entities", map[string]any{"entityNames": []string{"Analytical Engine"}})
		s.call("read_graph after delete", "read_graph", map[string]any{})
		s.ping("ping")
	})
	f.waitToolCalls(t, "create_entities", "create_relations", "read_graph", "delete_entities")
	noShimComplaints(t, shimStderr)
	direct, err := os.ReadFile(filepath.Join(dir, "direct.jsonl"))
	require.NoError(t, err)
	shimmed, err := os.ReadFile(filepath.Join(dir, "shim.jsonl"))
	require.NoError(t, err)
	assert.Equal(t, string(direct), string(shimmed), "the memory files the two servers left")
}
