package sessionid

import (
	"bytes"
	"os"
	"strconv"
)

// readProc reads name, parent and start time from /proc/PID/stat. The name
// sits in parentheses and may itself contain spaces and parentheses, so the
// fields are counted from the last ')'.
func readProc(pid int) (procInfo, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procInfo{}, false
	}
	return parseStat(b)
}

func parseStat(b []byte) (procInfo, bool) {
	open, close := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || close < open {
		return procInfo{}, false
	}
	f := bytes.Fields(b[close+1:])
	// After the name: state(0) ppid(1) … starttime is field 22 of the line, 19 here.
	if len(f) < 20 {
		return procInfo{}, false
	}
	ppid, err1 := strconv.Atoi(string(f[1]))
	start, err2 := strconv.ParseUint(string(f[19]), 10, 64)
	if err1 != nil || err2 != nil {
		return procInfo{}, false
	}
	return procInfo{name: string(b[open+1 : close]), ppid: ppid, start: start}, true
}
