package selfguard

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/flowd-dev/flowd/internal/claudecode"
)

// commandKeys are the settings keys whose value is a command line the
// agent runs by itself, outside any tool call its hooks see: Claude
// Code's credential and telemetry helpers, its status line and file
// suggestion commands, and every hook's or MCP server's "command".
var commandKeys = map[string]bool{"apiKeyHelper": true, "awsAuthRefresh": true, "awsCredentialExport": true,
	"otelHeadersHelper": true, "gcpAuthRefresh": true, "command": true, "statusLine": true, "fileSuggestion": true}

// stringMember matches a JSON member with a string value, in a whole
// file or in an edit's fragment of one.
var stringMember = regexp.MustCompile(`"([A-Za-z_][A-Za-z0-9_]*)"\s*:\s*("(?:[^"\\]|\\.)*")`)

// RunsCommands returns the command lines that text, written to p, makes
// an agent run on its own, and what p is: an agent's settings file
// (Claude Code's, Gemini CLI's, Cursor's hooks), or a Claude Code skill,
// slash command or subagent (its !`command`s and front-matter hooks).
// Written there, a command runs as surely as one written to a crontab,
// and no hook judges it when it does.
func RunsCommands(p, text string) ([]string, string) {
	if claudecode.SkillFile(p) {
		return claudecode.SkillCommands(text), "a Claude Code skill, command or agent (its ! commands run as it loads, unseen by any hook)"
	}
	if hookFileOf("/"+strings.TrimPrefix(p, "/")) == nil {
		return nil, ""
	}
	var out []string
	for _, m := range stringMember.FindAllStringSubmatch(text, -1) {
		var v string
		if commandKeys[m[1]] && json.Unmarshal([]byte(m[2]), &v) == nil && strings.TrimSpace(v) != "" {
			out = append(out, v)
		}
	}
	return out, "an agent's settings (the agent runs its commands on its own)"
}

// RedirectingEnv returns an environment entry that text (an agent's
// settings, whole or an edit's fragment) sets which makes the agent's
// tools load code or send their traffic elsewhere, or "". Environment
// names are upper case; the rule goes by the kind of name, not a list:
// a shell's startup file (BASH_ENV, ENV), a search path (PATH,
// PYTHONPATH, NODE_PATH, PERL5LIB), an interpreter's options that load
// a module (NODE_OPTIONS=--require, RUBYOPT=-r, JAVA_TOOL_OPTIONS=
// -javaagent), a startup script, a proxy or a model API's base URL, a
// certificate authority to trust, or TLS checks turned off.
func RedirectingEnv(text string) string {
	for _, m := range stringMember.FindAllStringSubmatch(text, -1) {
		k := m[1]
		var v string
		if strings.ToUpper(k) != k || json.Unmarshal([]byte(m[2]), &v) != nil {
			continue
		}
		if why := envEffect(k, v); why != "" {
			return k + " (" + why + ")"
		}
	}
	return ""
}

func envEffect(k, v string) string {
	switch {
	case (k == "ENV" || strings.HasSuffix(k, "_ENV")) && strings.ContainsAny(v, "/.~$"), // BASH_ENV=x.sh, not NODE_ENV=test
		strings.Contains(k, "STARTUP") || k == "PROMPT_COMMAND" || k == "ZDOTDIR":
		return "a file every shell or interpreter runs first"
	case k == "PATH" || strings.HasSuffix(k, "PATH") || strings.HasSuffix(k, "LIB"):
		return "where programs and modules are looked up"
	case strings.HasSuffix(k, "OPTIONS") || strings.HasSuffix(k, "OPT") || strings.HasSuffix(k, "OPTS"):
		for _, f := range strings.Fields(v) {
			for _, load := range []string{"-r", "--require", "--import", "--loader", "--experimental-loader", "-javaagent",
				"-agentpath", "-agentlib", "-M", "-I"} {
				if strings.HasPrefix(f, load) {
					return "options that load code"
				}
			}
		}
	case strings.HasSuffix(k, "_PROXY") && k != "NO_PROXY":
		return "a proxy all traffic goes through"
	case strings.HasSuffix(k, "BASE_URL") || strings.HasSuffix(k, "_ENDPOINT"):
		return "where the model's requests go"
	case strings.Contains(k, "CA_") || strings.HasSuffix(k, "CERTS") || strings.HasSuffix(k, "CERT_FILE") || strings.HasSuffix(k, "CA_BUNDLE"):
		return "a certificate authority to trust"
	case strings.Contains(k, "TLS") && strings.Contains(k, "REJECT") && v == "0":
		return "TLS checks off"
	}
	return ""
}
