// Package shimproto is the wire protocol between a shim and flowd.
//
// A shim opens the flowd socket, upgrades an HTTP/1.1 request on
// /api/v1/shim to this protocol (so one socket serves the CLI, hooks and
// shims), sends a Hello, and from then on streams every MCP message it
// relays as a Message frame. flowd answers each with a Verdict frame naming
// the same sequence number. Verdicts may arrive in any order; the shim keeps
// each direction of the MCP stream in order itself. An Ask verdict makes the
// shim hold a request while it asks the user through the client (MCP
// elicitation); the shim then reports the user's answer in an Answer frame.
//
// While flowd owes a shim verdicts it sends Alive frames, so that a shim
// tells a flowd that is slow (it keeps waiting) from one that has stopped
// answering (fail_mode applies): only silence for the verdict timeout
// counts as gone.
//
// A frame is a 4-byte big-endian length, a type byte and a payload. The
// MCP bytes travel unmodified, so no JSON re-encoding happens on the hot path.
package shimproto
