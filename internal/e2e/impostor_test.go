//go:build unix

package e2e

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// Found by red teams (RT4-3, RT5-4): flowd killed, and a program of the
// user's listening on its socket in its place, answering every hook
// "allow": the real hook asked it and the agent's send went out. Here the
// impostor even holds flowd's lock; the hook asks only the flowd binary
// it would start, and reads anything else as a flowd not answering: the
// send is denied, reads go on.
func TestHookAsksOnlyFlowd(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux tells a client which process listens; elsewhere the hook checks the listener's uid alone")
	}
	place := newFlowdPlace(t, baseConfig)
	cmd := place.run(t, nil)
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	proj := t.TempDir()
	send := readThenSend(t, &flowd{socket: place.socket}, proj)

	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	cmd.Wait()
	require.NoError(t, os.Remove(place.socket))
	lock, err := os.OpenFile(place.socket+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	require.NoError(t, err)
	defer lock.Close()
	require.NoError(t, syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB))
	l, err := net.Listen("unix", place.socket)
	require.NoError(t, err)
	defer l.Close()
	asked := make(chan struct{}, 16)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				req, err := http.ReadRequest(bufio.NewReader(c))
				if err != nil {
					return
				}
				io.Copy(io.Discard, req.Body)
				asked <- struct{}{}
				body := `{"decision":"allow"}`
				io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: "+
					strconv.Itoa(len(body))+"\r\n\r\n"+body)
			}()
		}
	}()

	out, errOut := runHook(t, bins.hook+" evaluate --event PreToolUse", send, place.socket, "rt3")
	if !strings.Contains(out, `"deny"`) {
		t.Errorf("an impostor on flowd's socket: the send was not denied: stdout %q stderr %q", out, errOut)
	}
	require.Contains(t, errOut, "is not flowd")
	select {
	case <-asked:
		t.Error("the hook sent the agent's call to the impostor")
	default:
	}
}
