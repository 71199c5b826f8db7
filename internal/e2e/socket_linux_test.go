package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// MCP clients built on the SDKs start servers with a reduced environment
// (HOME, PATH, SHELL, TERM, USER, LOGNAME): no XDG_RUNTIME_DIR. A shim
// started that way must still reach the flowd the service started in the
// login's runtime directory, not start a second flowd or pass messages
// unchecked. The test gives itself a private /run in a mount namespace, so
// /run/user/UID is the test's own, and drives the Inspector CLI, which
// strips the environment as Claude Desktop does.
func TestReducedEnvironmentFindsServiceFlowd(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to give the test a private /run in a mount namespace (unshare --mount); CI runs as root")
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skipf("unshare (util-linux) is not on PATH: %v", err)
	}
	tools := toolsDir(t)
	node := nodeBin(t)
	declareSources()
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	require.NoError(t, os.Mkdir(home, 0o700))
	cfg := filepath.Join(dir, "flowd.toml")
	require.NoError(t, os.WriteFile(cfg, []byte(baseConfig), 0o600))
	run := "/run/user/" + strconv.Itoa(os.Getuid())
	socket := run + "/flowd/flowd.sock"

	// Inside the namespace: flowd as the user service runs it (the login's
	// XDG_RUNTIME_DIR, no --socket), then the Inspector with this
	// process's whole environment plus XDG_RUNTIME_DIR; the Inspector
	// strips it for the shim it starts. The shim must not start a flowd of
	// its own: if it cannot find this one, its call goes unrecorded.
	script := `set -eu
mount -t tmpfs -o mode=755 tmpfs /run
mkdir -m 700 -p "$RUN"
env -i HOME="$HOME_T" PATH="$PATH" XDG_RUNTIME_DIR="$RUN" "$FLOWD" run --config "$CFG" >"$DIR/flowd.log" 2>&1 &
flowd=$!
trap 'kill $flowd 2>/dev/null; wait $flowd 2>/dev/null || true' EXIT
# flowd signals readiness only to systemd: wait for its socket, bounded.
i=0
until [ -S "$SOCKET" ]; do
	i=$((i+1)); [ $i -lt 200 ] || { echo "flowd never listened on $SOCKET" >&2; cat "$DIR/flowd.log" >&2; exit 3; }
	kill -0 $flowd 2>/dev/null || { echo "flowd exited" >&2; cat "$DIR/flowd.log" >&2; exit 3; }
	sleep 0.05
done
cd "$TOOLS"
XDG_RUNTIME_DIR="$RUN" HOME="$HOME_T" npx --offline @modelcontextprotocol/inspector --cli --method tools/call --tool-name echo --tool-arg message=reduced-env \
	--format json -q -- "$SHIM" --name stripped --no-autostart -- "$NODE" "$EVERYTHING" stdio >"$DIR/inspector.out"
# The shim is gone once the Inspector returns; flowd's record of its call
# is written off the message path, so ask until it is there (bounded).
i=0
until XDG_RUNTIME_DIR="$RUN" HOME="$HOME_T" "$FLOWD" activity --type tool_call --server stripped --json >"$DIR/activity.json" && grep -q "\"echo\"" "$DIR/activity.json"; do
	i=$((i+1)); [ $i -lt 200 ] || break
	sleep 0.05
done
# What a user's CLI in a full login environment sees, and what one
# started without it sees: the same flowd.
XDG_RUNTIME_DIR="$RUN" HOME="$HOME_T" "$FLOWD" status --json >"$DIR/status-login.json" || true
env -i HOME="$HOME_T" PATH="$PATH" "$FLOWD" status --json >"$DIR/status-reduced.json" || true
`
	out, stderr, code := runTool(t, dir, 3*time.Minute, []string{unshare, "--mount", "--propagation", "private", "sh", "-c", script},
		"RUN="+run, "SOCKET="+socket, "HOME_T="+home, "FLOWD="+bins.flowd, "SHIM="+bins.shim, "CFG="+cfg, "DIR="+dir,
		"TOOLS="+tools, "NODE="+node, "EVERYTHING="+everythingJS(tools))
	require.Equal(t, 0, code, "namespace script failed\nstdout: %s\nstderr: %s", clip(out), clip(stderr))

	inspector, err := os.ReadFile(filepath.Join(dir, "inspector.out"))
	require.NoError(t, err)
	assert.Contains(t, string(inspector), "reduced-env", "the echo came back through the shim")

	activity, err := os.ReadFile(filepath.Join(dir, "activity.json"))
	require.NoError(t, err)
	var recs []record
	require.NoError(t, json.Unmarshal(activity, &recs), "flowd activity --json: %s", activity)
	require.NotEmpty(t, recs, "the service's flowd never saw the call of a shim started with a reduced environment")
	assert.Equal(t, "echo", recs[0].Tool)

	for _, name := range []string{"status-login.json", "status-reduced.json"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		var st struct {
			Running     bool     `json:"running"`
			Socket      string   `json:"socket"`
			OtherFlowds []string `json:"other_flowds"`
		}
		require.NoError(t, json.Unmarshal(b, &st), "%s: %s", name, b)
		assert.True(t, st.Running, "%s: flowd status finds the flowd", name)
		assert.Equal(t, socket, st.Socket, name)
		assert.Empty(t, st.OtherFlowds, "%s: one flowd", name)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "flowd.log"))
	assert.False(t, strings.Contains(string(log), "panic"), "flowd log: %s", log)
}
