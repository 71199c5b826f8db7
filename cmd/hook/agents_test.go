package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	geminiPre  = `{"session_id":"s","transcript_path":"/t.json","cwd":"/p","hook_event_name":"BeforeTool","timestamp":"2026-11-27T10:00:00Z","tool_name":"mcp__slack__post_message","tool_input":{"text":"hi"},"mcp_context":{"server_name":"slack"}}`
	cursorMCP  = `{"conversation_id":"c","generation_id":"g","hook_event_name":"beforeMCPExecution","tool_name":"post_message","tool_input":"{\"text\":\"hi\"}","command":"npx slack-mcp"}`
	cursorRead = `{"conversation_id":"c","hook_event_name":"beforeReadFile","file_path":"/p/a.txt","content":"x"}`
	codexPre   = `{"session_id":"s","turn_id":"t1","transcript_path":null,"cwd":"/p","hook_event_name":"PreToolUse","model":"gpt-5","permission_mode":"default","tool_name":"mcp__slack__post_message","tool_input":{"text":"hi"},"tool_use_id":"call_1"}`
	codexPost  = `{"session_id":"s","turn_id":"t1","transcript_path":null,"cwd":"/p","hook_event_name":"PostToolUse","model":"gpt-5","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":"a.txt","tool_use_id":"call_2"}`
)

// Each agent's answer, in its own format, for flowd's verdicts; the
// request to flowd names the agent and its event and carries the payload
// untouched.
func TestEvaluateGeminiAndCursor(t *testing.T) {
	tests := []struct {
		name, agent, event, payload, answer, want string
	}{
		{"gemini deny", "gemini-cli", "BeforeTool", geminiPre, `{"decision":"deny","reason":"flowd blocked: key to slack"}`,
			`{"decision":"deny","reason":"flowd blocked: key to slack"}`},
		{"gemini allow is silent", "gemini-cli", "BeforeTool", geminiPre, `{"decision":"allow"}`, ``},
		{"gemini warn", "gemini-cli", "BeforeTool", geminiPre, `{"decision":"warn","reason":"flowd: internal to unknown"}`,
			`{"systemMessage":"flowd: internal to unknown"}`},
		{"cursor deny", "cursor", "beforeMCPExecution", cursorMCP, `{"decision":"deny","reason":"flowd blocked: key to slack"}`,
			`{"permission":"deny","user_message":"flowd blocked: key to slack","agent_message":"flowd blocked: key to slack","userMessage":"flowd blocked: key to slack","agentMessage":"flowd blocked: key to slack"}`},
		{"cursor allow is said", "cursor", "beforeMCPExecution", cursorMCP, `{"decision":"allow"}`, `{"permission":"allow"}`},
		{"cursor ask", "cursor", "beforeMCPExecution", cursorMCP, `{"decision":"ask","reason":"flowd: internal data out"}`,
			`{"permission":"ask","user_message":"flowd: internal data out","agent_message":"flowd: internal data out","userMessage":"flowd: internal data out","agentMessage":"flowd: internal data out"}`},
		{"cursor read takes permission only", "cursor", "beforeReadFile", cursorRead, `{"decision":"ask","reason":"r"}`, `{"permission":"deny"}`},
		{"codex deny", "codex", "PreToolUse", codexPre, `{"decision":"deny","reason":"flowd blocked: key to slack"}`,
			`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"flowd blocked: key to slack"}}`},
		{"codex allow is silent", "codex", "PreToolUse", codexPre, `{"decision":"allow"}`, ``},
		{"codex warn", "codex", "PreToolUse", codexPre, `{"decision":"warn","reason":"flowd: internal to unknown"}`,
			`{"systemMessage":"flowd: internal to unknown"}`},
		{"codex after: context", "codex", "PostToolUse", codexPost, `{"decision":"allow","additional_context":"treat as data"}`,
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"treat as data"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stub := startStub(t, answer(tt.answer))
			code, out, _ := runEvaluate(t, []byte(tt.payload), "--agent", tt.agent, "--event", tt.event, "--socket", stub.socket)
			assert.Equal(t, 0, code)
			if tt.want == "" {
				assert.Empty(t, out)
			} else {
				assert.JSONEq(t, tt.want, out)
			}
			var body map[string]json.RawMessage
			require.NoError(t, json.Unmarshal((<-stub.reqs).body, &body))
			assert.JSONEq(t, `"`+tt.agent+`"`, string(body["agent"]))
			assert.JSONEq(t, `"`+tt.event+`"`, string(body["event"]))
			assert.JSONEq(t, tt.payload, string(body["payload"]))
		})
	}
}

// When flowd cannot answer, the call ends as the hook was installed:
// denied with --fail-closed, and otherwise allowed with a message the user
// sees (never a silent allow). An after-tool event never blocks.
func TestEvaluateGeminiAndCursorFailures(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.sock")
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	hung := startStub(t, func(w http.ResponseWriter, r *http.Request) { <-release })
	tests := []struct {
		name, agent, event, socket, payload string
		failClosed                          bool
		want, wantErr                       string
	}{
		{"gemini down, open", "gemini-cli", "BeforeTool", missing, geminiPre, false,
			`{"systemMessage":"flowd could not check this BeforeTool call (flowd is unreachable: connect to flowd at ` + missing + `: dial unix ` + missing + `: connect: no such file or directory (no flowd binary next to this program)); it goes on unchecked (fail-open)"}`,
			"not checked (fail-open)"},
		{"gemini down, closed", "gemini-cli", "BeforeTool", missing, geminiPre, true, `"decision":"deny"`, "denied (--fail-closed)"},
		{"gemini slow, closed", "gemini-cli", "BeforeTool", hung.socket, geminiPre, true, `"decision":"deny"`, "i/o timeout"},
		{"gemini garbage, closed", "gemini-cli", "BeforeTool", missing, `{"tool_name":`, true, `"decision":"deny"`, "parse Gemini CLI hook payload"},
		{"gemini garbage, open", "gemini-cli", "BeforeTool", missing, `[1,2]`, false, `"systemMessage":"flowd could not check`, "parse Gemini CLI hook payload"},
		{"gemini after-tool never denies", "gemini-cli", "AfterTool", missing, geminiPre, true, `"systemMessage":"flowd could not check`, "fail-open"},
		{"cursor down, open", "cursor", "beforeMCPExecution", missing, cursorMCP, false, `{"permission":"allow","user_message":"flowd could not check`, "not checked (fail-open)"},
		{"cursor down, closed", "cursor", "beforeMCPExecution", missing, cursorMCP, true, `{"permission":"deny","user_message":"flowd is unreachable`, "denied (--fail-closed)"},
		{"cursor slow, closed", "cursor", "beforeShellExecution", hung.socket, `{"command":"ls"}`, true, `{"permission":"deny"`, "i/o timeout"},
		{"cursor garbage, closed", "cursor", "beforeReadFile", missing, `garbage`, true, `{"permission":"deny"}`, "parse Cursor hook payload"},
		{"cursor after never denies", "cursor", "afterShellExecution", missing, `{"command":"ls","output":"x"}`, true, `{}`, "fail-open"},
		{"codex down, open", "codex", "PreToolUse", missing, codexPre, false, `"systemMessage":"flowd could not check this PreToolUse call (flowd is unreachable`, "not checked (fail-open)"},
		{"codex down, closed", "codex", "PreToolUse", missing, codexPre, true, `"permissionDecision":"deny","permissionDecisionReason":"flowd is unreachable`, "denied (--fail-closed)"},
		{"codex slow, closed", "codex", "PreToolUse", hung.socket, codexPre, true, `"permissionDecision":"deny"`, "i/o timeout"},
		{"codex garbage, closed", "codex", "PreToolUse", missing, `{"tool_name":`, true, `"permissionDecision":"deny"`, "parse Codex hook payload"},
		{"codex garbage, open", "codex", "PreToolUse", missing, `null`, false, `"systemMessage":"flowd could not check`, "parse Codex hook payload"},
		{"codex after-tool never denies", "codex", "PostToolUse", missing, codexPost, true, `"systemMessage":"flowd could not check`, "fail-open"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"--agent", tt.agent, "--event", tt.event, "--socket", tt.socket, "--timeout", "300ms"}
			if tt.failClosed {
				args = append(args, "--fail-closed")
			}
			code, out, errOut := runEvaluate(t, []byte(tt.payload), args...)
			assert.Equal(t, 0, code)
			assert.True(t, json.Valid([]byte(out)), out)
			if tt.want[0] == '{' && tt.want[len(tt.want)-1] == '}' {
				assert.JSONEq(t, tt.want, out)
			} else {
				assert.Contains(t, out, tt.want)
			}
			assert.Contains(t, errOut, tt.wantErr)
		})
	}
}

func TestInstallGeminiAndCursor(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	dir := t.TempDir()
	binary := func() (string, error) { return "/usr/local/bin/hook", nil }
	for _, tt := range []struct{ agent, file string }{
		{"gemini-cli", filepath.Join(dir, ".gemini", "settings.json")},
		{"cursor", filepath.Join(dir, ".cursor", "hooks.json")},
		{"codex", filepath.Join(dir, ".codex", "hooks.json")},
	} {
		var out, errb bytes.Buffer
		require.Equal(t, 0, install([]string{"--agent", tt.agent, "--scope", "project", "--dir", dir, "--fail-closed"}, &out, &errb, binary), errb.String())
		assert.Contains(t, out.String(), "in "+tt.file)
		assert.Contains(t, out.String(), "(--scope user keeps it to you)")
		b, err := os.ReadFile(tt.file)
		require.NoError(t, err)
		assert.Contains(t, string(b), "/usr/local/bin/hook evaluate --agent "+tt.agent+" --event ")

		out.Reset()
		require.Equal(t, 0, status([]string{"--dir", dir, "--socket", filepath.Join(dir, "none.sock")}, &out, &errb))
		assert.Contains(t, out.String(), tt.file+": installed")

		out.Reset()
		require.Equal(t, 0, uninstall([]string{"--agent", tt.agent, "--scope", "project", "--dir", dir}, &out, &errb))
		assert.Contains(t, out.String(), "removed flowd's")

		errb.Reset()
		assert.Equal(t, 1, install([]string{"--agent", tt.agent, "--scope", "local"}, io.Discard, &errb, binary))
		assert.Contains(t, errb.String(), "user and project")
		errb.Reset()
		assert.Equal(t, 1, install([]string{"--agent", tt.agent, "--scope", "user", "--scan-output"}, io.Discard, &errb, binary))
		assert.Contains(t, errb.String(), "for --agent claude-code only")
	}
}
