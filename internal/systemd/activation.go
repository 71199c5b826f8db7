package systemd

import (
	"fmt"
	"net"

	"github.com/coreos/go-systemd/v22/activation"
)

// Listener returns the Unix socket systemd passed to this process
// (LISTEN_FDS and LISTEN_PID), or nil when it passed none. The variables
// are cleared so processes flowd starts do not take the socket for theirs.
func Listener() (*net.UnixListener, error) {
	files := activation.Files(true)
	if len(files) == 0 {
		return nil, nil
	}
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	if len(files) != 1 {
		return nil, fmt.Errorf("systemd passed %d sockets; flowd listens on one: give flowd.socket a single ListenStream=", len(files))
	}
	l, err := net.FileListener(files[0])
	if err != nil {
		return nil, fmt.Errorf("socket passed by systemd (fd 3): %w", err)
	}
	ul, ok := l.(*net.UnixListener)
	if !ok {
		l.Close()
		return nil, fmt.Errorf("socket passed by systemd is %s, not a Unix stream socket: flowd.socket needs ListenStream=/path", l.Addr().Network())
	}
	return ul, nil
}
