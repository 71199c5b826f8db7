package localsock

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAdmit(t *testing.T) {
	const flowd, group = 990, 990
	user := access{owner: 1000, group: noGroup}
	system := access{owner: flowd, group: group}
	tests := []struct {
		name   string
		access access
		peer   Cred
		want   string // "" means admitted
	}{
		{"user flowd: same uid", user, Cred{UID: 1000, GID: 1000}, ""},
		{"user flowd: root", user, Cred{UID: 0, GID: 0}, ""},
		{"user flowd: another user", user, Cred{UID: 1001, GID: 1001}, "peer runs as uid 1001, not 1000"},
		{"user flowd: sharing a group is not enough", user, Cred{UID: 1001, GID: 1000, Groups: []int{1000}}, "peer runs as uid 1001, not 1000"},
		{"system flowd: its own account", system, Cred{UID: flowd, GID: flowd}, ""},
		{"system flowd: root", system, Cred{UID: 0, GID: 0}, ""},
		{"system flowd: supplementary member", system, Cred{UID: 1000, GID: 1000, Groups: []int{27, group}}, ""},
		{"system flowd: primary member", system, Cred{UID: 1000, GID: group}, ""},
		{"system flowd: non-member", system, Cred{UID: 1001, GID: 1001, Groups: []int{27, 100}},
			"peer uid 1001 (gid 1001, groups [27 100]) is neither uid 990, root, nor a member of group 990"},
		{"system flowd: no groups known", system, Cred{UID: 1001, GID: 1001}, "nor a member of group 990"},
		{"system flowd shared with root's group: a member", access{owner: flowd, group: 0}, Cred{UID: 1000, GID: 1000, Groups: []int{0}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.access.admit(tt.peer)
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			assert.ErrorContains(t, err, tt.want)
		})
	}
}

func TestSharedGroup(t *testing.T) {
	tests := []struct {
		mode fs.FileMode
		want int
	}{
		{fs.ModeSocket | 0o660, 990},
		{fs.ModeSocket | 0o666, 990}, // open to others too: Admit still takes only the group
		{fs.ModeSocket | 0o670, 990},
		{fs.ModeSocket | 0o600, noGroup},
		{fs.ModeSocket | 0o640, noGroup}, // read is not enough to connect
		{fs.ModeSocket | 0o620, noGroup},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, sharedGroup(tt.mode, 990), "%v", tt.mode)
	}
}

func TestTrustListener(t *testing.T) {
	untrusted := errors.New("/tmp is writable by group or others")
	tests := []struct {
		name     string
		me, uid  int
		pathErr  error
		want     string
		pathRead bool
	}{
		{"my own flowd", 1000, 1000, untrusted, "", false},
		{"root's flowd", 1000, 0, untrusted, "", false},
		{"root dialing its own", 0, 0, untrusted, "", false},
		{"a system flowd's account in a trusted place", 1000, 990, nil, "", true},
		{"root dialing a system flowd", 0, 990, nil, "", true},
		{"another uid in a place others can write", 1000, 1001, untrusted,
			"the listener runs as uid 1001, not as you (uid 1000) or root, and /tmp is writable", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			read := false
			err := trustListener(tt.me, tt.uid, func() error { read = true; return tt.pathErr })
			assert.Equal(t, tt.pathRead, read, "path checked only for a listener that is neither me nor root")
			if tt.want == "" {
				assert.NoError(t, err)
				return
			}
			assert.ErrorContains(t, err, tt.want)
		})
	}
}
