//go:build unix

package shim

import (
	"io/fs"
	"syscall"
)

// dirStamp is what untrustedSocket's verdict on a directory this user
// owns depends on: its owner and mode (localsock.CheckSocketDir), and which
// directory it is.
type dirStamp struct {
	dev, ino uint64
	mode     fs.FileMode
	uid      uint32
}

// stampOf returns fi's stamp, and whether, for a process of uid, it holds all the verdict depends
// on: not for a directory another user owns, a system flowd's, whose
// verdict also depends on every directory above it.
func stampOf(fi fs.FileInfo, uid int) (dirStamp, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || int(st.Uid) != uid {
		return dirStamp{}, false
	}
	return dirStamp{dev: uint64(st.Dev), ino: uint64(st.Ino), mode: fi.Mode(), uid: st.Uid}, true
}
