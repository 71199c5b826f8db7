package claudecode

import (
	"regexp"
	"strings"
)

// SkillFile reports whether p is a file Claude Code loads as a skill, a
// slash command or a subagent: its !`command`s run as it loads, with no
// Bash tool call for a hook to see.
func SkillFile(p string) bool {
	l := "/" + strings.TrimPrefix(strings.ToLower(strings.ReplaceAll(p, `\`, "/")), "/")
	return strings.HasSuffix(l, ".md") && (strings.Contains(l, "/.claude/skills/") ||
		strings.Contains(l, "/.claude/commands/") || strings.Contains(l, "/.claude/agents/"))
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
