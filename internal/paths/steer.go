package paths

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// EnvGiven is what a shim or hook finds about flowd in its environment
// and what it compares it with. An MCP client starts a server with the "env" of
// the server's entry in its config, and a project's config (a cloned
// repository's .mcp.json) is written by whoever wrote the repository:
// flowd's variables there could move the shim to another flowd, one
// started with a config or data directory of the writer's choosing, or
// out of the agent's session.
type EnvGiven struct {
	Getenv     func(string) string
	SocketFlag bool // --socket was given: the socket is on the command line, which the user sees
	// OwnSockets, OwnDataDir and OwnConfig are the user's own places
	// (OwnSockets…).
	OwnSockets []string
	OwnDataDir string
	OwnConfig  string
	// OwnFlowd is the first of sockets where a flowd of the user's
	// answers.
	OwnFlowd func(sockets []string) (string, bool)
	// Lowers says what the config file at path lowers from the user's
	// own config; a file that cannot be read lowers everything.
	Lowers func(path string) []string
}

// EnvSteer is what a shim or hook does with flowd's variables in its
// environment.
type EnvSteer struct {
	Socket string   // the user's flowd, used in place of FLOWD_SOCKET; "": keep the caller's choice
	Unset  []string // variables dropped before anything reads them
	// Steered says why the flowd is not surely the user's own: a shim
	// or hook taken there never passes a message unchecked. "": it is.
	Steered string
	Notes   []string // what was ignored and why, for stderr
}

// SteerEnv decides, for flowd's variables in a shim's or hook's
// environment, which it keeps. None may lower protection below the user's own setup: a
// config that lowers it is ignored, a session other than the client's
// own is ignored, and a socket or data directory elsewhere than the
// user's own is ignored while the user's flowd answers, or else kept
// with the shim or hook failing closed.
func SteerEnv(e EnvGiven) EnvSteer {
	var s EnvSteer
	ignore := func(name, why string) {
		s.Unset = append(s.Unset, name)
		s.Notes = append(s.Notes, "ignored "+name+"="+e.Getenv(name)+" from the environment: "+why)
	}
	if x, cc := e.Getenv("FLOWD_SESSION"), e.Getenv("CLAUDE_CODE_SESSION_ID"); x != "" && cc != "" && x != cc {
		// The hook joins Claude Code's session by its id: a shim set
		// apart from it is judged without what the agent read.
		ignore("FLOWD_SESSION", "it differs from the client's own session ("+cc+")")
	}
	if c := e.Getenv(EnvConfig); c != "" && filepath.Clean(c) != filepath.Clean(e.OwnConfig) {
		if low := e.Lowers(c); len(low) > 0 {
			ignore(EnvConfig, "it lowers protection from your config "+e.OwnConfig+" ("+strings.Join(low, "; ")+")")
		}
	}
	var away []string
	if d := e.Getenv(EnvDataDir); d != "" && filepath.Clean(d) != filepath.Clean(e.OwnDataDir) {
		away = append(away, EnvDataDir)
	}
	if sock := e.Getenv(EnvSocket); sock != "" && !e.SocketFlag && !slices.Contains(e.OwnSockets, sock) {
		away = append(away, EnvSocket)
	}
	if len(away) == 0 {
		return s
	}
	if own, ok := e.OwnFlowd(e.OwnSockets); ok && !e.SocketFlag {
		// Your flowd answers: the caller and any flowd it starts again
		// keep to your places.
		s.Socket = own
		for _, v := range []string{EnvSocket, EnvDataDir, EnvConfig} {
			if e.Getenv(v) != "" && !slices.Contains(s.Unset, v) {
				ignore(v, "your flowd answers on "+own)
			}
		}
		return s
	}
	var set []string
	for _, v := range away {
		set = append(set, v+"="+e.Getenv(v))
	}
	s.Steered = "the environment sets " + strings.Join(set, ", ") + ", which moves this off your own flowd, " +
		"so nothing passes unchecked while that flowd does not answer, whatever fail_mode says; if you did not set it, " +
		"remove it from where it was set (a server's env in an MCP client's config, an agent's settings; flowd doctor names project configs)"
	return s
}

// Own is a flowd of its own for a demo or a benchmark: its socket, data
// directory and config under dir, where the XDG variables in Env put a
// user's own places (Linux and other XDG systems). A shim or hook
// started with Env takes that flowd for the user's, not for one a
// project config steered it to (SteerEnv), and flowd's variables in Env
// say the same places for the flowd commands.
type Own struct {
	Socket, DataDir, ConfigFile string
	Env                         []string // to add to a process's environment
}

// OwnUnder lays out Own in dir and makes the directories flowd expects
// to find there (the socket's parent, the config's).
func OwnUnder(dir string) (Own, error) {
	run, state, conf := filepath.Join(dir, "run"), filepath.Join(dir, "state"), filepath.Join(dir, "config")
	o := Own{Socket: filepath.Join(run, "flowd", "flowd.sock"), DataDir: filepath.Join(state, "flowd"),
		ConfigFile: filepath.Join(conf, "flowd", "config.toml")}
	for _, d := range []string{run, filepath.Dir(o.ConfigFile)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return Own{}, fmt.Errorf("make flowd's places under %s: %w", dir, err)
		}
	}
	o.Env = []string{"XDG_RUNTIME_DIR=" + run, "XDG_STATE_HOME=" + state, "XDG_CONFIG_HOME=" + conf,
		EnvSocket + "=" + o.Socket, EnvDataDir + "=" + o.DataDir, EnvConfig + "=" + o.ConfigFile}
	return o, nil
}
