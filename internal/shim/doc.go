// Package shim relays one stdio MCP server and shows every message to
// flowd.
//
// The relay is byte-exact: each line read from the client or the upstream
// is forwarded as read unless flowd's verdict says otherwise, in order per
// direction, whatever order verdicts come back in. The shim knows nothing
// about policy; it only applies verdicts, and fail_mode when flowd cannot
// give one. It starts flowd when none is running (the way gpg-agent is
// started) and reconnects when flowd comes back.
package shim
