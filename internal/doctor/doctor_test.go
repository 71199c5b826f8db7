package doctor

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/activity"
	"github.com/flowd-dev/flowd/internal/boltfile"
	"github.com/flowd-dev/flowd/internal/clientconfig"
	"github.com/flowd-dev/flowd/internal/exporter"
	"github.com/flowd-dev/flowd/internal/flowdclient"
	"github.com/flowd-dev/flowd/internal/localsock"
	"github.com/flowd-dev/flowd/internal/pins"
	"github.com/flowd-dev/flowd/internal/spool"
	"github.com/flowd-dev/flowd/internal/unprotected"
)

func find(fs []Finding, section string) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Section == section {
			out = append(out, f)
		}
	}
	return out
}

func TestJudgeHealthy(t *testing.T) {
	f := Facts{Socket: "/run/f.sock", Status: &flowdclient.Status{Version: "1", PID: 9,
		HooksActive: map[string]time.Time{"claude-code": time.Now()}},
		ConfigPath: "/c.toml", DataDir: "/d", ActivitySize: 3 << 20,
		Clients: []ClientFile{{Client: "claude-desktop", Path: "/x.json", Wrapped: []string{"fs", "github"}}},
		Hooks:   []HookScope{{Scope: "user", Path: "/h.json", Installed: true, Command: "/bin/hook evaluate --event PreToolUse"}}}
	fs := Judge(f)
	assert.False(t, Broken(fs))
	for _, x := range fs {
		assert.NotEqual(t, Warn, x.Status, "%+v", x)
	}
	cov := find(fs, "security coverage")
	assert.Len(t, cov, 1)
	assert.Contains(t, cov[0].Message, "full")
	assert.Contains(t, cov[0].Message, "claude-code")
	assert.Empty(t, cov[0].Fix, "no nudge when hooks are there")
}

func TestJudgeProblems(t *testing.T) {
	f := Facts{Socket: "/run/f.sock", StatusErr: "connection refused", SocketDirErr: "directory is 0755",
		ConfigPath: "/c.toml", ConfigErr: `config /c.toml:3: unknown key "x"`,
		DataDir: "/d", DataDirErr: "permission denied",
		Clients: []ClientFile{{Client: "claude-code", Path: "/h/.claude.json", Unwrapped: []string{"memory"}}}}
	fs := Judge(f)
	assert.True(t, Broken(fs))
	for _, x := range fs {
		if x.Status == Fail || x.Status == Warn {
			assert.NotEmpty(t, x.Fix, "every problem says how to fix it: %+v", x)
		}
	}
	cov := find(fs, "security coverage")
	assert.Len(t, cov, 1)
	assert.Equal(t, Warn, cov[0].Status)
	assert.Contains(t, cov[0].Message, "Read, Bash, WebFetch")
	assert.Equal(t, "hook install --agent claude-code --scope user", cov[0].Fix)
	cl := find(fs, "clients")
	assert.True(t, strings.HasPrefix(cl[0].Fix, "shim wrap --client claude-code"))
}

func TestJudgeStaleHook(t *testing.T) {
	fs := Judge(Facts{Hooks: []HookScope{{Scope: "project", Path: "/p/.claude/settings.json", Installed: true, Command: "/gone/hook evaluate", BinaryMissing: true}}})
	cov := find(fs, "security coverage")
	assert.Equal(t, Fail, cov[0].Status)
	assert.Equal(t, "hook install --agent claude-code --scope project", cov[0].Fix)
}

// The machine's flowd lives in a directory that is not the user's and
// not private; doctor reports what matters there, with the fix for it.
func TestJudgeSystemSocket(t *testing.T) {
	healthy := Judge(Facts{Socket: "/run/flowd/flowd.sock", SocketShared: true, Status: &flowdclient.Status{Version: "1", PID: 9}})
	for _, x := range find(healthy, "daemon") {
		assert.Equal(t, OK, x.Status, "a shared 0755 directory is no problem: %+v", x)
	}

	down := find(Judge(Facts{Socket: "/run/flowd/flowd.sock", SocketShared: true, StatusErr: "connection refused"}), "daemon")
	assert.Contains(t, down[0].Message, "the machine's flowd does not answer")
	assert.Equal(t, "sudo systemctl start flowd.socket flowd.service", down[0].Fix, "a shim does not start the machine's flowd")

	notMember := find(Judge(Facts{Socket: "/run/flowd/flowd.sock", SocketShared: true, StatusErr: "permission denied",
		SocketDirErr: "you may not connect to /run/flowd/flowd.sock", SocketDirFix: "sudo usermod -aG flowd $USER, then log in again"}), "daemon")
	require.Len(t, notMember, 2)
	assert.Equal(t, Fail, notMember[1].Status)
	assert.Equal(t, "sudo usermod -aG flowd $USER, then log in again", notMember[1].Fix)

	private := find(Judge(Facts{Socket: "/run/user/1000/flowd/flowd.sock", SocketDirErr: "has mode 0755, not 0700"}), "daemon")
	assert.Equal(t, "chmod 700 /run/user/1000/flowd", private[1].Fix, "a user's own socket directory keeps its fix")
}

func TestSocketFix(t *testing.T) {
	assert.Equal(t, "sudo chmod go-w /tmp", socketFix(fmt.Errorf("check: %w", &localsock.TrustError{Dir: "/tmp", Fix: "sudo chmod go-w /tmp"})))
	assert.Equal(t, "sudo usermod -aG 64999 $USER, then log in again", socketFix(&localsock.GroupError{Socket: "/run/flowd/flowd.sock", GID: 64999}), "a gid without a name stays a number")
	assert.Empty(t, socketFix(fmt.Errorf("has mode 0755, not 0700")))
}

func TestJudgeStores(t *testing.T) {
	since := time.Date(2026, 11, 27, 6, 0, 0, 0, time.UTC)
	running := Facts{Socket: "/run/f.sock", DataDir: "/d", Status: &flowdclient.Status{Version: "1", PID: 9,
		DamagedStores: []boltfile.Damage{{What: "activity store", Path: "/d/activity.db", MovedTo: "/d/activity.db.damaged-X", Reason: "it was cut short"}},
		PinsUntrusted: &pins.Untrusted{Since: since, MovedTo: "/d/pins.db.damaged-Y"},
		Activity:      activity.Stats{Failed: 59157, WriteError: "no space left on device", FailingSince: since}},
		DamagedFiles: []string{"/d/activity.db.damaged-X", "/d/pins.db.damaged-Y"}}
	fs := find(Judge(running), "data")
	require.Len(t, fs, 5, "%+v", fs)
	assert.Equal(t, OK, fs[0].Status, "the directory itself is fine")
	assert.Equal(t, Warn, fs[1].Status)
	assert.Contains(t, fs[1].Message, "activity store /d/activity.db was damaged when flowd started (it was cut short)")
	assert.Equal(t, Warn, fs[2].Status)
	assert.Contains(t, fs[2].Message, "no server is trusted on first use")
	assert.Equal(t, "flowd pins list, then flowd pins approve SERVER", fs[2].Fix)
	assert.Equal(t, Fail, fs[3].Status, "a failing activity log is broken, not fine")
	assert.Contains(t, fs[3].Message, "59157 records lost")
	assert.Contains(t, fs[3].Message, "no space left on device")
	assert.Equal(t, Info, fs[4].Status, "a file moved aside before this start")
	assert.Contains(t, fs[4].Message, "/d/pins.db.damaged-Y")

	recovered := running
	st := *running.Status
	st.Activity = activity.Stats{Failed: 12}
	recovered.Status = &st
	fs = find(Judge(recovered), "data")
	assert.Contains(t, fs[3].Message, "12 activity records were lost")
	assert.Equal(t, Warn, fs[3].Status)

	st.Activity = activity.Stats{Retention: activity.PruneCounts{RoutineByCount: 500, NotableByCount: 7}}
	fs = find(Judge(recovered), "data")
	assert.Equal(t, Warn, fs[3].Status, "notable records pruned by count, not routine ones, are worth a word")
	assert.Contains(t, fs[3].Message, "7 notable activity records")

	exporting := recovered
	st.Activity = activity.Stats{}
	st.OTLP = &exporter.Status{Name: "otlp", Enabled: true, Endpoint: "https://otel:4318", Spool: spool.Stats{Records: 900, Dropped: 4},
		LastError: "connection refused"}
	exporting.Status = &st
	fs = find(Judge(exporting), "data")
	assert.Equal(t, Warn, fs[3].Status)
	assert.Contains(t, fs[3].Message, "OTLP export to https://otel:4318 is failing (900 records wait on disk, 4 lost to full queues): connection refused")

	st.OTLP = nil
	st.Export = &exporter.Status{Name: "syslog", Enabled: true, Endpoint: "siem:514", Spool: spool.Stats{Records: 70, Dropped: 2}, Dropped: 1,
		LastError: "connection refused"}
	fs = find(Judge(exporting), "data")
	assert.Equal(t, Warn, fs[3].Status)
	assert.Contains(t, fs[3].Message, "syslog export to siem:514 is failing (70 records wait on disk, 3 lost to full queues): connection refused")

	stopped := Facts{Socket: "/run/f.sock", StatusErr: "connection refused", DataDir: "/d",
		DamagedNow: []string{"activity store /d/activity.db is damaged: it was cut short"}}
	fs = find(Judge(stopped), "data")
	require.Len(t, fs, 2)
	assert.Equal(t, Fail, fs[1].Status)
	assert.Contains(t, fs[1].Fix, "flowd moves a damaged store aside")
}

func TestGatherReadsStoresWhenFlowdIsNotRunning(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	s, err := activity.Open(filepath.Join(data, "activity.db"), activity.Options{})
	require.NoError(t, err)
	for range 2000 {
		s.Append(activity.Record{Type: "tool_call", Reason: strings.Repeat("r", 100)})
	}
	require.NoError(t, s.Close())
	fi, err := os.Stat(filepath.Join(data, "activity.db"))
	require.NoError(t, err)
	require.NoError(t, os.Truncate(filepath.Join(data, "activity.db"), fi.Size()/2))

	f := Gather(filepath.Join(dir, "none.sock"), filepath.Join(dir, "config.toml"), data, dir)
	require.Nil(t, f.Status)
	require.Len(t, f.DamagedNow, 1)
	assert.Contains(t, f.DamagedNow[0], "activity store "+filepath.Join(data, "activity.db")+" is damaged")
	assert.True(t, Broken(Judge(f)))
}

// A second flowd of this user, or a shim that passes messages unchecked,
// is a hole in what flowd sees: doctor fails and names the fix.
func TestJudgeSplitAndUnprotected(t *testing.T) {
	ok := Judge(Facts{Socket: "/run/user/1/flowd/flowd.sock", Status: &flowdclient.Status{PID: 9},
		Flowds: []Flowd{{Socket: "/run/user/1/flowd/flowd.sock", PID: 9}}})
	assert.False(t, Broken(ok), "one flowd is how it should be")

	fs := Judge(Facts{Socket: "/run/user/1/flowd/flowd.sock", Status: &flowdclient.Status{PID: 9},
		Flowds:      []Flowd{{Socket: "/run/user/1/flowd/flowd.sock", PID: 9}, {Socket: "/tmp/flowd-1/flowd.sock", PID: 77}},
		Unprotected: []unprotected.Shim{{PID: 5, Server: "slack", Socket: "/tmp/flowd-1/flowd.sock", Reason: "flowd is not running", Since: time.Now()}}})
	require.True(t, Broken(fs))
	d := find(fs, "daemon")
	var msgs []string
	for _, x := range d {
		msgs = append(msgs, x.Message+" | "+x.Fix)
	}
	all := strings.Join(msgs, "\n")
	assert.Contains(t, all, "more than one flowd runs for you: /tmp/flowd-1/flowd.sock (pid 77)")
	assert.Contains(t, all, "| kill 77, then restart your MCP clients")
	assert.Contains(t, all, `shim "slack" (pid 5) passes messages unchecked`)
	assert.Contains(t, all, "flowd is not running")
}

// Every client file found is listed, wrapped or not, with the command
// that fixes it.
func TestJudgeClients(t *testing.T) {
	mac := "/Users/ana/Library/Application Support/Code/User/mcp.json"
	fs := Judge(Facts{Clients: []ClientFile{
		{Client: "vscode", Path: mac, Unwrapped: []string{"playwright"}, Wrapped: []string{"fetch"}},
		{Client: "gemini-cli", Path: "/p/.gemini/settings.json", Project: true, Unwrapped: []string{"x"}},
		{Client: "zed", Path: "/h/.config/zed/settings.json", Err: "line 4, column 3: invalid character"},
		{Client: "codex", Path: "/h/.codex/config.toml", Wrapped: []string{"docs"}, LeftAlone: []string{"figma: written inline"}},
		{Client: "windsurf", Path: "/h/.codeium/windsurf/mcp_config.json"},
	}})
	cl := find(fs, "clients")
	require.Len(t, cl, 6)
	assert.Equal(t, Warn, cl[0].Status)
	assert.Equal(t, "shim wrap --client vscode --config '"+mac+"'", cl[0].Fix, "a path with a space is quoted")
	assert.Contains(t, cl[1].Fix, "a project file, usually committed")
	assert.Equal(t, Fail, cl[2].Status)
	assert.Contains(t, cl[2].Fix, "shim wrap --client zed --config /h/.config/zed/settings.json")
	assert.Equal(t, OK, cl[3].Status)
	assert.Equal(t, Warn, cl[4].Status)
	assert.Contains(t, cl[4].Message, "figma: written inline")
	assert.Contains(t, cl[4].Fix, "by hand")
	assert.Equal(t, Info, cl[5].Status)
	assert.Contains(t, cl[5].Message, "no stdio servers")
}

// clientFile reads each client's format.
func TestClientFile(t *testing.T) {
	env := clientconfig.Env{GOOS: "linux", Home: "/h", Dir: "/p", Getenv: func(string) string { return "" }}
	codex := clientconfig.Codex.Locations(env)
	doc := "[mcp_servers.a]\ncommand = \"/usr/bin/shim\"\nargs = [\"--name\", \"a\", \"--\", \"x\"]\n" +
		"[mcp_servers.b]\ncommand = \"y\"\n[mcp_servers.r]\nurl = \"https://r\"\n[mcp_servers]\nc = { command = \"z\" }\n"
	cf := clientFile(clientconfig.Codex, codex[1], []byte(doc))
	assert.Equal(t, ClientFile{Client: "codex", Path: "/p/.codex/config.toml", Project: true,
		Wrapped: []string{"a"}, Unwrapped: []string{"b"}, LeftAlone: []string{"c: written inline or with dotted keys; flowd edits servers written as [mcp_servers.NAME] tables"}}, cf)

	zed := clientconfig.Zed.Locations(env)[0]
	cf = clientFile(clientconfig.Zed, zed, []byte("// Zed settings\n{\"context_servers\": {\"pg\": {\"command\": {\"path\": \"npx\", \"args\": []}}}}"))
	assert.Equal(t, []string{"pg"}, cf.Unwrapped)
	assert.Empty(t, cf.Err)
}

// A cloned repository's MCP config that sets flowd's variables (or a
// loader's, the Go runtime's, a shim's --socket) for its servers is named,
// in doctor and in a running flowd's recommendations; a user's own file
// that passes FLOWD_SOCKET on is theirs.
func TestProjectConfigThatSteersShims(t *testing.T) {
	env := clientconfig.Env{GOOS: "linux", Home: "/h", Dir: "/p", Getenv: func(string) string { return "" }}
	locs := clientconfig.ClaudeCode.Locations(env)
	user, project := locs[0], locs[len(locs)-1]
	require.True(t, project.Project)
	for doc, want := range map[string]string{
		`{"mcpServers":{"a":{"command":"/usr/bin/shim","args":["--","x"],"env":{"FLOWD_SOCKET":"/tmp/s"}}}}`:       "a FLOWD_ variable",
		`{"mcpServers":{"a":{"command":"/usr/bin/shim","args":["--","x"],"env":{"FLOWD_SESSION":"apart"}}}}`:       "a FLOWD_ variable",
		`{"mcpServers":{"a":{"command":"/usr/bin/shim","args":["--","x"],"env":{"LD_PRELOAD":"/p/x.so"}}}}`:        "LD_PRELOAD",
		`{"mcpServers":{"a":{"command":"/usr/bin/shim","args":["--socket","/tmp/s","--","x"]}}}`:                   "a shim's --socket",
		`{"mcpServers":{"a":{"command":"/usr/bin/shim","args":["--","x"],"env":{"API_URL":"https://x.example"}}}}`: "",
	} {
		cf := clientFile(clientconfig.ClaudeCode, project, []byte(doc))
		assert.Equal(t, want, cf.Steers, doc)
		assert.Empty(t, clientFile(clientconfig.ClaudeCode, user, []byte(doc)).Steers, "the user's own file: %s", doc)
		if want == "" {
			continue
		}
		cl := find(Judge(Facts{Clients: []ClientFile{cf}}), "clients")
		require.NotEmpty(t, cl)
		assert.Equal(t, Warn, cl[0].Status)
		assert.Contains(t, cl[0].Message, project.Path)
		assert.Contains(t, cl[0].Message, want)
		recs := Recommend(Running{Clients: []ClientFile{cf}, PassphraseSet: true})
		assert.Equal(t, "servers_steered", recs[0].ID)
	}
}

// A flowd that runs another program than this flowd's file is named: the
// shims and hooks beside this one would refuse it, and it may be an
// agent's program started as flowd.
func TestFlowdRunningAnotherProgram(t *testing.T) {
	assert.Empty(t, otherProgram(os.Getpid()), "this program")
	cmd := exec.Command("sleep", "60")
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	if runtime.GOOS == "linux" {
		assert.Contains(t, otherProgram(cmd.Process.Pid), "sleep")
	}
	fs := Judge(Facts{Socket: "/run/user/1000/flowd/flowd.sock", Status: &flowdclient.Status{PID: 42},
		FlowdProgram: "/tmp/agent/flowd", ThisFlowd: "/home/u/.local/bin/flowd"})
	var msgs []string
	for _, f := range find(fs, "daemon") {
		if f.Status == Warn {
			msgs = append(msgs, f.Message)
		}
	}
	require.Len(t, msgs, 1)
	assert.Contains(t, msgs[0], "runs /tmp/agent/flowd, not this flowd (/home/u/.local/bin/flowd)")
}
