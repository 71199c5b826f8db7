//go:build !linux

package sessionid

import "os"

// readProc knows only the direct parent off Linux: the client is then the
// shim's parent, which is right for agents that spawn servers directly.
func readProc(pid int) (procInfo, bool) {
	if pid != os.Getppid() {
		return procInfo{}, false
	}
	return procInfo{ppid: 0}, true
}
