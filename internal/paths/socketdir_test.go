package paths

import (
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCheckSocketDir(t *testing.T) {
	tests := []struct {
		name  string
		mode  fs.FileMode
		owner int
		want  string // "" means accepted
	}{
		{"private dir", fs.ModeDir | 0o700, 1000, ""},
		{"read-only private dir", fs.ModeDir | 0o500, 1000, `has mode 0500, not 0700`},
		{"group readable", fs.ModeDir | 0o750, 1000, `has mode 0750, not 0700 (only you may enter it, and flowd must be able to create the socket): run "chmod 700 /r/flowd"`},
		{"world writable", fs.ModeDir | 0o777, 1000, `has mode 0777`},
		{"sticky /tmp", fs.ModeDir | fs.ModeSticky | 0o777, 0, "owned by uid 0, not by you (uid 1000)"},
		{"other owner", fs.ModeDir | 0o700, 1001, "owned by uid 1001, not by you (uid 1000), so that user could intercept"},
		{"symlink", fs.ModeSymlink | 0o777, 1000, "is a symbolic link"},
		{"regular file", 0o600, 1000, "exists but is not a directory"},
		{"socket", fs.ModeSocket | 0o700, 1000, "exists but is not a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkDirType("/r/flowd", tt.mode)
			if err == nil {
				err = checkDirAccess("/r/flowd", tt.mode, tt.owner, 1000)
			}
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			if assert.Error(t, err) {
				assert.Contains(t, err.Error(), tt.want)
				assert.Contains(t, err.Error(), "/r/flowd")
				assert.Contains(t, err.Error(), EnvSocket)
			}
		})
	}
}
