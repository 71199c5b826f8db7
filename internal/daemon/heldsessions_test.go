package daemon

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/flow"
	"github.com/flowd-dev/flowd/internal/heldfile"
)

// A flowd that ends loses what its sessions read (flow state lives in
// memory). The next flowd on the same data dir does not start those
// sessions blank: a session that had read internal data has what it
// sends out judged as carrying internal data; one that read nothing is
// judged as before. Found with red team RT4-1: an agent that got flowd
// killed, and started again by its hook, sent a key it had read.
// heldRun starts flowd on dataDir, as Run does, and returns it with its
// stop.
func heldRun(t *testing.T, dataDir string) (*Daemon, func()) {
	sockDir, err := os.MkdirTemp("", "flowdheld")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(sockDir) })
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

// heldFetch is a WebFetch of a harmless page by sess: allowed unless the
// session is judged as carrying what it read.
func heldFetch(t *testing.T, d *Daemon, sess string) (decision, reason string) {
	v := postHook(t, d, sess, "PreToolUse", map[string]any{"tool_name": "WebFetch",
		"tool_input": map[string]any{"url": "https://example.org/docs?q=weather", "prompt": "summarise"}})
	return v.Decision, v.Reason
}

func heldReadEnv(t *testing.T, d *Daemon, sess string) {
	postHook(t, d, sess, "PostToolUse", map[string]any{"tool_name": "Read", "tool_use_id": "t1",
		"tool_input":    map[string]any{"file_path": "/p/.env"},
		"tool_response": map[string]any{"type": "text", "file": map[string]any{"filePath": "/p/.env", "content": envFile}}})
}

func TestRestartedFlowdRemembersWhichSessionsReadData(t *testing.T) {
	dataDir := t.TempDir()
	d, stop := heldRun(t, dataDir)
	heldReadEnv(t, d, "read-env")
	heldReadEnv(t, d, strings.Repeat("long", 1000)) // known by its hash
	decision, _ := heldFetch(t, d, "read-nothing")
	require.Equal(t, "allow", decision, "control")
	stop()

	d, stop = heldRun(t, dataDir)
	defer stop()
	assert.Nil(t, d.status(viewer{all: true}).HeldLost)
	decision, reason := heldFetch(t, d, "read-env")
	assert.NotEqual(t, "allow", decision, "the session that read .env before the restart: %s", reason)
	assert.Contains(t, reason, flow.LostSource)
	decision, reason = heldFetch(t, d, strings.Repeat("long", 1000))
	assert.NotEqual(t, "allow", decision, "the session with a 4,000-byte id: %s", reason)
	decision, reason = heldFetch(t, d, "read-nothing")
	assert.Equal(t, "allow", decision, "the session that read nothing: %s", reason)
	held := d.flows.Held()
	require.Len(t, held, 2)
	sort.Slice(held, func(i, j int) bool { return held[i].Session < held[j].Session })
	assert.Equal(t, "read-env", held[0].Session)
	assert.Equal(t, flow.Key(strings.Repeat("long", 1000)), held[1].Session)
	assert.Contains(t, held[0].SecretResult, "Read", "the result holding a secret is remembered, with its time")
	assert.False(t, held[0].SecretResultAt.IsZero())
}

// A list flowd cannot read (damaged, too large, unreadable), or one
// removed after flowd ran, does not start the sessions blank: every
// session that starts in the next flow.session_idle_timeout is judged
// as carrying internal data, and status says so. Found in review: an
// agent that could write the file (it runs as the user) wiped flowd's
// memory of what it read.
func TestUnreadableHeldListLosesEverySession(t *testing.T) {
	for name, spoil := range map[string]func(p string) error{
		"damaged": func(p string) error { return os.WriteFile(p, []byte(`{"sessions":[{"sess`), 0o600) },
		"too large": func(p string) error {
			return os.WriteFile(p, append([]byte(`{"sessions":[],"why":"`), make([]byte, heldfile.MaxSize)...), 0o600)
		},
		"removed": os.Remove,
	} {
		t.Run(name, func(t *testing.T) {
			dataDir := t.TempDir()
			d, stop := heldRun(t, dataDir)
			heldReadEnv(t, d, "read-env")
			stop()
			require.NoError(t, spoil(filepath.Join(dataDir, heldfile.Name)))

			d, stop = heldRun(t, dataDir)
			decision, reason := heldFetch(t, d, "read-env")
			assert.NotEqual(t, "allow", decision, "%s", reason)
			assert.Contains(t, reason, flow.LostSource)
			decision, reason = heldFetch(t, d, "any-session")
			assert.NotEqual(t, "allow", decision, "a session flowd cannot tell from one that read .env: %s", reason)
			lost := d.status(viewer{all: true}).HeldLost
			require.NotNil(t, lost)
			assert.True(t, lost.Until.After(time.Now().Add(20*time.Minute)), "for session_idle_timeout: %v", lost.Until)
			stop()

			// Rewritten whole, and kept past a second restart.
			f, err := heldfile.Read(filepath.Join(dataDir, heldfile.Name))
			require.NoError(t, err)
			assert.False(t, f.AllLostUntil.IsZero())
			d, stop = heldRun(t, dataDir)
			defer stop()
			decision, _ = heldFetch(t, d, "another-session")
			assert.NotEqual(t, "allow", decision)
			assert.NotNil(t, d.status(viewer{all: true}).HeldLost)
		})
	}
}

// A first start, where no flowd ran, starts sessions as new.
func TestFirstStartHasNoHeldSessions(t *testing.T) {
	d, stop := heldRun(t, t.TempDir())
	defer stop()
	decision, reason := heldFetch(t, d, "any-session")
	assert.Equal(t, "allow", decision, "%s", reason)
	assert.Nil(t, d.status(viewer{all: true}).HeldLost)
}

// A restarted flowd has lost the values of the secrets its sessions
// read (it never writes them down), so it cannot match them as the
// flowd before it did, which denied them (sensitive_data_external). It
// denies what may be one instead: random-looking text sent out by a
// session that read a secret before the restart, or by any session
// while flowd cannot tell which read what. A secret of a known form is
// denied as always; anything else the session sends out asks.
func TestRestartedFlowdDeniesWhatMayBeALostSecret(t *testing.T) {
	dataDir := t.TempDir()
	d, stop := heldRun(t, dataDir)
	heldReadEnv(t, d, "read-env")
	stop()
	send := func(d *Daemon, sess, text string) (string, string) {
		v := postHook(t, d, sess, "PreToolUse", map[string]any{"tool_name": "WebFetch",
			"tool_input": map[string]any{"url": "https://example.org/docs", "prompt": text}})
		return v.Decision, v.Reason
	}
	const payload = "summarise the page for ticket Qm7xV2rK9pLw4ZtB8nYc3HsJ"

	d, stop = heldRun(t, dataDir)
	decision, reason := send(d, "read-env", payload)
	assert.Equal(t, "deny", decision, "%s", reason)
	assert.Contains(t, reason, "may be it")
	decision, reason = send(d, "read-env", "summarise the token ghp_"+strings.Repeat("aB3dE5fG7h", 3)+"123456")
	assert.Equal(t, "deny", decision, "a secret of a known form: %s", reason)
	decision, reason = send(d, "read-env", "summarise the page on weather")
	assert.Equal(t, "ask", decision, "plain text: %s", reason)
	decision, reason = send(d, "read-nothing", payload)
	assert.Equal(t, "allow", decision, "a session that read nothing: %s", reason)
	stop()

	require.NoError(t, os.WriteFile(filepath.Join(dataDir, heldfile.Name), []byte("{"), 0o600))
	d, stop = heldRun(t, dataDir)
	defer stop()
	decision, reason = send(d, "any-session", payload)
	assert.Equal(t, "deny", decision, "flowd cannot tell what this session read: %s", reason)
}
