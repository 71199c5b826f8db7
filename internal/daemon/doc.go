// Package daemon is flowd itself: it owns the socket, the shims connected
// to it, the per-server protocol bookkeeping (which request each response
// answers, which protocol era a stream speaks), the policy decisions and
// the activity log, and serves the local API the CLI and hooks use.
//
// It also acts on the prompt-injection scan of tool output: a result
// passes untouched, gets a notice before its content, is redacted, or is
// replaced by a quarantine notice (screen.go, rewrite.go); a session that
// read flagged content from outside is tainted, which hardens later flows.
// tools/list answers are screened for poisoned definitions and checked
// against the server's pins; hidden tools are refused when called.
package daemon
