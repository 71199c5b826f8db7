package judge

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/flowd-dev/flowd/internal/claudecode"
	"github.com/flowd-dev/flowd/internal/cmdrisk"
)

// maxSkill bounds what is read of a skill's file.
const maxSkill = 256 << 10

// skillFindings screens the commands of the skill or slash command a
// Claude Code Skill (or SlashCommand) call loads, the project's or the
// user's: Claude Code runs its !`command`s as it loads it, with no Bash
// call for a hook to see, so they are judged here, before, as commands
// that run unwatched (any finding refuses). A skill flowd cannot find
// (a plugin's) is left to the call's class: a tool flowd does not know.
func skillFindings(tool string, args []byte, dir string) []cmdrisk.Finding {
	var in struct{ Skill, Command string }
	if tool != "Skill" && tool != "SlashCommand" || json.Unmarshal(args, &in) != nil {
		return nil
	}
	name := in.Skill
	if name == "" {
		name, _, _ = strings.Cut(strings.TrimPrefix(strings.TrimSpace(in.Command), "/"), " ")
	}
	if name == "" || !filepath.IsLocal(name) {
		return nil
	}
	var roots []string
	if dir != "" {
		roots = append(roots, filepath.Join(dir, ".claude"))
	}
	if home, err := os.UserHomeDir(); err == nil {
		roots = append(roots, filepath.Join(home, ".claude"))
	}
	var out []cmdrisk.Finding
	for _, root := range roots {
		for _, p := range []string{filepath.Join(root, "skills", name, "SKILL.md"),
			filepath.Join(root, "commands", strings.ReplaceAll(name, ":", string(filepath.Separator))+".md")} {
			b, err := readSmall(p)
			if err != nil {
				continue
			}
			if len(b) > maxSkill {
				// Padding must not hide a command past what is read.
				out = append(out, cmdrisk.Finding{Rule: cmdrisk.Unscreened, Severe: true,
					Reason: "the skill " + name + " (" + p + ") is past the " + strconv.Itoa(maxSkill) + " bytes flowd reads of one"})
				continue
			}
			for _, c := range claudecode.SkillCommands(string(b)) {
				for _, f := range cmdrisk.ScreenUnwatched(c).Findings {
					f.Severe = true
					f.Reason = "the skill " + name + " (" + p + ") runs a command as it loads, unseen by any hook: " + f.Reason
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// readSmall reads at most maxSkill+1 bytes of a file.
func readSmall(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxSkill+1))
}
