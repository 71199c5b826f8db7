package dashboard

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
)

// ownerKnown: on Linux the kernel says which user owns the other end of
// a loopback connection.
const ownerKnown = true

// connOwner is the user whose socket is the client end of c, a loopback
// TCP connection to this process: the entry of /proc/net/tcp whose local
// address is c's remote one and whose remote address is c's local one.
func connOwner(c net.Conn) (int, error) {
	local, ok1 := c.LocalAddr().(*net.TCPAddr)
	remote, ok2 := c.RemoteAddr().(*net.TCPAddr)
	if !ok1 || !ok2 || local.IP.To4() == nil || remote.IP.To4() == nil {
		return 0, fmt.Errorf("not an IPv4 TCP connection: %v", c.RemoteAddr())
	}
	f, err := os.Open("/proc/net/tcp")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	want := procAddr(remote) + " " + procAddr(local)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		// sl local rem st queues tr retrnsmt uid ...
		if len(fields) > 7 && fields[1]+" "+fields[2] == want {
			return strconv.Atoi(fields[7])
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("no socket of this machine is the client end of %v", c.RemoteAddr())
}

// procAddr writes a as /proc/net/tcp does: the address as a 32-bit word
// in host order, then the port, both in hex.
func procAddr(a *net.TCPAddr) string {
	return fmt.Sprintf("%08X:%04X", binary.NativeEndian.Uint32(a.IP.To4()), a.Port)
}
