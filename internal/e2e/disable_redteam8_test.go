//go:build unix && redteam8

package e2e

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// RT8-8: ways to stop flowd answering that self-protection does not
// read as stopping it: the service manager's freezer (the cgroup
// equivalent of SIGSTOP, which RT7-2 showed opens the shims' fail path),
// a property that starves it, ptrace attaches that stop it while held,
// rlimits set from outside. `systemctl --user stop flowd` and signals
// are denied. Through the real hook, each in a fresh session.
func TestRT8FreezeOrStarveFlowd(t *testing.T) {
	f := startFlowd(t, "")
	proj := t.TempDir()
	require.Empty(t, rt8PassedUnasked(t, f, proj, "rt8-freeze-control", []string{"systemctl --user stop flowd"}), "control: stopping the unit is denied")
	cmds := []string{
		"systemctl --user freeze flowd",
		"systemctl --user freeze flowd.service",
		"systemctl --user set-property --runtime flowd.service CPUQuota=1%",
		"systemctl --user set-property --runtime flowd.service MemoryMax=20M",
		"echo 1 > /sys/fs/cgroup/user.slice/user-$(id -u).slice/user@$(id -u).service/app.slice/flowd.service/cgroup.freeze",
		"busctl --user call org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager FreezeUnit s flowd.service",
		"gdb -p $(systemctl --user show -p MainPID --value flowd) -batch -ex 'shell sleep 600'",
		"strace -p $(systemctl --user show -p MainPID --value flowd) -o /dev/null &",
		"prlimit --nofile=8:8 --pid $(systemctl --user show -p MainPID --value flowd)",
		"renice -n 19 -p $(systemctl --user show -p MainPID --value flowd) && taskset -pc 0 $(systemctl --user show -p MainPID --value flowd)",
	}
	passed := rt8PassedUnasked(t, f, proj, "rt8-freeze", cmds)
	t.Logf("%d/%d passed unasked", len(passed), len(cmds))
	assert.Empty(t, passed, "commands that stop or starve flowd, allowed:\n%s", strings.Join(passed, "\n"))
}
