// Package cursor owns what flowd must know about Cursor's agent hooks: the
// JSON a hook gets on stdin (Translate, into the Claude Code terms flowd
// judges every agent's hooks in), the JSON it prints back (Output), and
// flowd's entries in Cursor's hooks.json (Install, Uninstall, Inspect).
//
// Cursor publishes no CLI to test against; field names come from its
// hooks documentation as collected in the project's protocol notes
// (shared/reference/protocols.md), CorridorSecurity/hookshot's types, the
// Cupcake harness reference, and tests elsewhere written from the code of
// cursor-agent 2026.10 (mcp_server_name, the arguments as a JSON string).
package cursor
