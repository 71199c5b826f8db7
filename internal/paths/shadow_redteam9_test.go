//go:build redteam9

package paths

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// RT9-6: socket squatting of a system flowd. While the machine's flowd
// is installed (SystemUnit) and running (SystemSocket), a process of the
// user (an agent's Bash, or a note it runs: RT9-1d) that starts the real
// flowd binary on the user's own socket with a config of its choosing
// (`flowd run --data-dir /tmp/d --config weak.toml`: a first start, so
// the config is in force as it is) becomes the flowd of every shim and
// hook started after it: the user's socket, "once there, wins", first
// in Socket and in Sockets (the order clients dial in). The system
// flowd, whose config and stores the README says are out of the users'
// reach, no longer sees those agents.
func TestRT9_6_UserSocketShadowsSystemFlowd(t *testing.T) {
	user := "/run/user/1000/flowd/flowd.sock"
	p := platform{goos: "linux", getenv: envOf(nil), uid: 1000, home: "/home/ann",
		exists:  func(s string) bool { return s == SystemUnit || s == SystemSocket || s == user },
		private: func(d string) bool { return d == "/run/user/1000" }}
	assert.Equal(t, SystemSocket, p.socket(), "with a system flowd installed and running, clients go to the user's socket a user process made")
	assert.Equal(t, SystemSocket, p.sockets()[0], "clients dial the user's socket before the system flowd's")
}
