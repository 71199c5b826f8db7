// Package classify decides where data goes when an agent calls a tool: it
// owns the mapping from an MCP server, an MCP tool, an agent's built-in tool
// or a shell command to internal (data stays under the user's control),
// external (arguments leave it), hybrid (both) or unknown.
//
// Evidence, strongest first: configuration overrides; the agent's built-in
// tool table; words in server and tool names (keyword tables, so
// "@modelcontextprotocol/server-postgres", "postgres-db" and "PostgresTool"
// all reach the same entry); a tool's parameter names and description;
// its input schema, where a parameter that takes an address (URL, host,
// e-mail, phone, webhook) makes the tool a destination whatever the names
// say; what the tool reads (a person's own records make it a private
// source, even at an outside vendor); and the MCP tool annotations.
// Whatever comes from the server being judged (annotations, its own
// serverInfo.name) may raise caution freely but never lowers it. What
// nothing identifies is Unknown, which can send data out.
// Shell commands are read by shellnorm (never executed) and each simple
// command in them is judged on its own; one external command makes the
// line external.
//
// Everything here is pure: no I/O, no clock, safe for concurrent use.
package classify
