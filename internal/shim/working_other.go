//go:build !linux

package shim

import "net"

// listenerWorking: only Linux tells the shim about the listening process
// here, so elsewhere a flowd that accepted and stays silent is given up
// after the verdict timeout, busy or not.
func listenerWorking(net.Conn) func() bool { return nil }
