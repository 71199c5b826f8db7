//go:build unix

package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// Found by a red team: Gemini CLI and Cursor keep flowd's hooks in files
// of their own, which the self-protection rule did not know, so the agent
// removed the hooks with a write, an edit or the shell. Through the real
// hooks, installed by `hook install`, each is denied.
func TestAgentCannotRemoveItsHooks(t *testing.T) {
	f := startFlowd(t, "")
	proj := t.TempDir()
	for _, agent := range []string{"gemini-cli", "cursor"} {
		_, stderr, code := runTool(t, proj, hangBound, []string{bins.hook, "install", "--agent", agent, "--scope", "project", "--dir", proj})
		if code != 0 {
			t.Fatalf("hook install --agent %s: %s", agent, stderr)
		}
	}
	gemini := installedCommand(t, "gemini-cli", "BeforeTool", false)
	cursor := installedCommand(t, "cursor", "beforeShellExecution", false)
	settings := filepath.Join(proj, ".gemini", "settings.json")
	geminiCall := func(tool, input string) string {
		return `{"session_id":"g","hook_event_name":"BeforeTool","cwd":` + jsonText(proj) + `,"tool_name":"` + tool + `","tool_input":` + input + `}`
	}
	for _, c := range []struct{ name, hook, payload, deny string }{
		{"gemini write_file without the hooks", gemini, geminiCall("write_file", `{"file_path":`+jsonText(settings)+`,"content":"{\"mcpServers\":{}}"}`), `"decision":"deny"`},
		{"gemini replace of the hooks", gemini, geminiCall("replace", `{"file_path":`+jsonText(settings)+`,"old_string":"\"hooks\": {","new_string":"\"x\": {"}`), `"decision":"deny"`},
		{"gemini shell", gemini, geminiCall("run_shell_command", `{"command":"echo {} > .gemini/settings.json"}`), `"decision":"deny"`},
		{"cursor shell", cursor, `{"conversation_id":"c","hook_event_name":"beforeShellExecution","cwd":` + jsonText(proj) +
			`,"command":"rm .cursor/hooks.json"}`, `"permission":"deny"`},
		{"cursor shell on the directory", cursor, `{"conversation_id":"c","hook_event_name":"beforeShellExecution","cwd":` + jsonText(proj) +
			`,"command":"rm -rf .cursor"}`, `"permission":"deny"`},
	} {
		out, _ := runHook(t, c.hook, c.payload, f.socket, "hookfiles")
		if !strings.Contains(out, c.deny) {
			t.Errorf("%s: not denied: %s", c.name, out)
		}
	}
}
