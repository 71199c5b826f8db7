package paths

import (
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func envOf(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestPlatformPaths(t *testing.T) {
	tests := []struct {
		name                        string
		goos                        string
		env                         map[string]string
		home                        string
		socket, dataDir, configFile string
	}{
		{
			name:       "linux with XDG",
			goos:       "linux",
			env:        map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000", "XDG_STATE_HOME": "/home/ann/st", "XDG_CONFIG_HOME": "/home/ann/cf"},
			home:       "/home/ann",
			socket:     "/run/user/1000/flowd/flowd.sock",
			dataDir:    "/home/ann/st/flowd",
			configFile: "/home/ann/cf/flowd/config.toml",
		},
		{
			name:       "linux without XDG",
			goos:       "linux",
			home:       "/home/ann",
			socket:     "/tmp/flowd-1000/flowd.sock",
			dataDir:    "/home/ann/.local/state/flowd",
			configFile: "/home/ann/.config/flowd/config.toml",
		},
		{
			name:       "linux ignores relative XDG paths",
			goos:       "linux",
			env:        map[string]string{"XDG_RUNTIME_DIR": "run", "XDG_STATE_HOME": "st", "XDG_CONFIG_HOME": "./cf"},
			home:       "/home/ann",
			socket:     "/tmp/flowd-1000/flowd.sock",
			dataDir:    "/home/ann/.local/state/flowd",
			configFile: "/home/ann/.config/flowd/config.toml",
		},
		{
			name:       "freebsd follows XDG too",
			goos:       "freebsd",
			env:        map[string]string{"XDG_RUNTIME_DIR": "/var/run/xdg/ann"},
			home:       "/usr/home/ann",
			socket:     "/var/run/xdg/ann/flowd/flowd.sock",
			dataDir:    "/usr/home/ann/.local/state/flowd",
			configFile: "/usr/home/ann/.config/flowd/config.toml",
		},
		{
			name:       "darwin",
			goos:       "darwin",
			env:        map[string]string{"TMPDIR": "/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T/", "XDG_CONFIG_HOME": "/ignored"},
			home:       "/Users/ann",
			socket:     "/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T/flowd-1000/flowd.sock",
			dataDir:    "/Users/ann/Library/Application Support/flowd",
			configFile: "/Users/ann/Library/Application Support/flowd/config.toml",
		},
		{
			name:       "darwin without TMPDIR",
			goos:       "darwin",
			home:       "/Users/ann",
			socket:     "/tmp/flowd-1000/flowd.sock",
			dataDir:    "/Users/ann/Library/Application Support/flowd",
			configFile: "/Users/ann/Library/Application Support/flowd/config.toml",
		},
		{
			name:       "windows",
			goos:       "windows",
			env:        map[string]string{"LOCALAPPDATA": `C:\Users\ann\AppData\Local`, "APPDATA": `C:\Users\ann\AppData\Roaming\`},
			home:       `C:\Users\ann`,
			socket:     `C:\Users\ann\AppData\Local\flowd\flowd.sock`,
			dataDir:    `C:\Users\ann\AppData\Local\flowd\data`,
			configFile: `C:\Users\ann\AppData\Roaming\flowd\config.toml`,
		},
		{
			name:       "windows without AppData variables",
			goos:       "windows",
			home:       `C:\Users\ann`,
			socket:     `C:\Users\ann\AppData\Local\flowd\flowd.sock`,
			dataDir:    `C:\Users\ann\AppData\Local\flowd\data`,
			configFile: `C:\Users\ann\AppData\Roaming\flowd\config.toml`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := platform{goos: tt.goos, getenv: envOf(tt.env), uid: 1000, home: tt.home}
			assert.Equal(t, tt.socket, p.socket())
			assert.Equal(t, tt.dataDir, p.dataDir())
			assert.Equal(t, tt.configFile, p.configFile())
		})
	}
}

func TestOverridesWinOnEveryPlatform(t *testing.T) {
	env := map[string]string{
		EnvSocket:         "/s/x.sock",
		EnvDataDir:        "/d",
		EnvConfig:         "/c.toml",
		"XDG_RUNTIME_DIR": "/run/user/1000",
		"LOCALAPPDATA":    `C:\L`,
		"APPDATA":         `C:\A`,
		"TMPDIR":          "/t",
	}
	for _, goos := range []string{"linux", "darwin", "windows", "openbsd"} {
		p := platform{goos: goos, getenv: envOf(env), uid: 1000, home: "/h"}
		assert.Equal(t, "/s/x.sock", p.socket(), goos)
		assert.Equal(t, "/d", p.dataDir(), goos)
		assert.Equal(t, "/c.toml", p.configFile(), goos)
	}
}

func TestCheckSocketPath(t *testing.T) {
	path := func(n int) string { return "/" + strings.Repeat("a", n-1) }
	tests := []struct {
		goos string
		n    int
		ok   bool
	}{
		{"linux", 107, true},
		{"linux", 108, false},
		{"windows", 107, true},
		{"windows", 108, false},
		{"darwin", 103, true},
		{"darwin", 104, false},
		{"freebsd", 104, false},
	}
	for _, tt := range tests {
		err := checkSocketPath(tt.goos, path(tt.n))
		if tt.ok {
			assert.NoError(t, err, "%s, %d bytes", tt.goos, tt.n)
			continue
		}
		if assert.Error(t, err, "%s, %d bytes", tt.goos, tt.n) {
			assert.Contains(t, err.Error(), EnvSocket)
			assert.Contains(t, err.Error(), "bytes, longer than the")
		}
	}
}

// The defaults must fit in sun_path even for a long user name or a long
// macOS $TMPDIR, or flowd could not start without FLOWD_SOCKET.
func TestDefaultSocketsFit(t *testing.T) {
	longUser := strings.Repeat("u", 32) // the usual user name limit
	for _, p := range []platform{
		{goos: "linux", getenv: envOf(map[string]string{"XDG_RUNTIME_DIR": "/run/user/4294967294"}), uid: 1 << 31},
		{goos: "linux", getenv: envOf(nil), uid: 1 << 31},
		{goos: "darwin", getenv: envOf(map[string]string{"TMPDIR": "/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T/"}), uid: 1 << 31},
		{goos: "windows", getenv: envOf(map[string]string{"LOCALAPPDATA": `C:\Users\` + longUser + `\AppData\Local`})},
	} {
		assert.NoError(t, checkSocketPath(p.goos, p.socket()))
	}
}

func TestCurrentUsesThisProcess(t *testing.T) {
	t.Setenv(EnvSocket, "/from/env.sock")
	t.Setenv(EnvDataDir, "/from/env/data")
	t.Setenv(EnvConfig, "/from/env/config.toml")
	assert.Equal(t, "/from/env.sock", Socket())
	assert.Equal(t, "/from/env/data", DataDir())
	assert.Equal(t, "/from/env/config.toml", ConfigFile())

	if runtime.GOOS != "linux" {
		t.Logf("skipping the XDG half: it describes Linux, this is %s", runtime.GOOS)
		return
	}
	t.Setenv(EnvSocket, "")
	t.Setenv("XDG_RUNTIME_DIR", "/run/user/4242")
	assert.Equal(t, "/run/user/4242/flowd/flowd.sock", Socket())
	t.Setenv("XDG_RUNTIME_DIR", "")
	assert.Equal(t, "/tmp/flowd-"+strconv.Itoa(os.Getuid())+"/flowd.sock", Socket())
}

// Socket finds the user's own flowd first, then the machine's, and falls
// back to the user's socket, where a shim starts flowd.
func TestSocketDiscovery(t *testing.T) {
	const user = "/run/user/1000/flowd/flowd.sock"
	tests := []struct {
		name    string
		goos    string
		env     map[string]string
		present []string
		want    string
	}{
		{"nothing runs: the user's, for a shim to start", "linux", nil, nil, user},
		{"a user flowd", "linux", nil, []string{user}, user},
		{"only the system flowd", "linux", nil, []string{SystemSocket}, SystemSocket},
		{"both: the user's own wins", "linux", nil, []string{user, SystemSocket}, user},
		{"FLOWD_SOCKET wins over both", "linux", map[string]string{EnvSocket: "/x.sock"}, []string{user, SystemSocket}, "/x.sock"},
		{"FLOWD_SOCKET even when missing", "linux", map[string]string{EnvSocket: "/x.sock"}, []string{SystemSocket}, "/x.sock"},
		{"no system flowd off Linux", "freebsd", nil, []string{SystemSocket}, user},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000"}
			for k, v := range tt.env {
				env[k] = v
			}
			p := platform{goos: tt.goos, getenv: envOf(env), uid: 1000, home: "/home/ann",
				exists: func(s string) bool { return slices.Contains(tt.present, s) }}
			assert.Equal(t, tt.want, p.socket())
			if tt.env[EnvSocket] == "" {
				assert.Equal(t, user, p.userSocket(), "flowd run listens on the user's socket whatever runs")
			}
		})
	}
}
