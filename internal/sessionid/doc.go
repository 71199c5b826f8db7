// Package sessionid decides which agent session a shim or hook event belongs
// to. Every MCP server of an agent runs as its own process; flowd can only
// see one story if each process can say which agent it serves.
//
// A process collects Hints about itself (Collect); flowd turns Hints into
// a session ID (ID). The order of preference is: FLOWD_SESSION, then
// CLAUDE_CODE_SESSION_ID, then the nearest ancestor that is not a shell or
// a launcher, identified by pid and start time so a reused pid is a new
// session.
//
// In a system flowd, shared by several users, a session also belongs to the
// user whose process named it: flowd puts that user's uid in the ID
// (Scoped), and each user sees only their own sessions (Owner).
//
// This package is a session's identity only; what flowd knows about a
// session (its origins, taint, flows) is flow.Session.
package sessionid
