// Package classify decides where data goes when an agent calls a tool: it
// owns the mapping from an MCP server, an MCP tool, an agent's built-in tool
// or a shell command to internal (data stays under the user's control),
// external (arguments leave it), hybrid (both) or unknown.
//
// Evidence, strongest first: configuration overrides; the agent's built-in
// tool table; words in server and tool names (keyword tables, so
// "@modelcontextprotocol/server-postgres", "postgres-db" and "PostgresTool"
// all reach the same entry); a tool's parameter names and description; and
// the MCP tool annotations. Annotations come from the server being judged, so
// they may raise caution freely but only decide when the names say little.
// Shell commands are tokenised (never executed) and each simple command in
// them is judged on its own; one external command makes the line external.
//
// Everything here is pure: no I/O, no clock, safe for concurrent use.
package classify
