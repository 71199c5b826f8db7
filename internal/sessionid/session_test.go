package sessionid

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestID(t *testing.T) {
	tests := []struct {
		h    Hints
		want string
	}{
		{Hints{Explicit: "e1", ClaudeCode: "cc", ClientPID: 4}, "e1"},
		{Hints{ClaudeCode: "cc", ClientPID: 4}, "cc"},
		{Hints{ClientPID: 4, ClientStartTime: 99}, "proc-4-99"},
		{Hints{}, "unknown"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.h.ID())
	}
}

func TestIsLauncher(t *testing.T) {
	for name, want := range map[string]bool{
		"bash": true, "/bin/sh": true, "npx": true, "npm exec @model": true, "cmd.exe": true,
		"claude": false, "node": false, "Claude": false, "python3": false,
	} {
		assert.Equal(t, want, IsLauncher(name), name)
	}
}

// TestClientSkipsShells runs this test binary under `sh -c` and checks that
// the client it finds is this process, not the shell between them.
func TestClientSkipsShells(t *testing.T) {
	if os.Getenv("SESSION_TEST_CHILD") == "1" {
		pid, start, _ := client(os.Getppid())
		os.Stdout.WriteString(strconv.Itoa(pid) + " " + strconv.FormatUint(start, 10))
		os.Exit(0)
	}
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc on this system: the ancestry walk is Linux-only")
	}
	cmd := exec.Command("/bin/sh", "-c", `"$0" -test.run '^TestClientSkipsShells$'; true`, os.Args[0])
	cmd.Env = append(os.Environ(), "SESSION_TEST_CHILD=1")
	out, err := cmd.Output()
	require.NoError(t, err)
	f := strings.Fields(string(out))
	require.Len(t, f, 2, "child output %q", out)
	assert.Equal(t, strconv.Itoa(os.Getpid()), f[0])
	self, ok := readProc(os.Getpid())
	require.True(t, ok)
	assert.Equal(t, strconv.FormatUint(self.start, 10), f[1])
}

func TestScopedOwner(t *testing.T) {
	id := Scoped(1000, "cc-1")
	assert.Equal(t, "uid1000:cc-1", id)
	uid, ok := Owner(id)
	assert.True(t, ok)
	assert.Equal(t, 1000, uid)

	// A user cannot name a session that belongs to another: whatever they
	// put in FLOWD_SESSION, their own uid comes first.
	uid, ok = Owner(Scoped(1001, "uid1000:cc-1"))
	assert.True(t, ok)
	assert.Equal(t, 1001, uid)

	for _, unscoped := range []string{"cc-1", "proc-4-99", "unknown", "uid:x", "uidx:y", "uid12", "", "UID5:x", "uid-1:x"} {
		_, ok := Owner(unscoped)
		assert.False(t, ok, unscoped)
	}
}
