package ondemand

import (
	"bytes"
	"os"
	"strconv"
)

// zombie reads the process's state from /proc: "pid (comm) S ...", where
// comm may hold anything, parentheses too.
func zombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i >= 0 && bytes.HasPrefix(b[i+1:], []byte(" Z"))
}
