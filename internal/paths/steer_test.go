package paths

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A project's MCP config (a cloned repository's .mcp.json) sets flowd's
// variables in a server's env: none of them may take the shim off the
// user's flowd or below the user's own setup.
func TestSteerEnv(t *testing.T) {
	own := []string{"/run/user/1000/flowd/flowd.sock", "/tmp/flowd-1000/flowd.sock"}
	weaker := "/repo/weak.toml"
	tests := []struct {
		name      string
		env       map[string]string
		flag      bool
		answering string // where the user's flowd answers; "" nowhere
		unset     []string
		socket    string
		steered   string // in Steered; "" none
	}{
		{name: "nothing set", env: nil},
		{name: "the user's own places", env: map[string]string{"FLOWD_SOCKET": own[1], "FLOWD_DATA_DIR": "/home/u/.local/state/flowd/", "FLOWD_CONFIG": "/home/u/.config/flowd/config.toml"}},
		{name: "a config as strict as the user's", env: map[string]string{"FLOWD_CONFIG": "/repo/strict.toml"}},
		{name: "a config that lowers protection", env: map[string]string{"FLOWD_CONFIG": weaker}, unset: []string{"FLOWD_CONFIG"}},
		{name: "a session apart from the client's", env: map[string]string{"FLOWD_SESSION": "x", "CLAUDE_CODE_SESSION_ID": "cc"}, unset: []string{"FLOWD_SESSION"}},
		{name: "the client's own session", env: map[string]string{"FLOWD_SESSION": "cc", "CLAUDE_CODE_SESSION_ID": "cc"}},
		{name: "a session where the client names none", env: map[string]string{"FLOWD_SESSION": "x"}},
		{name: "another socket, the user's flowd answers", env: map[string]string{"FLOWD_SOCKET": "/tmp/evil.sock", "FLOWD_DATA_DIR": "/tmp/d", "FLOWD_CONFIG": "/repo/strict.toml"},
			answering: own[0], socket: own[0], unset: []string{"FLOWD_SOCKET", "FLOWD_DATA_DIR", "FLOWD_CONFIG"}},
		{name: "another socket, no flowd of the user's", env: map[string]string{"FLOWD_SOCKET": "/tmp/evil.sock"}, steered: "FLOWD_SOCKET=/tmp/evil.sock"},
		{name: "another data dir, no flowd of the user's", env: map[string]string{"FLOWD_DATA_DIR": "/tmp/d"}, steered: "FLOWD_DATA_DIR=/tmp/d"},
		{name: "another data dir, the user's flowd answers", env: map[string]string{"FLOWD_DATA_DIR": "/tmp/d"}, answering: own[0], socket: own[0], unset: []string{"FLOWD_DATA_DIR"}},
		{name: "a weaker config and another socket", env: map[string]string{"FLOWD_SOCKET": "/tmp/evil.sock", "FLOWD_CONFIG": weaker},
			unset: []string{"FLOWD_CONFIG"}, steered: "FLOWD_SOCKET=/tmp/evil.sock"},
		{name: "--socket on the command line wins over FLOWD_SOCKET", env: map[string]string{"FLOWD_SOCKET": "/tmp/evil.sock"}, flag: true},
		{name: "--socket with another data dir", env: map[string]string{"FLOWD_DATA_DIR": "/tmp/d"}, flag: true, answering: own[0], steered: "FLOWD_DATA_DIR=/tmp/d"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := SteerEnv(EnvGiven{
				Getenv:     func(k string) string { return tt.env[k] },
				SocketFlag: tt.flag,
				OwnSockets: own, OwnDataDir: "/home/u/.local/state/flowd", OwnConfig: "/home/u/.config/flowd/config.toml",
				OwnFlowd: func(s []string) (string, bool) { return tt.answering, tt.answering != "" },
				Lowers: func(p string) []string {
					if p == weaker {
						return []string{"shim.fail_mode closed → open"}
					}
					return nil
				},
			})
			assert.ElementsMatch(t, tt.unset, s.Unset)
			assert.Equal(t, tt.socket, s.Socket)
			assert.Len(t, s.Notes, len(tt.unset), "each ignored variable is said")
			for _, v := range tt.unset {
				assert.Contains(t, strings.Join(s.Notes, "\n"), "ignored "+v+"=")
			}
			if tt.steered == "" {
				assert.Empty(t, s.Steered)
			} else {
				assert.Contains(t, s.Steered, tt.steered)
			}
		})
	}
}

// A demo's or benchmark's own flowd is, to a shim started with its
// environment, the user's own: nothing in it reads as steered.
func TestOwnUnderIsTheUsersOwn(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the XDG places are Linux's")
	}
	o, err := OwnUnder(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range o.Env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	if !slices.Contains(OwnSockets(), o.Socket) || OwnDataDir() != o.DataDir || OwnConfigFile() != o.ConfigFile {
		t.Fatalf("own places %q, %q, %q; want %+v", OwnSockets(), OwnDataDir(), OwnConfigFile(), o)
	}
	if _, err := os.Stat(filepath.Dir(o.ConfigFile)); err != nil {
		t.Fatal(err)
	}
}
