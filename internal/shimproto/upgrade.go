package shimproto

import (
	"bufio"
	"fmt"
	"net"
	"net/textproto"
	"strings"
	"time"
)

// SwitchingProtocols is flowd's answer to the request Upgrade sends: from
// the line after it on, the connection speaks the shim protocol.
const SwitchingProtocols = "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: " + Version + "\r\n\r\n"

// Upgrade turns a fresh connection to flowd into a shim protocol stream.
// It speaks just enough HTTP/1.1 by hand: net/http would double the size
// of a binary that must stay small and start fast.
func Upgrade(c net.Conn, timeout time.Duration) (*bufio.Reader, error) {
	return UpgradeWith(c, timeout, nil)
}

// UpgradeWith is Upgrade that sends early, the shim's first frames, in the
// same write as the request, before flowd answers it. flowd reads them
// from what it buffered with the request once it has switched protocols
// (a flowd that refuses the upgrade never reads them as frames), so the
// hello costs no round trip of its own: on a busy machine each one is a
// wait for the scheduler to run both processes.
func UpgradeWith(c net.Conn, timeout time.Duration, early []byte) (*bufio.Reader, error) {
	if timeout > 0 {
		c.SetDeadline(time.Now().Add(timeout))
		defer c.SetDeadline(time.Time{})
	}
	req := "GET " + Path + " HTTP/1.1\r\nHost: flowd\r\nConnection: Upgrade\r\nUpgrade: " + Version + "\r\n\r\n"
	if _, err := c.Write(append([]byte(req), early...)); err != nil {
		return nil, fmt.Errorf("send upgrade request: %w", err)
	}
	br := bufio.NewReaderSize(c, 64<<10)
	tp := textproto.NewReader(br)
	status, err := tp.ReadLine()
	if err != nil {
		return nil, fmt.Errorf("read upgrade response: %w", err)
	}
	hdr, err := tp.ReadMIMEHeader()
	if err != nil {
		return nil, fmt.Errorf("read upgrade response headers: %w", err)
	}
	if !strings.HasPrefix(status, "HTTP/1.1 101") || !strings.EqualFold(hdr.Get("Upgrade"), Version) {
		return nil, fmt.Errorf("flowd refused the shim protocol: %q", status)
	}
	return br, nil
}
