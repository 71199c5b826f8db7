//go:build unix

package e2e

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Found by a red team (RT3-6): after a kill -9 of flowd (its socket left
// behind), the hook denied all but reads, but a shim to an external
// server read the socket as "unreachable" and, under the default
// fail_mode, passed the key to slack. With the real binaries and every
// key at its default, the key is blocked.
func TestKilledFlowdBlocksExternalServer(t *testing.T) {
	const secret = "Hq8vN2xTz5Lk9RmW3pYc7Jf1Gd4Sb6Ua0EeXoIiV"
	place := newFlowdPlace(t, "")
	f := &flowd{socket: place.socket, dataDir: place.dataDir, log: &syncBuffer{}}
	cmd := place.run(t, f.log)
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	defer func() {
		cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("flowd log:\n%s", f.log)
		}
	}()
	p := startProc(t, f.shim(bins.testserver, "--name", "slack"))
	handshake(t, p)
	call := func(id int, msg string) string {
		_, err := p.stdin.Write([]byte(echoCall(id, msg)))
		require.NoError(t, err)
		return p.readLine(t, 60*time.Second)
	}
	msg := "aws_secret_access_key = " + secret
	require.Contains(t, call(1, msg), "flowd blocked", "control: flowd running blocks the key")
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	<-exited
	p.stderr.waitFor(t, "shim: ", hangBound) // the shim has noticed
	if line := call(2, msg); strings.Contains(line, secret) {
		t.Errorf("flowd killed: the key reached slack: %.200s\nshim: %s", line, p.stderr.String())
	}
}
