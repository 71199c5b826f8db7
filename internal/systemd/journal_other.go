//go:build !unix

package systemd

import "os"

// There is no journal to write to.
func devIno(*os.File) (dev, ino uint64, ok bool) { return 0, 0, false }
