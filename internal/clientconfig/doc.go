// Package clientconfig owns flowd's edits to MCP clients' configuration
// files (Claude Desktop, Claude Code, Cursor, VS Code, Windsurf, Cline,
// Zed, Gemini CLI, Codex, Continue): where each client keeps its servers,
// in which format (JSON, JSON with comments, TOML, YAML), and putting
// every stdio server behind the shim (Wrap) or taking it back out
// (Unwrap).
//
// Edits are splices: only the `command` and `args` values of a changed
// server are rewritten, in the layout the file already uses, so every other
// byte (key order, escapes, indentation, other fields) stays as written, and
// Unwrap(Wrap(x)) gives x back. A server's original command line is kept in
// the shim's own arguments, after `--`, which is all Unwrap needs.
package clientconfig
