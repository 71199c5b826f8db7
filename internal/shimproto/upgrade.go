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
	if timeout > 0 {
		c.SetDeadline(time.Now().Add(timeout))
		defer c.SetDeadline(time.Time{})
	}
	req := "GET " + Path + " HTTP/1.1\r\nHost: flowd\r\nConnection: Upgrade\r\nUpgrade: " + Version + "\r\n\r\n"
	if _, err := c.Write([]byte(req)); err != nil {
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
