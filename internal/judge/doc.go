// Package judge decides for flowd, whatever entrance a message came in by
// (a shim relaying an MCP server, an agent's hook, later anything else):
// Call decides one outgoing tool call and Result screens one incoming
// result. It gathers the facts policy reads (the destination's class, the
// flows into the arguments, suspicious hosts, the session's taint), keeps
// the sessions' flow state, writes the activity records and quarantines
// blocked content, and owns the notices flowd puts before content it
// flags.
//
// It speaks no transport: its callers turn an Outcome or a Screened into
// a shim verdict or a hook answer. It never imports upstream, daemon,
// shimproto or hookproto.
package judge
