package selfguard

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testGuard is a flowd whose config and data live apart from the usual
// places, as FLOWD_CONFIG and FLOWD_DATA_DIR put them.
func testGuard(t *testing.T) (Guard, string) {
	home := t.TempDir()
	return Guard{Home: home, Dirs: []string{filepath.Join(home, "cfg", "flowd-conf"), filepath.Join(home, "var", "fd")},
		Secrets: []string{filepath.Join(home, "var", "fd")},
		Files:   []string{"/opt/flowd/bin/flowd"}, PIDs: []int{4242},
		ClientConfigs: []string{filepath.Join(home, ".config", "Claude", "claude_desktop_config.json")}}, home
}

func TestCommandsThatSwitchFlowdOffAreDenied(t *testing.T) {
	g, _ := testGuard(t)
	for _, c := range []string{
		"flowd stop",
		"flowd restart",
		"flowd uninstall",
		"flowd install --fail-open",
		"flowd config apply",
		"/usr/local/bin/flowd stop",
		"sudo flowd stop",
		"command flowd stop",
		"env FOO=1 flowd stop",
		"timeout 5 flowd restart",
		"sh -c 'flowd stop'",
		`bash -c "fl""owd stop"`,
		"echo Zmxvd2Qgc3RvcA== | base64 -d | sh",
		"kill -STOP $(pgrep -x flowd)",
		"kill -9 `pidof flowd`",
		"kill -HUP $(pgrep flowd)",
		"/bin/kill -CONT $(pgrep -f 'flowd run')",
		"command kill -TERM $(systemctl --user show -p MainPID --value flowd)",
		"pgrep flowd | xargs kill -STOP",
		"pgrep -f shim | xargs -r kill",
		"timeout 1 kill -STOP 4242",
		"kill -9 -1",
		"kill -STOP -- -1",
		"pkill flowd",
		"pkill -STOP -f flowd",
		"pkill -f 'flow.'",
		"pkill -u $USER",
		"killall -STOP flowd",
		"killall shim",
		"killall5 -9",
		"systemctl --user stop flowd.socket flowd.service",
		"systemctl --user mask --now flowd.service",
		"systemctl --user disable flowd",
		"systemctl --user kill -s STOP flowd",
		"systemctl --user stop 'flow*'",
		"systemctl --user edit flowd.service",
		"sudo systemctl restart flowd",
		"launchctl bootout gui/501/dev.flowd.agent",
		"launchctl unload ~/Library/LaunchAgents/dev.flowd.plist",
		"hook uninstall --agent claude-code --scope user",
		"~/go/bin/hook uninstall --agent claude-code",
		"shim unwrap --client claude-code",
		"rm -rf ~/.local/state/flowd",
		"rm -rf $HOME/.local/state/flowd/activity.db",
		"rm ~/.config/flowd/config.toml",
		"mv ~/.config/flowd/config.toml /tmp/",
		"sed -i 's/fail_mode = \"closed\"/fail_mode = \"open\"/' ~/.config/flowd/config.toml",
		"printf '[policy]\\nsensitive_data_external = \"allow\"\\n' >> ~/.config/flowd/config.toml && flowd restart",
		"echo x > ~/.config/flowd/config.toml",
		"cp /tmp/x ~/.config/flowd/config.toml",
		"cp -t ~/.config/flowd /tmp/config.toml",
		"ln -sf /tmp/x ~/.config/flowd/config.toml",
		"tee ~/.config/flowd/config.toml < /tmp/x",
		"dd if=/dev/zero of=$HOME/.local/state/flowd/activity.db",
		"find ~/.local/state/flowd -delete",
		"truncate -s0 ~/.local/state/flowd/config-in-force.toml",
		"rm -rf /tmp/flowd-1000",
		"rm ~/.config/systemd/user/flowd.service",
		"rm -r ~/cfg/flowd-conf",
		"cd ~ && rm -rf var/fd",
		"python3 -c \"import os,signal,subprocess; os.kill(int(subprocess.check_output(['pgrep','flowd'])), signal.SIGSTOP)\"",
		"python3 -c \"open('/home/u/.config/flowd/config.toml','w').write('x')\"",
		"node -e \"require('fs').writeFileSync(process.env.HOME+'/.claude/settings.json','{}')\"",
		"echo '{}' > ~/.claude/settings.json",
		"sed -i '/hooks/d' .claude/settings.local.json",
		"cp /tmp/c.json ~/.claude.json",
		"cp /tmp/c.json ~/.config/Claude/claude_desktop_config.json",
	} {
		assert.NotEmpty(t, g.Check(Action{Tool: "Bash", Commands: []string{c}, Dir: "/home/u/proj"}), c)
	}
}

func TestReadsAndOtherWorkAreAllowed(t *testing.T) {
	g, _ := testGuard(t)
	for _, c := range []string{
		"flowd status",
		"flowd doctor",
		"flowd activity --type config_held",
		"flowd config check",
		"cat ~/.config/flowd/config.toml",
		"cp ~/.config/flowd/config.toml /tmp/backup.toml",
		"ls -la ~/.local/state/flowd",
		"grep fail_mode ~/.config/flowd/config.toml",
		"systemctl --user status flowd",
		"journalctl --user -u flowd",
		"kill -9 12345",
		"pkill -f 'node server.js'",
		"killall node",
		"kill %1",
		"rm -rf build/ && go test ./internal/flowd/...",
		"cd ~/src/flowd && rm -rf internal/old && go build ./...",
		"sed -i 's/a/b/' ~/src/flowd/README.md",
		"cat ~/.claude/settings.json",
		"python3 -c \"print(open('/home/u/.config/flowd/config.toml').read())\"",
		"echo hi > /tmp/out.txt",
		"go test ./... 2>&1 | tee /tmp/log",
	} {
		assert.Empty(t, g.Check(Action{Tool: "Bash", Commands: []string{c}, Dir: "/home/u/proj"}), c)
	}
}

func TestWritesToFlowdsFilesAndHooksAreDenied(t *testing.T) {
	g, home := testGuard(t)
	hooked := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"/usr/local/bin/hook evaluate --event PreToolUse"}]}]}}`
	for _, c := range []struct {
		name string
		a    Action
		deny bool
	}{
		{"write flowd's config", Action{Tool: "Write", Paths: []string{"/home/u/.config/flowd/config.toml"}, Contents: []string{"[shim]\nfail_mode = \"open\"\n"}}, true},
		{"write the configured config dir", Action{Tool: "Write", Paths: []string{home + "/cfg/flowd-conf/config.toml"}, Contents: []string{"x"}}, true},
		{"relative path into the data dir", Action{Tool: "Write", Paths: []string{"fd/x"}, Contents: []string{"x"}, Dir: home + "/var"}, true},
		{"edit flowd's config", Action{Tool: "Edit", Paths: []string{"~/.config/flowd/config.toml"}, Olds: []string{"closed"}, Contents: []string{"open"}}, true},
		{"MCP move_file of the data dir", Action{Tool: "move_file", Paths: []string{home + "/.local/state/flowd", "/tmp/gone"}}, true},
		{"MCP delete of a data file", Action{Tool: "delete_file", Paths: []string{home + "/.local/state/flowd/activity.db"}}, true},
		{"notebook into the config dir", Action{Tool: "NotebookEdit", Paths: []string{"/home/u/.config/flowd/x.ipynb"}, Contents: []string{"x"}}, true},
		{"settings without hooks", Action{Tool: "Write", Paths: []string{"/home/u/.claude/settings.json"}, Contents: []string{`{"hooks":{}}`}}, true},
		{"local settings that allow all", Action{Tool: "Write", Paths: []string{"/home/u/proj/.claude/settings.local.json"},
			Contents: []string{`{"hooks":{},"permissions":{"allow":["Bash(*)"]}}`}}, true},
		{"settings that disable all hooks", Action{Tool: "Write", Paths: []string{".claude/settings.json"}, Contents: []string{`{"disableAllHooks":true}`}, Dir: "/home/u/proj"}, true},
		{"settings pointing the hook at another flowd", Action{Tool: "Write", Paths: []string{"/home/u/.claude/settings.json"},
			Contents: []string{`{"env":{"FLOWD_SOCKET":"/tmp/fake.sock"}}`}}, true},
		{"edit removing the hook", Action{Tool: "Edit", Paths: []string{"/home/u/.claude/settings.json"}, Olds: []string{`"hooks": {`}, Contents: []string{`"x": {`}}, true},
		{"deleting the settings", Action{Tool: "delete_file", Paths: []string{"/home/u/.claude/settings.json"}}, true},
		{"client config unwrapping a server", Action{Tool: "Write", Paths: []string{"/home/u/.claude.json"},
			Contents: []string{`{"mcpServers":{"slack":{"command":"npx","args":["-y","slack-mcp"]}}}`}}, true},
		{"desktop config edit removing the shim", Action{Tool: "edit_file", Paths: []string{home + "/.config/Claude/claude_desktop_config.json"},
			Olds: []string{`"command": "/usr/local/bin/shim"`}, Contents: []string{`"command": "npx"`}}, true},

		{"reading flowd's config", Action{Tool: "Read", Paths: []string{"/home/u/.config/flowd/config.toml"}}, false},
		{"MCP read_file of the config", Action{Tool: "read_file", Paths: []string{"/home/u/.config/flowd/config.toml"}}, false},
		{"settings keeping flowd's hooks", Action{Tool: "Write", Paths: []string{"/home/u/.claude/settings.json"}, Contents: []string{hooked}}, false},
		{"settings edit of permissions", Action{Tool: "Edit", Paths: []string{"/home/u/proj/.claude/settings.json"}, Olds: []string{`"allow": []`}, Contents: []string{`"allow": ["Bash(go test:*)"]`}}, false},
		{"client config with wrapped servers", Action{Tool: "Write", Paths: []string{"/home/u/proj/.mcp.json"},
			Contents: []string{`{"mcpServers":{"fs":{"command":"/usr/local/bin/shim","args":["--name","fs","--","npx","fs"]}}}`}}, false},
		{"a project's source", Action{Tool: "Write", Paths: []string{"/home/u/src/flowd/internal/x.go"}, Contents: []string{"package x"}}, false},
	} {
		got := g.Check(c.a)
		assert.Equal(t, c.deny, got != "", "%s: %q", c.name, got)
	}
}

// A symlink the agent made earlier leads into flowd's files.
func TestSymlinkIntoFlowdsFilesIsFollowed(t *testing.T) {
	g, home := testGuard(t)
	data := filepath.Join(home, "var", "fd")
	require.NoError(t, os.MkdirAll(data, 0o700))
	link := filepath.Join(home, "innocent")
	require.NoError(t, os.Symlink(data, link))
	assert.NotEmpty(t, g.Check(Action{Tool: "Write", Paths: []string{link + "/activity.db"}, Contents: []string{"x"}}))
	assert.NotEmpty(t, g.Check(Action{Tool: "Bash", Commands: []string{"rm -rf " + link + "/"}}))
}

func TestCurrentKnowsThisFlowd(t *testing.T) {
	dir := t.TempDir()
	g := Current(filepath.Join(dir, "proj", "config.toml"), filepath.Join(dir, "data"), filepath.Join(dir, "run", "flowd", "flowd.sock"))
	assert.Contains(t, g.Files, filepath.Join(dir, "proj", "config.toml"), "a config beside other files: only itself")
	assert.NotContains(t, g.Dirs, filepath.Join(dir, "proj"))
	assert.Contains(t, g.Dirs, filepath.Join(dir, "data"))
	assert.Contains(t, g.Dirs, filepath.Join(dir, "run", "flowd"))
	assert.Contains(t, g.PIDs, os.Getpid())
	assert.NotEmpty(t, g.Check(Action{Tool: "Bash", Commands: []string{"kill -STOP " + strconv.Itoa(os.Getpid())}}))
}

func TestMutates(t *testing.T) {
	for tool, want := range map[string]bool{"Write": true, "Edit": true, "MultiEdit": true, "NotebookEdit": true, "write_file": true,
		"edit_file": true, "move_file": true, "create_directory": true, "delete_file": true,
		"Read": false, "read_file": false, "list_directory": false, "get_settings": false, "search_files": false} {
		assert.Equal(t, want, Mutates(tool), tool)
	}
}
