package cmdrisk

import (
	"encoding/json"
	"path"
	"strings"
)

// BuildCommands returns the command lines a build file written to p
// holds, which a short command the agent runs later (npm test, make)
// runs without naming them (package.json's scripts, a Makefile's
// recipes), or the editor runs (its tasks). nil for any other file.
func BuildCommands(p, text string) []string {
	switch strings.ToLower(path.Base(strings.ReplaceAll(p, `\`, "/"))) {
	case "package.json":
		var pkg struct {
			Scripts map[string]any `json:"scripts"`
		}
		if json.Unmarshal([]byte(text), &pkg) != nil {
			return nil
		}
		var out []string
		for _, v := range pkg.Scripts {
			if s, ok := v.(string); ok {
				out = append(out, s)
			}
		}
		return out
	case "tasks.json":
		// An editor's tasks (VS Code's .vscode/tasks.json), which may run
		// when the folder opens (runOptions.runOn): found by a red team,
		// RT7-12b.
		var tasks struct {
			Tasks []struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"tasks"`
		}
		if json.Unmarshal([]byte(text), &tasks) != nil {
			return nil
		}
		var out []string
		for _, t := range tasks.Tasks {
			if t.Command != "" {
				out = append(out, strings.Join(append([]string{t.Command}, t.Args...), " "))
			}
		}
		return out
	case "makefile", "gnumakefile", "justfile":
		var out []string
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(line, "\t") || strings.HasPrefix(line, "    ") {
				out = append(out, strings.TrimLeft(strings.TrimSpace(line), "@-+"))
			}
		}
		return out
	}
	return nil
}
