// Package codex owns what flowd must know about OpenAI Codex CLI's hooks:
// the JSON a PreToolUse or PostToolUse hook gets on stdin (Translate, into
// the Claude Code terms flowd judges every agent's hooks in), the JSON it
// prints back (Output), and flowd's entries in Codex's hooks.json
// (Install, Uninstall, Inspect), which copies Claude Code's hooks shape.
//
// Facts here come from @openai/codex 0.171.0 as published on npm: the
// hook input and output JSON schemas and the messages embedded in its
// Linux binary (PreToolUse may only deny; allow, ask, updatedInput and,
// after a call, updatedMCPToolOutput are refused), checked against
// openai/codex's hooks and tool-handler sources for the tool names
// (Bash, apply_patch, mcp__<server>__<tool>).
package codex
