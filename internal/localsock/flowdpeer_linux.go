package localsock

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// checkFlowd reads what judgeListener needs from the kernel: the
// listener's pid (SO_PEERCRED, as recorded when it listened), the holder
// of flowd's lock (/proc/locks), its program and its parent.
func checkFlowd(c *net.UnixConn, socket, flowd string) error {
	raw, err := c.SyscallConn()
	if err != nil {
		return fmt.Errorf("read peer credentials: %w", err)
	}
	var uc *unix.Ucred
	var serr error
	if err := raw.Control(func(fd uintptr) {
		uc, serr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return fmt.Errorf("read peer credentials: %w", err)
	}
	if serr != nil {
		return fmt.Errorf("read peer credentials: %w", serr)
	}
	p := listenerProc{uid: int(uc.Uid), pid: int(uc.Pid), lock: LockPath(socket), flowd: flowd}
	if p.uid == os.Getuid() && flowd != "" {
		p.holder = lockHolder(p.lock)
	}
	if p.holder > 0 {
		exe := "/proc/" + strconv.Itoa(p.holder) + "/exe"
		p.exe, _ = os.Readlink(exe)
		efi, eerr := os.Stat(exe)
		ffi, _ := os.Stat(flowd)
		p.holderExe = sameExe(efi, eerr, p.exe, ffi)
		p.parent = parentOf(p.holder)
		p.manager = p.parent == 1 || isManager(p.parent)
	}
	return judgeListener(os.Getuid(), p)
}

// lockHolder is the process holding a flock on path, as /proc/locks
// lists it, or 0.
func lockHolder(path string) int {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0
	}
	locks, err := os.Open("/proc/locks")
	if err != nil {
		return 0
	}
	defer locks.Close()
	return holderIn(bufio.NewScanner(locks), uint64(st.Dev), st.Ino)
}

// holderIn finds in /proc/locks the process holding a flock on the file
// dev, ino. A line reads "1: FLOCK  ADVISORY  WRITE 1234 fe:00:5678 0 EOF";
// one whose second field is "->" is a process waiting for the lock.
func holderIn(sc *bufio.Scanner, dev, ino uint64) int {
	want := fmt.Sprintf("%02x:%02x:%d", unix.Major(dev), unix.Minor(dev), ino)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 6 || f[1] != "FLOCK" || f[5] != want {
			continue
		}
		if pid, err := strconv.Atoi(f[4]); err == nil && pid > 0 {
			return pid
		}
	}
	return 0
}

// parentOf is pid's parent, from /proc/PID/stat, or 0.
func parentOf(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name, in parentheses, may hold spaces and parentheses.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(string(f[1]))
	return ppid
}

// isManager reports whether pid runs systemd (a user's systemd --user
// included) from a file only root can have put there: the one process
// besides flowd that may make flowd's socket.
func isManager(pid int) bool {
	exe, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/exe")
	if err != nil || filepath.Base(exe) != "systemd" {
		return false
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Uid == 0 && fi.Mode().Perm()&0o022 == 0
}
