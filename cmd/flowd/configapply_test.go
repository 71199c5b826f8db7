package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/config"
	"github.com/flowd-dev/flowd/internal/daemon"
	"github.com/flowd-dev/flowd/internal/flowdclient"
)

// A reload that lowers protection is held; the user reads the changes at
// the terminal and applies them with the passphrase, which a wrong guess
// or no terminal does not.
func TestConfigApply(t *testing.T) {
	socket := filepath.Join(shortDir(t), "flowd.sock")
	ctx, cancel := context.WithCancel(context.Background())
	ready, errc := make(chan *daemon.Daemon, 1), make(chan error, 1)
	go func() {
		errc <- daemon.Run(ctx, daemon.Options{Config: config.Default(), Socket: socket, DataDir: t.TempDir(),
			Log: slog.New(slog.NewTextHandler(io.Discard, nil)), OnReady: func(d *daemon.Daemon) { ready <- d }}, nil)
	}()
	var d *daemon.Daemon
	select {
	case d = <-ready:
	case err := <-errc:
		t.Fatalf("flowd did not start: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-errc)
	})
	run := func(open tty) (string, error) {
		var out bytes.Buffer
		err := configApply([]string{"--socket", socket}, &out, open)
		return out.String(), err
	}
	_, err := run(noTerminal)
	assert.ErrorContains(t, err, "no config is held back")

	setPassphrase(t, socket)
	loose := config.Default()
	loose.Policy.SensitiveDataExternal = config.ActionAllow
	var held *daemon.HeldError
	require.ErrorAs(t, d.Reload(loose), &held)

	_, err = run(noTerminal)
	assert.ErrorContains(t, err, "needs you at a terminal")
	open, term := typing("guess guess guess\n")
	_, err = run(open)
	assert.ErrorContains(t, err, "wrong passphrase")
	assert.Contains(t, term.shown.String(), `policy.sensitive_data_external: "deny" → "allow"`, "the user sees what they apply")
	st, err := flowdclient.NewClient(socket, 0).Status()
	require.NoError(t, err)
	require.NotNil(t, st.ConfigHeld, "still held")

	open, _ = typing(testPassphrase + "\n")
	out, err := run(open)
	require.NoError(t, err)
	assert.Contains(t, out, "applied")
	st, err = flowdclient.NewClient(socket, 0).Status()
	require.NoError(t, err)
	assert.Nil(t, st.ConfigHeld)
}
