package daemon

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flow"
)

// A flowd that ends loses what its sessions read (flow state lives in
// memory). The next flowd on the same data dir does not start those
// sessions blank: a session that had read internal data has what it
// sends out judged as carrying internal data; one that read nothing is
// judged as before. Found with red team RT4-1: an agent that got flowd
// killed, and started again by its hook, sent a key it had read.
func TestRestartedFlowdRemembersWhichSessionsReadData(t *testing.T) {
	dataDir := t.TempDir()
	sockDir, err := os.MkdirTemp("", "flowdheld")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(sockDir) })
	run := func() (*Daemon, func()) {
		ctx, cancel := context.WithCancel(context.Background())
		ready, errc := make(chan struct{}), make(chan error, 1)
		var d *Daemon
		go func() {
			errc <- Run(ctx, Options{Config: config.Default(), Socket: filepath.Join(sockDir, "flowd.sock"), DataDir: dataDir,
				Log: slog.New(slog.NewTextHandler(io.Discard, nil)), OnReady: func(x *Daemon) { d = x }}, ready)
		}()
		select {
		case <-ready:
		case err := <-errc:
			t.Fatalf("flowd did not start: %v", err)
		}
		return d, func() { cancel(); require.NoError(t, <-errc) }
	}
	fetch := func(d *Daemon, sess string) (decision, reason string) {
		v := postHook(t, d, sess, "PreToolUse", map[string]any{"tool_name": "WebFetch",
			"tool_input": map[string]any{"url": "https://example.org/docs?q=weather", "prompt": "summarise"}})
		return v.Decision, v.Reason
	}

	d, stop := run()
	postHook(t, d, "read-env", "PostToolUse", map[string]any{"tool_name": "Read", "tool_use_id": "t1",
		"tool_input":    map[string]any{"file_path": "/p/.env"},
		"tool_response": map[string]any{"type": "text", "file": map[string]any{"filePath": "/p/.env", "content": envFile}}})
	decision, _ := fetch(d, "read-nothing")
	require.Equal(t, "allow", decision, "control")
	stop()

	d, stop = run()
	defer stop()
	decision, reason := fetch(d, "read-env")
	assert.NotEqual(t, "allow", decision, "the session that read .env before the restart: %s", reason)
	assert.Contains(t, reason, flow.LostSource)
	decision, reason = fetch(d, "read-nothing")
	assert.Equal(t, "allow", decision, "the session that read nothing: %s", reason)
	held := d.flows.Held()
	require.Len(t, held, 1)
	assert.Equal(t, "read-env", held[0].Session)
	assert.Contains(t, held[0].SecretResult, "Read", "the result holding a secret is remembered, with its time")
	assert.False(t, held[0].SecretResultAt.IsZero())
}
