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
		private                     []string // directories the user owns alone
		socket, dataDir, configFile string
	}{
		{
			name:       "linux with XDG",
			goos:       "linux",
			env:        map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000", "XDG_STATE_HOME": "/home/ann/st", "XDG_CONFIG_HOME": "/home/ann/cf"},
			home:       "/home/ann",
			private:    []string{"/run/user/1000"},
			socket:     "/run/user/1000/flowd/flowd.sock",
			dataDir:    "/home/ann/st/flowd",
			configFile: "/home/ann/cf/flowd/config.toml",
		},
		{
			name:       "linux: the login's runtime dir without XDG_RUNTIME_DIR (a client's reduced environment)",
			goos:       "linux",
			home:       "/home/ann",
			private:    []string{"/run/user/1000"},
			socket:     "/run/user/1000/flowd/flowd.sock",
			dataDir:    "/home/ann/.local/state/flowd",
			configFile: "/home/ann/.config/flowd/config.toml",
		},
		{
			name:       "linux without a runtime dir",
			goos:       "linux",
			home:       "/home/ann",
			socket:     "/tmp/flowd-1000/flowd.sock",
			dataDir:    "/home/ann/.local/state/flowd",
			configFile: "/home/ann/.config/flowd/config.toml",
		},
		{
			name:       "linux: XDG_RUNTIME_DIR does not move the socket",
			goos:       "linux",
			env:        map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000"},
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
			name:       "freebsd: XDG for data, /tmp for the socket",
			goos:       "freebsd",
			env:        map[string]string{"XDG_RUNTIME_DIR": "/var/run/xdg/ann"},
			home:       "/usr/home/ann",
			private:    []string{"/run/user/1000"},
			socket:     "/tmp/flowd-1000/flowd.sock",
			dataDir:    "/usr/home/ann/.local/state/flowd",
			configFile: "/usr/home/ann/.config/flowd/config.toml",
		},
		{
			name:       "darwin",
			goos:       "darwin",
			env:        map[string]string{"TMPDIR": "/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T/", "XDG_CONFIG_HOME": "/ignored"},
			home:       "/Users/ann",
			socket:     "/Users/ann/Library/Caches/flowd/flowd.sock",
			dataDir:    "/Users/ann/Library/Application Support/flowd",
			configFile: "/Users/ann/Library/Application Support/flowd/config.toml",
		},
		{
			name:       "darwin with a home too long for sun_path",
			goos:       "darwin",
			home:       "/Users/" + strings.Repeat("a", 80),
			socket:     "/tmp/flowd-1000/flowd.sock",
			dataDir:    "/Users/" + strings.Repeat("a", 80) + "/Library/Application Support/flowd",
			configFile: "/Users/" + strings.Repeat("a", 80) + "/Library/Application Support/flowd/config.toml",
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
			p := platform{goos: tt.goos, getenv: envOf(tt.env), uid: 1000, home: tt.home,
				private: func(d string) bool { return slices.Contains(tt.private, d) }}
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
		{goos: "linux", getenv: envOf(nil), uid: 1<<32 - 2, private: func(string) bool { return true }},
		{goos: "linux", getenv: envOf(nil), uid: 1 << 31},
		{goos: "darwin", getenv: envOf(nil), uid: 1 << 31, home: "/Users/" + longUser},
		{goos: "darwin", getenv: envOf(nil), uid: 1 << 31, home: "/Users/" + strings.Repeat(longUser, 3)},
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
	assert.Equal(t, []string{"/from/env.sock"}, Sockets(), "FLOWD_SOCKET alone")
	assert.Equal(t, "/from/env/data", DataDir())
	assert.Equal(t, "/from/env/config.toml", ConfigFile())

	if runtime.GOOS != "linux" {
		t.Logf("skipping the runtime-dir half: it describes Linux, this is %s", runtime.GOOS)
		return
	}
	// The environment does not move the socket: a client that strips it
	// finds the same place.
	t.Setenv(EnvSocket, "")
	t.Setenv("XDG_RUNTIME_DIR", "/run/user/4242")
	want := "/tmp/flowd-" + strconv.Itoa(os.Getuid()) + "/flowd.sock"
	if run := "/run/user/" + strconv.Itoa(os.Getuid()); privateDir(run) {
		want = run + "/flowd/flowd.sock"
	}
	assert.Equal(t, want, UserSocket())
	t.Setenv("XDG_RUNTIME_DIR", "")
	assert.Equal(t, want, UserSocket())
}

// Sockets lists every place a flowd of this user may answer, the
// environment-free one first, so a client finds a flowd that another
// environment started.
func TestSockets(t *testing.T) {
	tests := []struct {
		name    string
		goos    string
		env     map[string]string
		private []string
		want    []string
	}{
		{"linux login", "linux", map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000"}, []string{"/run/user/1000"},
			[]string{"/run/user/1000/flowd/flowd.sock", "/tmp/flowd-1000/flowd.sock", SystemSocket}},
		{"linux login, reduced environment", "linux", nil, []string{"/run/user/1000"},
			[]string{"/run/user/1000/flowd/flowd.sock", "/tmp/flowd-1000/flowd.sock", SystemSocket}},
		{"linux, XDG_RUNTIME_DIR elsewhere", "linux", map[string]string{"XDG_RUNTIME_DIR": "/xdg"}, []string{"/run/user/1000"},
			[]string{"/run/user/1000/flowd/flowd.sock", "/xdg/flowd/flowd.sock", "/tmp/flowd-1000/flowd.sock", SystemSocket}},
		{"linux without a runtime dir", "linux", map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000"}, nil,
			[]string{"/tmp/flowd-1000/flowd.sock", "/run/user/1000/flowd/flowd.sock", SystemSocket}},
		{"darwin", "darwin", map[string]string{"TMPDIR": "/var/folders/x/T/"}, nil,
			[]string{"/Users/ann/Library/Caches/flowd/flowd.sock", "/var/folders/x/T/flowd-1000/flowd.sock", "/tmp/flowd-1000/flowd.sock"}},
		{"windows", "windows", map[string]string{"LOCALAPPDATA": `C:\L`}, nil, []string{`C:\L\flowd\flowd.sock`}},
		{"FLOWD_SOCKET alone", "linux", map[string]string{EnvSocket: "/x.sock"}, []string{"/run/user/1000"}, []string{"/x.sock"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := "/home/ann"
			if tt.goos == "darwin" {
				home = "/Users/ann"
			}
			p := platform{goos: tt.goos, getenv: envOf(tt.env), uid: 1000, home: home,
				private: func(d string) bool { return slices.Contains(tt.private, d) }}
			assert.Equal(t, tt.want, p.sockets())
		})
	}
}

// Socket finds the machine's flowd first where one is installed, else
// the user's own flowd, then a system socket, and falls back to the
// user's socket, where a shim starts flowd.
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
		{"the system flowd installed and stopped: not shadowed", "linux", nil, []string{SystemUnit}, SystemSocket},
		{"the system flowd installed, a user flowd runs: not shadowed", "linux", nil, []string{user, SystemUnit}, SystemSocket},
		{"the system flowd from a package, a user flowd runs: not shadowed", "linux", nil, []string{user, "/usr/lib/systemd/system/flowd.service"}, SystemSocket},
		{"the system flowd installed, FLOWD_SOCKET names the user's own", "linux", map[string]string{EnvSocket: user}, []string{user, SystemUnit, SystemSocket}, user},
		{"both: the user's own wins", "linux", nil, []string{user, SystemSocket}, user},
		{"FLOWD_SOCKET wins over both", "linux", map[string]string{EnvSocket: "/x.sock"}, []string{user, SystemSocket}, "/x.sock"},
		{"FLOWD_SOCKET even when missing", "linux", map[string]string{EnvSocket: "/x.sock"}, []string{SystemSocket}, "/x.sock"},
		{"no system flowd off Linux", "freebsd", nil, []string{SystemSocket}, "/tmp/flowd-1000/flowd.sock"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000"}
			for k, v := range tt.env {
				env[k] = v
			}
			p := platform{goos: tt.goos, getenv: envOf(env), uid: 1000, home: "/home/ann",
				exists:  func(s string) bool { return slices.Contains(tt.present, s) },
				private: func(d string) bool { return d == "/run/user/1000" }}
			assert.Equal(t, tt.want, p.socket())
			if tt.env[EnvSocket] == "" && slices.Contains(tt.present, SystemUnit) {
				assert.Equal(t, []string{SystemSocket}, p.sockets(), "clients dial the installed system flowd alone")
			}
			if tt.env[EnvSocket] == "" && tt.goos == "linux" {
				assert.Equal(t, user, p.userSocket(), "flowd run listens on the user's socket whatever runs")
			}
		})
	}
}

// The user's own places are where flowd is without its variables: a
// server's env in a client's config must not move them.
func TestOwnIgnoresFlowdVariables(t *testing.T) {
	env := map[string]string{EnvSocket: "/tmp/evil.sock", EnvDataDir: "/tmp/d", EnvConfig: "/repo/c.toml", "XDG_CONFIG_HOME": "/xc"}
	p := platform{goos: "linux", getenv: envOf(env), uid: 1000, home: "/h"}
	assert.Equal(t, []string{"/tmp/evil.sock"}, p.sockets())
	own := p.own()
	assert.NotContains(t, own.sockets(), "/tmp/evil.sock")
	assert.Equal(t, "/tmp/flowd-1000/flowd.sock", own.userSocket())
	assert.Equal(t, "/h/.local/state/flowd", own.dataDir())
	assert.Equal(t, "/xc/flowd/config.toml", own.configFile(), "the user's XDG place stays theirs")
}
