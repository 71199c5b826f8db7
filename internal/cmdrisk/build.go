package cmdrisk

import (
	"encoding/json"
	"path"
	"strings"
)

// BuildCommands returns the command lines a build file written to p
// holds, which a short command the agent runs later (npm test, make,
// docker build) runs without naming them (package.json's scripts, a
// Makefile's recipes, a Dockerfile's RUN and COPY), or the editor runs
// (its tasks). nil for any other file. They run together: a file one
// copies another may send (Flow).
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
	case "dockerfile", "containerfile":
		return dockerCommands(text)
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

// dockerCommands returns a Dockerfile's RUN lines, and its COPY and ADD
// of the build's own files as the cp they are: COPY .env /e, then RUN
// wget --post-file=/e … sends the file (found by a red team, RT8-6).
func dockerCommands(text string) []string {
	var out []string
	text = strings.ReplaceAll(text, "\\\n", " ")
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		switch strings.ToUpper(f[0]) {
		case "RUN":
			out = append(out, strings.Join(f[1:], " "))
		case "COPY", "ADD":
			if !strings.HasPrefix(f[1], "--from") {
				out = append(out, "cp "+strings.Join(f[1:], " "))
			}
		}
	}
	return out
}

// Flow returns the finding of a build file's commands read as one line:
// a credential file one of them copies or reads and a host another
// reaches. Asked about, not refused: a Dockerfile may COPY .env for the
// app it builds and fetch a package in another step.
func Flow(cmds []string) (Finding, bool) {
	for _, f := range ScreenUnwatched(strings.Join(cmds, "\n")).Findings {
		if f.Rule == UploadSecret {
			return Finding{Rule: Upload, Reason: "its commands, run together: " + f.Reason}, true
		}
	}
	return Finding{}, false
}
