//go:build unix

package shim

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/shimproto"
)

// The upstream exits leaving a child that holds its stdout open, while
// flowd still works on its last message (longer than the 2 s the shim
// once gave the rest of the output): the shim relays everything the
// upstream wrote, however much and however late its verdicts, and exits
// with it rather than waiting for the child.
func TestUpstreamOutputRelayedWholeAfterItExits(t *testing.T) {
	sock := socketPath(t)
	f := startFake(t, sock, func(m shimproto.Message) []shimproto.Verdict {
		if string(m.Data) == "last" {
			return []shimproto.Verdict{{Seq: m.Seq, Action: shimproto.Replace, Data: []byte("last, judged")}}
		}
		return passAll(m)
	}, func(f *fakeFlowd) {
		f.welcome.AliveMS = 50
		f.slow = func(m shimproto.Message) time.Duration {
			if string(m.Data) == "last" {
				return 2500 * time.Millisecond
			}
			return 0
		}
	})
	pidFile := filepath.Join(t.TempDir(), "child")
	t.Cleanup(func() {
		if b, err := os.ReadFile(pidFile); err == nil {
			var pid int
			if _, err := fmt.Sscan(string(b), &pid); err == nil && pid > 0 {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	const size = 8 << 20
	script := fmt.Sprintf(`sleep 600 & echo $! > %s; head -c %d /dev/zero | tr '\0' y; echo; printf last`, pidFile, size)
	r := startShim(t, sock, "open", "sh", "-c", script)
	<-f.hello
	got, err := io.ReadAll(r.out) // until the shim exits
	require.NoError(t, err)
	assert.Equal(t, size+len("\nlast, judged"), len(got))
	assert.True(t, bytes.HasSuffix(got, []byte("y\nlast, judged")), "flowd's verdict on the last message applies")
	assert.Equal(t, 0, <-r.code)
	assert.NotContains(t, r.stderr.String(), "unchecked")
}
