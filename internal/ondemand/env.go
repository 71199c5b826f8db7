package ondemand

import (
	"strings"
)

// passedEnv are the variables a flowd started on demand takes from the
// process that starts it (a shim or hook, whose environment is the
// agent's or the MCP client's): what finds the user's files and speaks
// their language, nothing that changes how the program runs. Loader and
// runtime settings (LD_PRELOAD, DYLD_*, GODEBUG, GOGC, GOMEMLIMIT,
// GOTRACEBACK), a service manager's hand-over (LISTEN_FDS,
// NOTIFY_SOCKET), TLS roots (SSL_CERT_FILE) and flowd's own settings are
// left behind: an agent that can set its own environment (an MCP
// server's env in a project's .mcp.json, Claude Code's settings) must
// not thereby weaken or take over the flowd that judges it. flowd's
// paths go on its command line instead (Start).
var passedEnv = map[string]bool{
	"HOME": true, "USER": true, "LOGNAME": true, "PATH": true, "LANG": true, "LANGUAGE": true, "TZ": true, "TMPDIR": true,
	// The feeds and exports flowd fetches and sends over TLS, which it
	// verifies: a corporate network's proxy.
	"HTTPS_PROXY": true, "https_proxy": true, "HTTP_PROXY": true, "http_proxy": true, "NO_PROXY": true, "no_proxy": true,
	// Windows: where the user's files are, and what the runtime needs.
	"SYSTEMROOT": true, "SYSTEMDRIVE": true, "WINDIR": true, "USERPROFILE": true, "USERNAME": true, "LOCALAPPDATA": true,
	"APPDATA": true, "PROGRAMDATA": true, "TEMP": true, "TMP": true, "PATHEXT": true, "COMSPEC": true,
}

// startEnv is the environment of a flowd started on demand: of environ,
// the variables passedEnv and the locale's (LC_*) keep, and what tells
// flowd how it was started. Windows' names are matched in any case, as
// Windows does.
func startEnv(environ []string, windows bool, extra ...string) []string {
	var out []string
	for _, kv := range environ {
		name, _, ok := strings.Cut(kv, "=")
		if !ok || name == "" {
			continue
		}
		if passedEnv[name] || strings.HasPrefix(name, "LC_") || windows && passedEnv[strings.ToUpper(name)] {
			out = append(out, kv)
		}
	}
	return append(out, extra...)
}
