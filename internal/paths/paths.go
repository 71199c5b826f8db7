package paths

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// Environment variables that override the platform defaults.
const (
	EnvSocket  = "FLOWD_SOCKET"
	EnvDataDir = "FLOWD_DATA_DIR"
	EnvConfig  = "FLOWD_CONFIG"
	// EnvStartedBy tells a flowd what started it, where its environment
	// does not (package ondemand sets it; service.StartedBy reads it).
	EnvStartedBy = "FLOWD_STARTED_BY"
	// StartedOnDemand is EnvStartedBy's value for a flowd that a shim or
	// flowd start started.
	StartedOnDemand = "on-demand"
)

// Store files in flowd's data directory. flowd, its offline commands,
// doctor and the on-demand starter all read them by these names.
const (
	ActivityStore   = "activity.db"
	QuarantineStore = "quarantine.db"
	PinsStore       = "pins.db"
	// HeldSessions lists the sessions flowd holds (package heldfile).
	HeldSessions = "held-sessions.json"
	// ConfigInForce is the config as flowd last applied it: a change that
	// lowers protection waits for `flowd config apply`, and shims keep to
	// this meanwhile.
	ConfigInForce = "config-in-force.toml"
)

// NeverRan reports whether flowd has never run with dataDir: neither its
// activity store nor a config in force is there. flowd then takes the
// config file as the user's setup, and so do shims. Only a path that is
// surely absent counts: one that cannot be looked at is there.
func NeverRan(dataDir string) bool {
	for _, f := range []string{ActivityStore, ConfigInForce} {
		if _, err := os.Lstat(filepath.Join(dataDir, f)); !errors.Is(err, fs.ErrNotExist) {
			return false
		}
	}
	return true
}

// SystemSocket is where a system flowd listens (flowd install --system on
// Linux): /run belongs to root, so no user can have put a socket there.
const SystemSocket = "/run/flowd/flowd.sock"

// SystemUnit is a system flowd's systemd unit (flowd install --system).
// While it is installed the machine's flowd is its users' flowd, running
// or not: its socket is gone while the service is stopped, and a client
// that then started a flowd of the user's own would shadow it for good
// (the user's socket, once there, wins).
const SystemUnit = "/etc/systemd/system/flowd.service"

// Socket is the socket a client (shim, hook, the flowd CLI) connects to
// when no flowd answers on any of Sockets, the first of:
//  1. FLOWD_SOCKET, when set;
//  2. SystemSocket, when a system flowd is installed (SystemUnit;
//     Linux), running or not: the machine's flowd, which clients do not
//     start in its place, and which a flowd any process of the user
//     started on the user's socket does not shadow (red team RT9-6: an
//     agent did, with a config of its choosing);
//  3. the user's own flowd socket (UserSocket), when it exists: a user
//     flowd runs, or ran, and is the one this user chose;
//  4. SystemSocket, when it exists (a system flowd without the unit);
//  5. the user's socket, where a shim starts flowd on demand.
//
// A client that can dial should prefer a flowd that answers (localsock.Find).
func Socket() string { return current().socket() }

// UserSocket is where the user's own flowd listens: FLOWD_SOCKET when set,
// else the platform's per-user place. `flowd run` listens here.
//
// The place depends on nothing but the uid and the file system, never on
// variables such as XDG_RUNTIME_DIR or TMPDIR: MCP clients start servers
// with a reduced environment, and a shim that computed another place than
// the service would start a second flowd or none at all.
func UserSocket() string { return current().userSocket() }

// Sockets lists, in order of preference, every place a client may find a
// flowd it should use: FLOWD_SOCKET alone when set; SystemSocket alone
// when a system flowd is installed (Socket); else the user's socket,
// the places an older flowd or one started with another environment may
// listen (XDG_RUNTIME_DIR, macOS's TMPDIR, /tmp), and the system socket.
func Sockets() []string { return current().sockets() }

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
	// exists reports whether something is at a path; nil: nothing is.
	exists func(string) bool
	// private reports whether a path is a real directory that uid owns and
	// no one else may write to; nil: none is.
	private func(string) bool
}

func current() platform {
	return platform{goos: runtime.GOOS, getenv: os.Getenv, uid: os.Getuid(), home: homeDir(), exists: exists, private: privateDir}
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
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
	user := p.userSocket()
	if p.getenv(EnvSocket) != "" || p.exists == nil {
		return user
	}
	if p.systemInstalled() {
		return SystemSocket
	}
	if p.exists(user) {
		return user
	}
	if p.goos == "linux" && (p.exists(SystemSocket) || p.exists(SystemUnit)) {
		return SystemSocket
	}
	return user
}

// systemInstalled: a system flowd is installed here (Linux): its unit
// where `flowd install --system` writes it (SystemUnit), or where a
// distribution's package puts units.
func (p platform) systemInstalled() bool {
	if p.goos != "linux" || p.exists == nil {
		return false
	}
	for _, u := range []string{SystemUnit, "/usr/lib/systemd/system/flowd.service", "/lib/systemd/system/flowd.service"} {
		if p.exists(u) {
			return true
		}
	}
	return false
}

func (p platform) userSocket() string {
	if s := p.getenv(EnvSocket); s != "" {
		return s
	}
	switch p.goos {
	case "windows":
		// Clients pass LOCALAPPDATA on, and without it the fallback is the
		// same directory.
		return p.join(p.localAppData(), "flowd", "flowd.sock")
	case "darwin":
		// macOS's per-user $TMPDIR is lost with the environment, but the
		// home directory is in the user database; ~/Library/Application
		// Support is too long for sun_path under a long user name.
		if s := p.join(p.home, "Library", "Caches", "flowd", "flowd.sock"); p.home != "" && checkSocketPath(p.goos, s) == nil {
			return s
		}
	case "linux":
		// systemd-logind's per-user runtime directory, the XDG_RUNTIME_DIR
		// of every login session, found without the variable.
		if run := p.join("/run/user", strconv.Itoa(p.uid)); p.private != nil && p.private(run) {
			return p.join(run, "flowd", "flowd.sock")
		}
	}
	return p.tmpSocket()
}

// tmpSocket is the last resort: a directory of the user's own in /tmp,
// which EnsureSocketDir refuses if someone else made it first.
func (p platform) tmpSocket() string {
	return p.join("/tmp", "flowd-"+strconv.Itoa(p.uid), "flowd.sock")
}

func (p platform) sockets() []string {
	user := p.userSocket()
	if p.getenv(EnvSocket) != "" {
		return []string{user}
	}
	if p.systemInstalled() {
		return []string{SystemSocket}
	}
	out := []string{user}
	add := func(s string) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if p.goos != "windows" {
		// Where flowd listened before its place stopped depending on the
		// environment, and where one started with another environment
		// listens.
		if run := p.xdg("XDG_RUNTIME_DIR"); run != "" {
			add(p.join(run, "flowd", "flowd.sock"))
		}
		if tmp := p.getenv("TMPDIR"); p.goos == "darwin" && tmp != "" {
			add(p.join(tmp, "flowd-"+strconv.Itoa(p.uid), "flowd.sock"))
		}
		add(p.tmpSocket())
	}
	if p.goos == "linux" {
		add(SystemSocket)
	}
	return out
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
// sun_path is 108 bytes on Linux and Windows and 104 on macOS and the BSDs,
// and Go keeps a byte for the terminating NUL of a path name (only Linux's
// abstract names, which flowd does not use, may fill it).
func maxSocketPath(goos string) int {
	switch goos {
	case "linux", "android", "windows":
		return 107
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

// OwnSockets, OwnDataDir and OwnConfigFile are Sockets, DataDir and
// ConfigFile as they are without flowd's own variables (FLOWD_SOCKET,
// FLOWD_DATA_DIR, FLOWD_CONFIG): the user's own flowd. An MCP client
// passes a server's "env" from its config to the shim, and a project's
// config (a cloned repository's .mcp.json) can set them there; a shim
// compares what it was given with these.
func OwnSockets() []string  { return current().own().sockets() }
func OwnDataDir() string    { return current().own().dataDir() }
func OwnConfigFile() string { return current().own().configFile() }

func (p platform) own() platform {
	env := p.getenv
	p.getenv = func(name string) string {
		if strings.HasPrefix(name, "FLOWD_") {
			return ""
		}
		return env(name)
	}
	return p
}
