package localsock

import (
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flowd-dev/flowd/internal/paths"
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
				assert.Contains(t, err.Error(), paths.EnvSocket)
			}
		})
	}
}

func TestCheckTrustedDir(t *testing.T) {
	const flowd = 990
	tests := []struct {
		name  string
		mode  fs.FileMode
		owner int
		want  string // "" means trusted
		fix   string
	}{
		{"flowd's own 0755", fs.ModeDir | 0o755, flowd, "", ""},
		{"flowd's own 0750", fs.ModeDir | 0o750, flowd, "", ""},
		{"root's 0755 (/run)", fs.ModeDir | 0o755, 0, "", ""},
		{"root's setgid", fs.ModeDir | fs.ModeSetgid | 0o755, 0, "", ""},
		{"sticky and world-writable (/tmp)", fs.ModeDir | fs.ModeSticky | 0o777, 0, "is writable by group or others (mode 0777)", "sudo chmod go-w /r/flowd"},
		{"group-writable", fs.ModeDir | 0o775, flowd, "is writable by group or others (mode 0775)", "sudo chmod go-w /r/flowd"},
		{"another user's", fs.ModeDir | 0o755, 1001, "belongs to uid 1001, which is neither root nor flowd's uid 990", "sudo chown root /r/flowd"},
		{"symlink", fs.ModeSymlink | 0o777, 0, "is a symbolic link", "unset " + paths.EnvSocket + " or point it at a path without symbolic links"},
		{"a file", 0o644, 0, "is not a directory", "sudo rm /r/flowd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkTrustedDir("/r/flowd", tt.mode, tt.owner, flowd)
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			var te *TrustError
			if assert.ErrorAs(t, err, &te) {
				assert.Equal(t, "/r/flowd", te.Dir)
				assert.Equal(t, tt.fix, te.Fix)
				assert.Contains(t, err.Error(), "/r/flowd "+tt.want+", so another user could put their own socket in flowd's place")
			}
		})
	}
}
