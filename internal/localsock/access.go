package localsock

import (
	"fmt"
	"io/fs"
	"slices"
)

// Cred is who is at the other end of a connection, as the kernel recorded
// it when the connection was made.
type Cred struct {
	UID    int   `json:"uid"`
	GID    int   `json:"gid"`
	Groups []int `json:"groups,omitempty"` // supplementary groups
	// PID is the peer process as the kernel recorded it at connect time
	// (Linux); 0 where it is not told. It names who asked, for a record
	// the user reads: the process may since have exited.
	PID int `json:"pid,omitempty"`
}

// noGroup is access.group when no group shares the socket.
const noGroup = -1

// access is who a flowd admits: the user it runs as and root always, and
// the members of group when its socket is shared with one (a system flowd).
type access struct {
	owner int
	group int
}

// admit says why c may not talk to this flowd, or nil if it may.
func (a access) admit(c Cred) error {
	if c.UID == a.owner || c.UID == 0 {
		return nil
	}
	if a.group == noGroup {
		return fmt.Errorf("peer runs as uid %d, not %d", c.UID, a.owner)
	}
	if c.GID == a.group || slices.Contains(c.Groups, a.group) {
		return nil
	}
	return fmt.Errorf("peer uid %d (gid %d, groups %v) is neither uid %d, root, nor a member of group %d",
		c.UID, c.GID, c.Groups, a.owner, a.group)
}

// sharedGroup is the group a system flowd's socket is shared with: the
// socket's group when its mode lets that group connect (read and write),
// else none. A socket that is also open to others is still shared with
// its group only: Admit refuses the rest.
func sharedGroup(mode fs.FileMode, gid int) int {
	if mode.Perm()&0o060 == 0o060 {
		return gid
	}
	return noGroup
}
