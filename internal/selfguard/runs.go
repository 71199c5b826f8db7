package selfguard

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/flowd-dev/flowd/internal/claudecode"
	"github.com/flowd-dev/flowd/internal/geminicli"
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
// (Claude Code's, Gemini CLI's, Cursor's hooks), a Claude Code skill,
// slash command or subagent (its !`command`s and front-matter hooks),
// its own or a plugin's, a plugin's hooks or MCP servers, or a Gemini
// CLI custom command (its !{…} shell commands). Written there, a command
// runs as surely as one written to a crontab, and no hook judges it
// when it does.
func RunsCommands(p, text string) ([]string, string) {
	if claudecode.SkillFile(p) {
		return claudecode.SkillCommands(text), "a Claude Code skill, command or agent (its ! commands run as it loads, unseen by any hook)"
	}
	if geminicli.CommandFile(p) {
		return geminicli.ShellCommands(text), "a Gemini CLI custom command (its !{…} shell commands run as it loads, unseen by any hook)"
	}
	what := "an agent's settings (the agent runs its commands on its own)"
	if claudecode.PluginFile(p) {
		what = "a Claude Code plugin's hooks or MCP servers (the agent runs their commands on its own)"
	} else if hookFileOf("/"+strings.TrimPrefix(p, "/")) == nil {
		return nil, ""
	}
	var out []string
	for _, m := range stringMember.FindAllStringSubmatch(text, -1) {
		var v string
		if commandKeys[m[1]] && json.Unmarshal([]byte(m[2]), &v) == nil && strings.TrimSpace(v) != "" {
			out = append(out, v)
		}
	}
	return out, what
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

// Widens returns what text, written to p (Claude Code's settings, whole
// or an edit's fragment), lets the agent do without asking or starts
// unasked that before (what it replaces: an edit's old text, or the
// file as it is) did not, or "": an allow rule for a whole tool or for
// any use of it (Bash, Bash(*), Bash(curl:*), WebFetch, mcp__*), a
// permission mode that stops asking, every MCP server a project names
// enabled at once or by name, or a plugin or marketplace installed
// (plugins bring hooks, commands, skills and MCP servers). These have
// honest uses, so they are asked about, not refused; an agent that
// widens its own permissions should not do it unseen (RT7-13).
// ~/.claude.json, where Claude Code keeps each project's allowed tools
// and enabled servers, is read the same way.
// before is asked for only when p is such a file.
func Widens(p, text string, before func() string) string {
	if hookFileOf("/"+strings.TrimPrefix(p, "/")) != claudeSettings && !strings.EqualFold(filepath.Base(p), ".claude.json") {
		return ""
	}
	ws := widenings(text)
	if len(ws) == 0 {
		return ""
	}
	had := widenings(before())
	for _, w := range ws {
		if !slices.Contains(had, w) {
			return w
		}
	}
	return ""
}

// widenings are the ways text widens what the agent may do (Widens).
func widenings(text string) []string {
	var out []string
	for _, m := range allowList.FindAllStringSubmatch(text, -1) {
		for _, r := range stringItem.FindAllStringSubmatch(m[1], -1) {
			var rule string
			if json.Unmarshal([]byte(r[1]), &rule) == nil && broadRule(rule) {
				out = append(out, "it allows "+rule+" without asking")
			}
		}
	}
	for _, m := range anyMember.FindAllStringSubmatch(text, -1) {
		switch k, v := m[1], strings.TrimSpace(m[2]); k {
		case "enableAllProjectMcpServers":
			if strings.HasPrefix(v, "true") {
				out = append(out, "it starts every MCP server a project's .mcp.json names, unasked")
			}
		case "enabledMcpjsonServers":
			if v == "[" {
				out = append(out, "it enables MCP servers of a project's .mcp.json, unasked")
			}
		case "enabledPlugins", "extraKnownMarketplaces":
			if v == "{" || v == "[" {
				out = append(out, "it installs a plugin or a plugin marketplace (plugins bring hooks, commands, skills and MCP servers)")
			}
		case "defaultMode":
			if strings.Contains(v, `"bypassPermissions"`) || strings.Contains(v, `"acceptEdits"`) {
				out = append(out, "it sets a permission mode that stops asking ("+strings.Trim(v, `",} `)+")")
			}
		}
	}
	return out
}

var (
	// allowList is a permissions allow list (a project's allowedTools
	// in ~/.claude.json): its items.
	allowList = regexp.MustCompile(`"(?:allow|allowedTools)"\s*:\s*\[([^\]]*)`)
	// stringItem is a JSON string in a list.
	stringItem = regexp.MustCompile(`("(?:[^"\\]|\\.)*")`)
	// anyMember is a member's name and the start of its value.
	anyMember = regexp.MustCompile(`"([A-Za-z_][A-Za-z0-9_]*)"\s*:\s*(\{\s*\}|\[\s*\]|[{\[]|[^,\n{\[]{0,64})`)
)

// broadRule says whether a permission rule allows a whole tool, or any
// use of it: no specifier (Bash, WebFetch, mcp__server), a wildcard one
// (Bash(*), WebFetch(domain:*), Read(**)), an MCP wildcard (mcp__*), or
// a command prefix that runs anything (Bash(python3:*), Bash(curl:*)).
func broadRule(rule string) bool {
	rule = strings.TrimSpace(rule)
	tool, spec, ok := strings.Cut(rule, "(")
	if server, name, ok := strings.Cut(strings.TrimPrefix(tool, "mcp__"), "__"); strings.HasPrefix(tool, "mcp__") {
		// mcp__server is every tool of the server
		return !ok || strings.Contains(server+name, "*")
	}
	if !ok {
		return rule != "" && !readOnlyTool[rule]
	}
	spec = strings.TrimSuffix(spec, ")")
	spec = strings.TrimPrefix(spec, "domain:")
	if strings.Trim(spec, "*:/.~ ") == "" {
		return true
	}
	if tool == "Bash" {
		prog, _, _ := strings.Cut(strings.TrimSuffix(strings.TrimSuffix(spec, ":*"), " *"), " ")
		return anyCommand[prog] && strings.HasSuffix(spec, "*")
	}
	return false
}

// readOnlyTool are Claude Code's tools that only read or plan: allowed
// whole, they widen nothing that sends or runs.
var readOnlyTool = map[string]bool{"Read": true, "Glob": true, "Grep": true, "LS": true, "TodoWrite": true, "NotebookRead": true}

// anyCommand are programs whose arguments can be any program or any
// request: allowing them with any arguments allows everything.
var anyCommand = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "python": true, "python3": true,
	"node": true, "deno": true, "bun": true, "perl": true, "ruby": true, "php": true, "curl": true, "wget": true,
	"nc": true, "ncat": true, "ssh": true, "scp": true, "rsync": true, "eval": true, "env": true, "xargs": true,
	"sudo": true, "npx": true, "uvx": true, "bunx": true, "exec": true, "source": true, "osascript": true}
