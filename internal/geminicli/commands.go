package geminicli

import "strings"

// CommandFile reports whether p is a Gemini CLI custom command
// (.gemini/commands/…/*.toml, the user's, a project's or an
// extension's): its prompt's !{…} shell commands run as the command
// loads, not as a run_shell_command call a hook sees.
func CommandFile(p string) bool {
	l := "/" + strings.TrimPrefix(strings.ToLower(strings.ReplaceAll(p, `\`, "/")), "/")
	return strings.HasSuffix(l, ".toml") && strings.Contains(l, "/.gemini/") && strings.Contains(l, "/commands/")
}

// ShellCommands returns the !{…} shell commands of a custom command's
// text. Gemini CLI takes the braces as balanced, so a command may hold
// braces of its own (${HOME}, awk '{print}').
func ShellCommands(text string) []string {
	var out []string
	for {
		i := strings.Index(text, "!{")
		if i < 0 {
			return out
		}
		text = text[i+2:]
		depth, end := 1, -1
		for j := 0; j < len(text) && end < 0; j++ {
			switch text[j] {
			case '{':
				depth++
			case '}':
				if depth--; depth == 0 {
					end = j
				}
			}
		}
		if end < 0 {
			// unbalanced: the rest is the command as far as anyone can
			// tell, so it is screened rather than dropped
			return append(out, text)
		}
		out = append(out, text[:end])
		text = text[end+1:]
	}
}
