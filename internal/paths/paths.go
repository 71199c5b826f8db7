package paths

import (
	"fmt"
	"os"
	"os/user"
	"path"
	"runtime"
	"strconv"
	"strings"
)

// Environment variables that override the platform defaults.
const (
	EnvSocket  = "FLOWD_SOCKET"
	EnvDataDir = "FLOWD_DATA_DIR"
	EnvConfig  = "FLOWD_CONFIG"
)

// Socket is the path of flowd's Unix socket.
func Socket() string { return current().socket() }

// DataDir is the directory that holds flowd's state (activity log, store).
func DataDir() string { return current().dataDir() }

// ConfigFile is the path of flowd's configuration file. It need not exist;
// whether a missing file means "use the defaults" is the caller's decision.
func ConfigFile() string { return current().configFile() }

// CheckSocketPath reports a socket path too long for this platform's
// sockaddr_un, which bind and connect would otherwise reject with a bare
// "invalid argument".
func CheckSocketPath(p string) error { return checkSocketPath(runtime.GOOS, p) }

// platform is everything the path choice depends on, so the choice can be
// tested for every OS on any OS.
type platform struct {
	goos   string
	getenv func(string) string
	uid    int
	home   string
}

func current() platform {
	return platform{goos: runtime.GOOS, getenv: os.Getenv, uid: os.Getuid(), home: homeDir()}
}

// homeDir falls back to the user database because services often run
// without $HOME.
func homeDir() string {
	if h, err := os.UserHomeDir(); err == nil {
		return h
	}
	if u, err := user.Current(); err == nil {
		return u.HomeDir
	}
	return ""
}

func (p platform) socket() string {
	if s := p.getenv(EnvSocket); s != "" {
		return s
	}
	switch p.goos {
	case "windows":
		return p.join(p.localAppData(), "flowd", "flowd.sock")
	case "darwin":
		// $TMPDIR is per user on macOS and short enough for sun_path, unlike
		// ~/Library/Application Support under a long user name.
		tmp := p.getenv("TMPDIR")
		if tmp == "" {
			tmp = "/tmp"
		}
		return p.join(tmp, "flowd-"+strconv.Itoa(p.uid), "flowd.sock")
	default:
		if run := p.xdg("XDG_RUNTIME_DIR"); run != "" {
			return p.join(run, "flowd", "flowd.sock")
		}
		return p.join("/tmp", "flowd-"+strconv.Itoa(p.uid), "flowd.sock")
	}
}

func (p platform) dataDir() string {
	if d := p.getenv(EnvDataDir); d != "" {
		return d
	}
	switch p.goos {
	case "windows":
		return p.join(p.localAppData(), "flowd", "data")
	case "darwin":
		return p.join(p.home, "Library", "Application Support", "flowd")
	default:
		if state := p.xdg("XDG_STATE_HOME"); state != "" {
			return p.join(state, "flowd")
		}
		return p.join(p.home, ".local", "state", "flowd")
	}
}

func (p platform) configFile() string {
	if f := p.getenv(EnvConfig); f != "" {
		return f
	}
	switch p.goos {
	case "windows":
		appData := p.getenv("APPDATA")
		if appData == "" {
			appData = p.join(p.home, "AppData", "Roaming")
		}
		return p.join(appData, "flowd", "config.toml")
	case "darwin":
		return p.join(p.home, "Library", "Application Support", "flowd", "config.toml")
	default:
		if conf := p.xdg("XDG_CONFIG_HOME"); conf != "" {
			return p.join(conf, "flowd", "config.toml")
		}
		return p.join(p.home, ".config", "flowd", "config.toml")
	}
}

func (p platform) localAppData() string {
	if d := p.getenv("LOCALAPPDATA"); d != "" {
		return d
	}
	return p.join(p.home, "AppData", "Local")
}

// xdg returns an XDG base directory variable, ignoring relative paths as the
// XDG Base Directory specification requires.
func (p platform) xdg(name string) string {
	if d := p.getenv(name); strings.HasPrefix(d, "/") {
		return d
	}
	return ""
}

// join joins with the target platform's separator: filepath.Join would use
// the separator of the machine running the tests.
func (p platform) join(elem ...string) string {
	if p.goos != "windows" {
		return path.Join(elem...)
	}
	return strings.TrimRight(elem[0], `\/`) + `\` + strings.Join(elem[1:], `\`)
}

// maxSocketPath is the longest socket path Go's syscall package accepts:
// sun_path is 108 bytes on Linux and Windows, which need no terminating NUL,
// and 104 bytes on macOS and the BSDs, which do.
func maxSocketPath(goos string) int {
	switch goos {
	case "linux", "android", "windows":
		return 108
	}
	return 103
}

func checkSocketPath(goos, p string) error {
	if limit := maxSocketPath(goos); len(p) > limit {
		return fmt.Errorf("socket path %s is %d bytes, longer than the %d %s allows: set %s (or --socket) to a shorter path",
			p, len(p), limit, goos, EnvSocket)
	}
	return nil
}
