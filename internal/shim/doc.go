// Package shim relays one stdio MCP server and shows every message to
// flowd.
//
// The relay is byte-exact: each line read from the client or the upstream
// is forwarded as read unless flowd's verdict says otherwise, in order per
// direction, whatever order verdicts come back in. The shim decides
// nothing by itself: it applies verdicts, and fail_mode when flowd cannot
// give one. One check of flowd's runs here too, on purpose: a call to a
// tool flowd granted (shimproto.Grant) goes on without waiting only if its
// arguments name none of the suspicious hosts the grant lists, checked
// with policy.SuspiciousHost, the function flowd's judge uses, so the shim
// never lets through what flowd would deny (grant.go). It starts flowd
// when none is running (the way gpg-agent is started) and reconnects when
// flowd comes back.
package shim
