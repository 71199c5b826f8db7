package claudecode

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flowd-dev/flowd/internal/shellnorm"
)

var opts = HookOptions{Binary: "/opt/flowd/bin/hook"}

// A user's settings as Claude Code writes them (two-space indent), with
// permissions, env, an unknown key, non-ASCII text, an escaped key, and a
// PreToolUse group of someone else's for Bash.
const realistic = `{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "model": "opus",
  "permissions": {
    "allow": [
      "Bash(npm run lint)",
      "Read(~/.zshrc)"
    ],
    "deny": [
      "Read(./.env)"
    ],
    "defaultMode": "acceptEdits"
  },
  "env": {
    "GREETING": "Grüße, 世界 🌍",
    "CLAUDE_CODE_ENABLE_TELEMETRY": "0"
  },
  "futureSetting": {
    "nested": [
      1,
      2.50,
      true,
      null
    ],
    "escaped\u00e9": "a\u00e9b"
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "~/.claude/hooks/check-bash.sh",
            "timeout": 30
          }
        ]
      }
    ],
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "notify-send done"
          }
        ]
      }
    ]
  },
  "statusLine": {
    "type": "command",
    "command": "echo ✓"
  }
}
`

func TestAddHooksKeepsEverythingElse(t *testing.T) {
	out, err := AddHooks([]byte(realistic), opts)
	require.NoError(t, err)

	var before, after map[string]any
	require.NoError(t, json.Unmarshal([]byte(realistic), &before))
	require.NoError(t, json.Unmarshal(out, &after))
	for k, v := range before {
		if k != "hooks" {
			assert.Equal(t, v, after[k], k)
		}
	}
	hooks := after["hooks"].(map[string]any)
	pre := hooks["PreToolUse"].([]any)
	require.Len(t, pre, 2, "the user's Bash group stays, flowd's is added after it")
	assert.Equal(t, before["hooks"].(map[string]any)["PreToolUse"].([]any)[0], pre[0])
	assert.Equal(t, map[string]any{"matcher": Matcher, "hooks": []any{map[string]any{
		"type": "command", "command": "/opt/flowd/bin/hook evaluate --event PreToolUse", "timeout": 10.0}}}, pre[1])
	assert.Equal(t, before["hooks"].(map[string]any)["Stop"], hooks["Stop"])
	for _, ev := range []string{PostToolUse, PostToolUseFailure} {
		g := hooks[ev].([]any)
		require.Len(t, g, 1, ev)
		h := g[0].(map[string]any)["hooks"].([]any)[0].(map[string]any)
		assert.Equal(t, "/opt/flowd/bin/hook evaluate --event "+ev, h["command"])
		assert.NotContains(t, h, "async", "Post hooks are synchronous unless asked")
	}

	// Order and bytes of untouched parts survive: numbers as written,
	// escapes as written, keys in their order.
	s := string(out)
	assert.Contains(t, s, `"escaped\u00e9": "a\u00e9b"`)
	assert.Contains(t, s, "2.50,")
	assert.Contains(t, s, `"GREETING": "Grüße, 世界 🌍"`)
	assert.Less(t, strings.Index(s, `"futureSetting"`), strings.Index(s, `"hooks"`))
	assert.Less(t, strings.Index(s, `"hooks"`), strings.Index(s, `"statusLine"`))
	assert.Less(t, strings.Index(s, `"Stop"`), strings.Index(s, `"PostToolUse"`))
	// The file is still laid out the way it was.
	assert.True(t, strings.HasPrefix(s, "{\n  \"$schema\""), s)
	assert.True(t, strings.HasSuffix(s, "\n}\n"))

	again, err := AddHooks(out, opts)
	require.NoError(t, err)
	assert.Equal(t, string(out), string(again), "installing twice is installing once")

	back, n, err := RemoveHooks(out)
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	assert.Equal(t, realistic, string(back), "uninstall gives back the original bytes")
}

func TestAddHooksOptions(t *testing.T) {
	o := HookOptions{Binary: "/home/me/My Tools/hook", FailClosed: true, AsyncPost: true, Timeout: 20}
	out, err := AddHooks(nil, o)
	require.NoError(t, err)
	want := `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "` + Matcher + `",
        "hooks": [
          {
            "type": "command",
            "command": "'/home/me/My Tools/hook' evaluate --event PreToolUse --fail-closed",
            "timeout": 20
          }
        ]
      }
    ],
    "PostToolUse": [
      {
        "matcher": "` + Matcher + `",
        "hooks": [
          {
            "type": "command",
            "command": "'/home/me/My Tools/hook' evaluate --event PostToolUse --fail-closed",
            "timeout": 20,
            "async": true
          }
        ]
      }
    ],
    "PostToolUseFailure": [
      {
        "matcher": "` + Matcher + `",
        "hooks": [
          {
            "type": "command",
            "command": "'/home/me/My Tools/hook' evaluate --event PostToolUseFailure --fail-closed",
            "timeout": 20,
            "async": true
          }
        ]
      }
    ]
  }
}
`
	assert.Equal(t, want, string(out))

	entries, disabled, err := FindHooks(out)
	require.NoError(t, err)
	assert.False(t, disabled)
	require.Len(t, entries, 3)
	assert.Equal(t, Entry{Event: PreToolUse, Matcher: Matcher,
		Command: "'/home/me/My Tools/hook' evaluate --event PreToolUse --fail-closed",
		Binary:  "/home/me/My Tools/hook", FailClosed: true, Timeout: 20}, entries[0])
	assert.True(t, entries[1].Async)

	// Reinstalling with other options changes the entries in place.
	out2, err := AddHooks(out, opts)
	require.NoError(t, err)
	entries, _, err = FindHooks(out2)
	require.NoError(t, err)
	require.Len(t, entries, 3)
	for _, e := range entries {
		assert.Equal(t, "/opt/flowd/bin/hook", e.Binary)
		assert.False(t, e.FailClosed)
		assert.False(t, e.Async)
		assert.Equal(t, DefaultTimeout, e.Timeout)
	}
}

// --scan-output makes PostToolUse synchronous: only a hook Claude Code
// waits for can replace a tool's output.
func TestAddHooksScanOutput(t *testing.T) {
	out, err := AddHooks(nil, HookOptions{Binary: "/opt/flowd/bin/hook", AsyncPost: true, ScanOutput: true})
	require.NoError(t, err)
	entries, _, err := FindHooks(out)
	require.NoError(t, err)
	require.Len(t, entries, 3)
	byEvent := map[string]Entry{}
	for _, e := range entries {
		byEvent[e.Event] = e
	}
	post := byEvent[PostToolUse]
	assert.Equal(t, "/opt/flowd/bin/hook evaluate --event PostToolUse --scan-output", post.Command)
	assert.True(t, post.ScanOutput)
	assert.False(t, post.Async)
	assert.False(t, byEvent[PreToolUse].ScanOutput, "only PostToolUse output is replaced")
	assert.True(t, byEvent[PostToolUseFailure].Async, "--async-post still applies to the other Post event")
}

func TestAddHooksLayouts(t *testing.T) {
	tests := []struct {
		name, in string
	}{
		{"four spaces", "{\n    \"model\": \"opus\"\n}\n"},
		{"tabs, no final newline", "{\n\t\"model\": \"opus\",\n\t\"env\": {}\n}"},
		{"CRLF", "{\r\n  \"model\": \"opus\"\r\n}\r\n"},
		{"empty hooks stay after uninstall", "{\n  \"hooks\": {\n    \"Stop\": []\n  }\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := AddHooks([]byte(tt.in), opts)
			require.NoError(t, err)
			back, n, err := RemoveHooks(out)
			require.NoError(t, err)
			assert.Equal(t, 3, n)
			assert.Equal(t, tt.in, string(back))
		})
	}

	// Only the hooks member is flowd's: every other byte stays as the user
	// wrote it, a compact file or members laid out their own way too.
	for _, in := range []string{
		`{"model":"opus","permissions":{"allow":["Bash(ls)"]}}`,
		"{\n    \"model\": \"opus\",\n    \"permissions\": { \"allow\": [\"Bash(ls:*)\", \"Read\"],   \"deny\": [] },\n    \"env\": {\"A\": \"1\"}\n}\n",
	} {
		out, err := AddHooks([]byte(in), opts)
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(string(out), strings.TrimRight(in, "}\n")), "the members before stay byte for byte:\n%s", out)
		back, _, err := RemoveHooks(out)
		require.NoError(t, err)
		assert.Equal(t, in, string(back))
	}
	// The hooks member first: it goes with what separates it from the next.
	first := "{\n  \"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"/opt/flowd/bin/hook evaluate --event PreToolUse\"}]}]},\n  \"model\": \"opus\"\n}\n"
	back, n, err := RemoveHooks([]byte(first))
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Equal(t, "{\n  \"model\": \"opus\"\n}\n", string(back))
}

func TestRemoveHooksOnlyOurs(t *testing.T) {
	// flowd's hook shares a group with another hook, sits next to a
	// hand-written flowd line, and an unrelated "hook" program is present.
	in := `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "*",
        "hooks": [
          {"type": "command", "command": "/usr/bin/audit-log"},
          {"type": "command", "command": "'/x y/hook' evaluate --event PreToolUse --fail-closed"}
        ]
      },
      {
        "matcher": "Bash",
        "hooks": [
          {"type": "command", "command": "hook evaluate --event PreToolUse"}
        ]
      },
      {
        "matcher": "Write",
        "hooks": [
          {"type": "command", "command": "/usr/local/bin/hook lint"},
          {"type": "command", "command": "/bin/webhook evaluate"},
          {"type": "prompt", "prompt": "is this ok?"}
        ]
      }
    ],
    "PostToolUse": [
      {
        "matcher": "mcp__.*",
        "hooks": [
          {"type": "command", "command": "'C:\\flowd\\hook.exe' evaluate --event PostToolUse"}
        ]
      }
    ]
  }
}`
	entries, _, err := FindHooks([]byte(in))
	require.NoError(t, err)
	var bins []string
	for _, e := range entries {
		bins = append(bins, e.Binary)
	}
	assert.Equal(t, []string{"/x y/hook", "hook", `C:\flowd\hook.exe`}, bins)
	assert.True(t, entries[0].FailClosed)

	out, n, err := RemoveHooks([]byte(in))
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	var got map[string]any
	require.NoError(t, json.Unmarshal(out, &got))
	want := map[string]any{"hooks": map[string]any{"PreToolUse": []any{
		map[string]any{"matcher": "*", "hooks": []any{
			map[string]any{"type": "command", "command": "/usr/bin/audit-log"}}},
		map[string]any{"matcher": "Write", "hooks": []any{
			map[string]any{"type": "command", "command": "/usr/local/bin/hook lint"},
			map[string]any{"type": "command", "command": "/bin/webhook evaluate"},
			map[string]any{"type": "prompt", "prompt": "is this ok?"}}},
	}}}
	assert.Equal(t, want, got, "PostToolUse, left empty by flowd, goes; the others keep their hooks")

	// Installing over this moves flowd out of the shared group into its
	// own, and keeps exactly one flowd hook per event.
	installed, err := AddHooks([]byte(in), opts)
	require.NoError(t, err)
	entries, _, err = FindHooks(installed)
	require.NoError(t, err)
	require.Len(t, entries, 3)
	for i, e := range entries {
		assert.Equal(t, Events[i], e.Event)
		assert.Equal(t, Matcher, e.Matcher)
		assert.Equal(t, "/opt/flowd/bin/hook", e.Binary)
	}
	assert.Contains(t, string(installed), "/usr/bin/audit-log")
}

func TestRemoveHooksNothingToDo(t *testing.T) {
	for _, in := range []string{"", "{}", realistic, `{"hooks":null}`, "{\"model\":   \"odd   spacing\"}"} {
		out, n, err := RemoveHooks([]byte(in))
		require.NoError(t, err)
		assert.Zero(t, n)
		assert.Equal(t, in, string(out), "untouched byte for byte")
	}
}

func TestSettingsErrors(t *testing.T) {
	for _, in := range []string{
		`[1]`,
		`{"model": "opus",}`,
		`{"hooks": []}`,
		`{"hooks": {"PreToolUse": {"matcher": "x"}}}`,
		`{"a": 1} {"b": 2}`,
		`// comment
{}`,
	} {
		_, err := AddHooks([]byte(in), opts)
		assert.Error(t, err, in)
	}
	// Malformed groups inside a valid list are someone else's: left alone.
	in := `{"hooks":{"PreToolUse":["odd",{"matcher":"x","hooks":"not a list"}]}}`
	out, err := AddHooks([]byte(in), opts)
	require.NoError(t, err)
	assert.Contains(t, string(out), `"odd"`)
	assert.Contains(t, string(out), `"not a list"`)
}

func TestFindHooksDisabled(t *testing.T) {
	out, err := AddHooks([]byte(`{"disableAllHooks": true}`), opts)
	require.NoError(t, err)
	entries, disabled, err := FindHooks(out)
	require.NoError(t, err)
	assert.True(t, disabled)
	assert.Len(t, entries, 3)
}

func TestFirstWordAndQuote(t *testing.T) {
	for _, p := range []string{"/usr/bin/hook", "/a b/hook", "/it's/hook", `C:\Program Files\flowd\hook.exe`, "/ü/hook"} {
		w, rest := firstWord(shellnorm.QuoteIfNeeded(p) + " evaluate")
		assert.Equal(t, p, w)
		assert.Equal(t, " evaluate", rest)
	}
	w, rest := firstWord(`  "/a \"b\"/hook" x`)
	assert.Equal(t, `/a "b"/hook`, w)
	assert.Equal(t, " x", rest)
	w, _ = firstWord(`/a\ b/hook evaluate`)
	assert.Equal(t, "/a b/hook", w)
}
