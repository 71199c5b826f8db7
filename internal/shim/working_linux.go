package shim

import (
	"bytes"
	"net"
	"os"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// listenerWorking returns a check of whether the process that listens on
// c's far end is working: neither stopped (SIGSTOP, a debugger) nor dead,
// and using CPU since the check before. It is how a flowd that accepted a
// connection but has not answered yet shows that it is busy rather than
// stuck: the kernel accepts for a stopped process too, and a starved one
// cannot say anything. nil when the listener cannot be told.
func listenerWorking(c net.Conn) func() bool {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return nil
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return nil
	}
	var cred *unix.Ucred
	raw.Control(func(fd uintptr) {
		cred, err = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	})
	if err != nil || cred == nil || cred.Pid <= 0 {
		return nil
	}
	return processWorking(int(cred.Pid))
}

// processWorking returns a check of whether process pid is neither
// stopped nor dead and has used CPU since the check before (or since
// processWorking); nil when the process cannot be read.
func processWorking(pid int) func() bool {
	stat := "/proc/" + strconv.Itoa(pid) + "/stat"
	_, last, ok := readStat(stat)
	if !ok {
		return nil
	}
	var mu sync.Mutex
	return func() bool {
		mu.Lock()
		defer mu.Unlock()
		state, cpu, ok := readStat(stat)
		if !ok {
			return false
		}
		worked := cpu > last
		last = cpu
		return worked && state != 'T' && state != 't' && state != 'Z' && state != 'X'
	}
}

// readStat reads a process's state and the CPU time it has used, in
// clock ticks, from /proc/PID/stat.
func readStat(path string) (state byte, cpu int64, ok bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, false
	}
	// The command name, in parentheses, may hold spaces and parentheses:
	// fields count from its last closing parenthesis.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 13 || len(f[0]) != 1 {
		return 0, 0, false
	}
	utime, err1 := strconv.ParseInt(string(f[11]), 10, 64)
	stime, err2 := strconv.ParseInt(string(f[12]), 10, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return f[0][0], utime + stime, true
}
