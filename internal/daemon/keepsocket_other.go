//go:build !unix

package daemon

import "os"

// modeChanged: a socket's mode bits mean nothing to who may connect
// where flowd runs without them (Windows: the ACL of its directory).
func modeChanged(os.FileInfo, Options) bool { return false }
