package doctor

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/flowd-dev/flowd/internal/localapi"
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
	f := Facts{Socket: "/run/f.sock", Status: &localapi.Status{Version: "1", PID: 9,
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
