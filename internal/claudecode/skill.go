package claudecode

import (
	"regexp"
	"strings"
)

// SkillFile reports whether p is a file Claude Code loads as a skill, a
// slash command or a subagent, its own or an installed plugin's
// (~/.claude/plugins/…/skills/…): its !`command`s run as it loads, with
// no Bash tool call for a hook to see.
func SkillFile(p string) bool {
	l := slashed(p)
	if !strings.HasSuffix(l, ".md") {
		return false
	}
	if strings.Contains(l, "/.claude/skills/") || strings.Contains(l, "/.claude/commands/") || strings.Contains(l, "/.claude/agents/") {
		return true
	}
	return strings.Contains(l, "/.claude/plugins/") &&
		(strings.Contains(l, "/skills/") || strings.Contains(l, "/commands/") || strings.Contains(l, "/agents/"))
}

// PluginFile reports whether p is an installed plugin's hooks or MCP
// servers (hooks/hooks.json, .mcp.json): commands Claude Code runs on
// its own.
func PluginFile(p string) bool {
	l := slashed(p)
	return strings.Contains(l, "/.claude/plugins/") && (strings.HasSuffix(l, "/hooks/hooks.json") || strings.HasSuffix(l, "/.mcp.json"))
}

// slashed is p in lower case with forward slashes, starting with one.
func slashed(p string) string {
	return "/" + strings.TrimPrefix(strings.ToLower(strings.ReplaceAll(p, `\`, "/")), "/")
}

// bang is a skill's or command's inline shell command, !`…`.
var bang = regexp.MustCompile("!`([^`\n]+)`")

// frontCommand is a command: member of the front matter (a hook the file
// defines).
var frontCommand = regexp.MustCompile(`(?m)^\s*-?\s*command:\s*(.+?)\s*$`)

// SkillCommands returns the command lines a skill, command or agent file
// makes Claude Code run: its !`command`s, and the commands of the hooks
// its front matter defines.
func SkillCommands(text string) []string {
	var out []string
	for _, m := range bang.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	if front, ok := strings.CutPrefix(strings.TrimLeft(text, "\ufeff \n"), "---"); ok {
		if end := strings.Index(front, "\n---"); end >= 0 {
			for _, m := range frontCommand.FindAllStringSubmatch(front[:end], -1) {
				out = append(out, strings.Trim(m[1], `"'`))
			}
		}
	}
	return out
}
