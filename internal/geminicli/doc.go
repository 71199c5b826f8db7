// Package geminicli owns what flowd must know about Gemini CLI's hooks:
// the JSON a BeforeTool or AfterTool hook gets on stdin (Translate, into
// the Claude Code terms flowd judges every agent's hooks in), the JSON it
// prints back (Output), and flowd's entries in Gemini CLI's settings.json
// (Install, Uninstall, Inspect), which copy Claude Code's hooks shape.
//
// Facts here come from Gemini CLI's hooks reference (docs/hooks/reference.md
// in google-gemini/gemini-cli), checked against the code of
// @google/gemini-cli-core 0.61.0 (mcp_context, MCP tool names, built-in
// tool names, the hooksConfig switch); no payload was captured from a
// running CLI.
package geminicli
