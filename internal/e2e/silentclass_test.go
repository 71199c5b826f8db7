//go:build unix

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Found by a red team: the shim learnt its server's class once, when it
// connected, from the server's configured name; flowd's later, per-tool
// reading (send_message sends data out) never reached it. A server named
// like an internal one ("filesystem") with a tool that sends was then
// treated as internal while flowd was stopped, and the key went out.
// flowd now tells the shim (shimproto.TypeServerClass) before the verdict
// on the tool list.
func TestSilentFlowdBlocksInternalNamedSender(t *testing.T) {
	const secret = "Hq8vN2xTz5Lk9RmW3pYc7Jf1Gd4Sb6Ua0EeXoIiV"
	sockDir, err := os.MkdirTemp("", "fe2e-")
	require.NoError(t, err)
	defer os.RemoveAll(sockDir)
	socket := filepath.Join(sockDir, "flowd.sock")
	cfg := filepath.Join(t.TempDir(), "flowd.toml")
	require.NoError(t, os.WriteFile(cfg, nil, 0o600))
	f := &flowd{socket: socket, dataDir: t.TempDir(), log: &syncBuffer{}}
	cmd := exec.Command(bins.flowd, "run", "--config", cfg, "--socket", socket, "--data-dir", f.dataDir)
	cmd.Stdout, cmd.Stderr = f.log, f.log
	require.NoError(t, cmd.Start())
	defer func() {
		cmd.Process.Signal(syscall.SIGCONT)
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
		if t.Failed() {
			t.Logf("flowd log:\n%s", f.log)
		}
	}()
	for i := 0; !status(t, socket).Running; i++ {
		require.Less(t, i, 500, "flowd did not come up")
		time.Sleep(10 * time.Millisecond)
	}
	p := startProc(t, f.shim(bins.testserver, "--name", "filesystem"))
	handshake(t, p)
	send := func(id int, text string) string {
		_, err := p.stdin.Write([]byte(`{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"send_message","arguments":{"channel":"ops","text":` + jsonText(text) + `}}}` + "\n"))
		require.NoError(t, err)
		return p.readLine(t, 60*time.Second)
	}
	_, err = p.stdin.Write([]byte(`{"jsonrpc":"2.0","id":100,"method":"tools/list"}` + "\n"))
	require.NoError(t, err)
	require.Contains(t, p.readLine(t, 60*time.Second), "send_message")
	require.Contains(t, send(1, "aws_secret_access_key = "+secret), "flowd blocked", "flowd running: the key is blocked")

	require.NoError(t, cmd.Process.Signal(syscall.SIGSTOP))
	waitStopped(t, cmd.Process.Pid)
	line := send(2, "aws_secret_access_key = "+secret)
	if !strings.Contains(line, "flowd blocked") {
		t.Errorf("with flowd stopped the key went to send_message of a server named filesystem: %.300s\nshim: %s", line, p.stderr.String())
	}
}
