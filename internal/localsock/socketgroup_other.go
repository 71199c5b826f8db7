//go:build !unix

package localsock

import (
	"errors"
	"io/fs"
)

// socketGroup has nothing to read where files have no Unix group.
func socketGroup(string) (fs.FileMode, int, error) {
	return 0, 0, errors.New("a socket shared with a group needs Unix file groups: a system flowd is for Linux (flowd install --system)")
}
