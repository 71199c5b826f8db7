package daemon

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flowdclient"
)

// OnReady hands over the running daemon once it serves, and a Reload
// through it changes decisions while a bad config changes nothing.
func TestOnReadyGivesTheServingDaemon(t *testing.T) {
	dir, err := os.MkdirTemp("", "flowdtest")
	require.NoError(t, err)
	defer os.RemoveAll(dir)
	socket := filepath.Join(dir, "run", "flowd.sock")
	got := make(chan *Daemon, 1)
	ready := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		errc <- Run(ctx, Options{Config: config.Default(), Socket: socket, DataDir: t.TempDir(),
			Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
			OnReady: func(d *Daemon) {
				// Called while the socket already accepts.
				st, err := flowdclient.NewClient(socket, time.Second).Status()
				assert.NoError(t, err)
				assert.True(t, st.Running)
				got <- d
			}}, ready)
	}()
	<-ready
	d := <-got
	require.NotNil(t, d)

	bad := config.Default()
	bad.Classify.Servers["fs"] = "sideways"
	assert.Error(t, d.Reload(bad))
	deny := config.Default()
	deny.Policy.ToolOverrides["Bash"] = "deny"
	require.NoError(t, d.Reload(deny))
	assert.Equal(t, "deny", postHook(t, d, "s", "PreToolUse", map[string]any{"tool_name": "Bash",
		"tool_input": map[string]any{"command": "ls"}}).Decision)

	cancel()
	require.NoError(t, <-errc)
}
