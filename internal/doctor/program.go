package doctor

import (
	"os"
	"path/filepath"
	"strconv"
)

// otherProgram is the program the process pid runs, as the kernel names
// it, when that is not this program's file; "" when it is, or cannot be
// told (not Linux, another user's process). Shims and hooks start, and
// trust on the socket, only the flowd installed beside them: a flowd
// running another program was started some other way (before flowd
// stopped looking on PATH, an agent's own program named flowd first on
// PATH was started as flowd).
func otherProgram(pid int) string {
	exe := filepath.Join("/proc", strconv.Itoa(pid), "exe")
	link, err := os.Readlink(exe)
	if err != nil {
		return ""
	}
	running, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	self, err := os.Executable()
	if err != nil {
		return ""
	}
	me, err := os.Stat(self)
	if err != nil || os.SameFile(running, me) {
		return ""
	}
	return link
}
